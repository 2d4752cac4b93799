/**
 * What resuming a session in Pi takes: `pi --session <absolute path>` run in the session's own
 * folder (an absolute path is always taken as a path by Pi, never as an id). A folder that is
 * gone is a FOLDER_GONE error that says what Pi itself would offer: forking the session (`pi
 * --fork <path>`) into another one.
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { RecallError } from "../errors.js";
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
  // `value`: the session file, which `pi --fork` takes.
  if (!session.cwd) {
    throw new RecallError(
      "FOLDER_GONE",
      `session ${session.id} does not record its folder (the file has no header)`,
      {
        value: path,
        hint: "to continue it, fork it from the folder you want",
      },
    );
  }
  if (!isDirectory(session.cwd)) {
    throw new RecallError(
      "FOLDER_GONE",
      `the folder of session ${session.id}, ${session.cwd}, no longer exists`,
      {
        value: path,
        hint: "to continue the session elsewhere, fork it from another folder",
      },
    );
  }
  return { argv: ["pi", "--session", path], cwd: session.cwd };
}
