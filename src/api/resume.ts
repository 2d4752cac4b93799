/**
 * What resuming a session in Pi takes: `pi --session <absolute path>` run in the session's own
 * folder (an absolute path is always taken as a path by Pi, never as an id). A folder that is
 * gone is an error that says what Pi itself would offer: forking the session into another one.
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { RecallError } from "../errors.js";
import { shellLine } from "../output/shell.js";
import type { SessionRef } from "./resolve-session.js";

export interface ResumePlan {
  /** The command, starting with `pi`. */
  argv: string[];
  /** Where to run it. */
  cwd: string;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export function resumePlan(session: SessionRef): ResumePlan {
  const path = resolve(session.path);
  const fork = shellLine(["pi", "--fork", path]);
  if (!session.cwd) {
    throw new RecallError("NOT_FOUND", `session ${session.id} does not record its folder (the file has no header); to continue it, run \`${fork}\` from the folder you want`);
  }
  if (!isDirectory(session.cwd)) {
    throw new RecallError("NOT_FOUND", `the folder of session ${session.id}, ${session.cwd}, no longer exists; to continue the session elsewhere, run \`${fork}\` from another folder`);
  }
  return { argv: ["pi", "--session", path], cwd: session.cwd };
}

/** The plan as one shell line: `cd <cwd> && pi --session <path>`. */
export function resumeShellLine(plan: ResumePlan): string {
  return `${shellLine(["cd", plan.cwd])} && ${shellLine(plan.argv)}`;
}
