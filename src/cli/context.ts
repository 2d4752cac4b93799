import type { BaseContext } from "clipanion";
import type { EarlyLook } from "../index.js";

/** What every command gets besides its options: the streams, the environment and the clock. */
export interface RecallContext extends BaseContext {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Whether stdout and stderr are terminals (colors, progress bars). */
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** A look at the session files started before the CLI was loaded (see early-look.ts). */
  earlyLook?: EarlyLook;
}
