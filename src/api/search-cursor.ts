/**
 * Cursors for the next page of a search: base64url of a small JSON object with a checksum,
 * holding how many results came before and a digest of the search they belong to (its words,
 * filters and page size), so a cursor is never applied to another search. The hashes guard against
 * mistakes (a cursor cut short, or pasted into another search), not an adversary: a cursor only ever
 * moves within the caller's own search. So they are FastHash, not SHA-1, which would load node:crypto
 * into every cold `recall search` (a few milliseconds).
 */
import { RecallError } from "../errors.js";
import { FastHash } from "../hash.js";

const VERSION = 1;

export interface SearchCursor {
  /** Results on the pages before. */
  offset: number;
  /** What the search was (see searchDigest). */
  digest: string;
  /** For a snapshot cursor, which results came before (see searchPage). */
  results?: string;
  /** A search by meaning or both: the vectors of the meaning index the first page read, which later pages read too. */
  vectors?: number;
}

/** The search options a cursor is tied to, as one short string. */
export function searchDigest(parts: readonly unknown[]): string {
  return new FastHash().update(JSON.stringify(parts)).digest();
}

function checksum(body: string): string {
  return new FastHash().update(`search:${body}`).digest().slice(0, 12);
}

export function encodeSearchCursor(cursor: SearchCursor): string {
  const body = JSON.stringify({ v: VERSION, o: cursor.offset, d: cursor.digest, ...(cursor.results === undefined ? {} : { r: cursor.results }), ...(cursor.vectors === undefined ? {} : { m: cursor.vectors }) });
  return Buffer.from(JSON.stringify({ b: body, k: checksum(body) })).toString("base64url");
}

export function decodeSearchCursor(text: string, digest: string): SearchCursor {
  const invalid = new RecallError("BAD_CURSOR", "this is not a search cursor (was it cut short when copied?)", { field: "cursor" });
  let body: Record<string, unknown>;
  try {
    const outer = JSON.parse(Buffer.from(text.trim(), "base64url").toString("utf8")) as { b?: unknown; k?: unknown };
    if (typeof outer?.b !== "string" || outer.k !== checksum(outer.b)) throw invalid;
    body = JSON.parse(outer.b) as Record<string, unknown>;
  } catch {
    throw invalid;
  }
  if (body.v !== VERSION) throw new RecallError("STALE_CURSOR", "this cursor was made by another version of recall", { field: "cursor", hint: "start again without a cursor" });
  if (!Number.isInteger(body.o) || (body.o as number) < 0 || typeof body.d !== "string" || (body.r !== undefined && typeof body.r !== "string") || (body.m !== undefined && (!Number.isInteger(body.m) || (body.m as number) < 0))) throw invalid;
  if (body.d !== digest) throw new RecallError("CURSOR_MISMATCH", "this cursor continues another search", { field: "cursor", hint: "start again without a cursor" });
  return { offset: body.o as number, digest, results: body.r as string | undefined, vectors: body.m as number | undefined };
}
