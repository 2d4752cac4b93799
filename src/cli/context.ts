import type { BaseContext } from "clipanion";

/** What every command gets besides its options: the streams, the environment and the clock. */
export interface RecallContext extends BaseContext {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Whether stdout and stderr are terminals (colors, progress bars). */
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
}
