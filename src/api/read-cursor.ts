/**
 * Cursors for reading a long session page by page. A cursor is an opaque string: base64url of a
 * small JSON object with a checksum, holding where the next page starts, how the session is
 * being read, and the size and SHA-1 of the session file when the page was made. The position
 * counts messages of one particular listing of one particular file; once the file changes (Pi
 * appended a turn, which can also move the active branch, or rewrote a legacy file), the
 * position means nothing, so such a cursor is refused.
 */
import { closeSync, readSync } from "node:fs";
import { RecallError } from "../errors.js";
import { sha1, sha1Hasher } from "../hash.js";
import { openSessionFile } from "../sessions/lines.js";
import { TRANSCRIPT_MODES, type TranscriptMode } from "../sessions/transcript.js";

export interface FileFingerprint {
  size: number;
  sha1: string;
}

export interface ReadCursor extends FileFingerprint {
  sessionId: string;
  mode: TranscriptMode;
  allBranches: boolean;
  /** The message the next page starts with. */
  item: number;
  /** Where in that message's text it starts (non-zero when a message is split across pages). */
  char: number;
}

const VERSION = 1;

/** What to do about a cursor that cannot be used. */
export const START_AGAIN = "start again without a cursor";

export function fingerprint(path: string): FileFingerprint {
  const hash = sha1Hasher();
  const chunk = Buffer.allocUnsafe(1 << 20);
  let size = 0;
  const fd = openSessionFile(path);
  try {
    for (
      let read = readSync(fd, chunk, 0, chunk.length, size);
      read > 0;
      read = readSync(fd, chunk, 0, chunk.length, size)
    ) {
      hash.update(chunk.subarray(0, read));
      size += read;
    }
  } finally {
    closeSync(fd);
  }
  return { size, sha1: hash.digest("hex") };
}

function checksum(body: string): string {
  return sha1(body).slice(0, 12);
}

export function encodeCursor(cursor: ReadCursor): string {
  const body = JSON.stringify({
    v: VERSION,
    s: cursor.sessionId,
    m: cursor.mode,
    a: cursor.allBranches,
    i: cursor.item,
    c: cursor.char,
    z: cursor.size,
    h: cursor.sha1,
  });
  return Buffer.from(JSON.stringify({ b: body, k: checksum(body) })).toString("base64url");
}

export function decodeCursor(text: string): ReadCursor {
  const invalid = new RecallError(
    "BAD_CURSOR",
    "this is not a read cursor (was it cut short when copied?)",
    { field: "cursor" },
  );
  let outer: { b?: unknown; k?: unknown };
  try {
    outer = JSON.parse(Buffer.from(text.trim(), "base64url").toString("utf8")) as typeof outer;
  } catch {
    throw invalid;
  }
  if (typeof outer?.b !== "string" || outer.k !== checksum(outer.b)) throw invalid;
  const c = JSON.parse(outer.b) as Record<string, unknown>;
  if (c.v !== VERSION)
    throw new RecallError("STALE_CURSOR", "this cursor was made by another version of recall", {
      field: "cursor",
      hint: START_AGAIN,
    });
  const valid =
    typeof c.s === "string" &&
    TRANSCRIPT_MODES.includes(c.m as TranscriptMode) &&
    typeof c.a === "boolean" &&
    Number.isInteger(c.i) &&
    Number.isInteger(c.c) &&
    Number.isInteger(c.z) &&
    typeof c.h === "string";
  if (!valid) throw invalid;
  return {
    sessionId: c.s as string,
    mode: c.m as TranscriptMode,
    allBranches: c.a as boolean,
    item: c.i as number,
    char: c.c as number,
    size: c.z as number,
    sha1: c.h as string,
  };
}
