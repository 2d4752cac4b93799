/**
 * Reading a session file only when it is what the sessions folder should hold, for hosts that
 * name sessions on behalf of someone they do not trust (the MCP server; `recall pull` writes only
 * where `realPathInside` says a file stays in the sessions folder): the file, after
 * resolving symlinks, is inside the sessions folder; it is a regular file, not a symlink, with
 * one link (no hard link to a file elsewhere); it is at most `MAX_SESSION_BYTES`; and it is the
 * same file (device and inode) before and after the read, so one replaced in between is noticed.
 * Error messages never name a path.
 */
import { lstatSync, realpathSync, statSync, type Stats } from "node:fs";
import { sep } from "node:path";
import { RecallError } from "../errors.js";
import { sha1 } from "../hash.js";

export const MAX_SESSION_BYTES = 64 * 1024 * 1024;

/** A short fingerprint of which file this is (device and inode), stable across restarts. */
export type FileIdentity = string;

function identityOf(stats: Stats): FileIdentity {
  return sha1(`${stats.dev}:${stats.ino}`).slice(0, 12);
}

/**
 * `path` with its symbolic links resolved, if that is the sessions folder or inside it; undefined
 * if it is elsewhere. Both must exist (an error of the file system otherwise).
 */
export function realPathInside(sessionsDir: string, path: string): string | undefined {
  const root = realpathSync(sessionsDir);
  const real = realpathSync(path);
  return real === root || real.startsWith(root + sep) ? real : undefined;
}

/** The file's identity once it passed every check; a RecallError saying which failed otherwise. */
export function checkSessionFile(sessionsDir: string, path: string): FileIdentity {
  let stats: Stats;
  let real: string | undefined;
  try {
    stats = lstatSync(path);
    real = realPathInside(sessionsDir, path);
  } catch {
    throw new RecallError("NOT_FOUND", "the session file is gone");
  }
  if (real === undefined)
    throw new RecallError("UNSAFE_FILE", "the session file is not inside the sessions folder");
  if (stats.isSymbolicLink())
    throw new RecallError("UNSAFE_FILE", "the session file is a symbolic link");
  if (!stats.isFile())
    throw new RecallError("UNSAFE_FILE", "the session file is not a regular file");
  if (stats.nlink !== 1)
    throw new RecallError("UNSAFE_FILE", "the session file has more than one link");
  if (stats.size > MAX_SESSION_BYTES) {
    throw new RecallError(
      "FILE_TOO_LARGE",
      `the session file is larger than ${MAX_SESSION_BYTES / 1024 / 1024} MiB`,
      { value: String(stats.size) },
    );
  }
  return identityOf(stats);
}

/**
 * For a reader that takes a whole session into memory at once (an export): the file at `path`,
 * its links followed, is a regular file (never a FIFO or a device, which would be read forever) of
 * at most `maxBytes`. Throws a RecallError saying which it is not (with `hint`, what to do about a
 * file too large); nothing is opened.
 */
export function checkWholeSessionFile(
  path: string,
  maxBytes: number = MAX_SESSION_BYTES,
  hint?: string,
): void {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch {
    throw new RecallError("NOT_FOUND", "the session file is gone");
  }
  if (!stats.isFile())
    throw new RecallError(
      "UNSAFE_FILE",
      `the session file is not a regular file (${kindOf(stats)})`,
    );
  if (stats.size > maxBytes) {
    throw new RecallError(
      "FILE_TOO_LARGE",
      `the session file is ${mib(stats.size)} MiB, more than the ${mib(maxBytes)} MiB read whole at once`,
      { value: String(stats.size), hint },
    );
  }
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return "a folder";
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  return stats.isSocket() ? "a socket" : "not a plain file";
}

function mib(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0).replace(/\.0$/, "");
}

/**
 * `read` of a file that passes the checks before and after, and is the file `expected` names
 * (when given: the identity a reference was made with) all along.
 */
export async function guardedRead<T>(
  sessionsDir: string,
  path: string,
  expected: FileIdentity | undefined,
  read: () => Promise<T>,
): Promise<T> {
  const before = checkSessionFile(sessionsDir, path);
  if (expected !== undefined && before !== expected) throw replaced();
  const value = await read();
  if (checkSessionFile(sessionsDir, path) !== before) throw replaced();
  return value;
}

function replaced(): RecallError {
  return new RecallError("SESSION_REPLACED", "the session file was replaced by another file", {
    hint: "search again for a new reference",
  });
}
