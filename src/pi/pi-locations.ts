/**
 * Where recall should look when Pi runs it. Pi's own settings (PI_CODING_AGENT_DIR,
 * PI_CODING_AGENT_SESSION_DIR, `sessionDir`) are read by the library exactly as the CLI reads
 * them; only `pi --session-dir` is invisible to it, so a session folder outside the one recall
 * would pick is passed on.
 */
import { isAbsolute, relative, resolve } from "node:path";
import { locate, type RecallOptions } from "../index.js";

export interface PiPlace {
  /** Pi's working directory when recall is first used. */
  cwd: string;
  /** The folder Pi keeps this session in (`ctx.sessionManager.getSessionDir()`). */
  piSessionDir?: string;
  env?: NodeJS.ProcessEnv;
}

function inside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

export function recallOptionsFor(place: PiPlace): RecallOptions {
  const env = { ...(place.env ?? process.env) };
  const options: RecallOptions = { env, cwd: place.cwd };
  const defaults = locate({ env, cwd: place.cwd });
  if (place.piSessionDir) {
    const piDir = resolve(place.cwd, place.piSessionDir);
    if (!inside(piDir, defaults.sessionsDir)) options.sessionsDir = piDir;
  }
  return options;
}
