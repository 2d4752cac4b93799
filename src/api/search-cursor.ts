/**
 * Cursors for the next page of a search: base64url of a small JSON object with a checksum,
 * holding how many results came before and a digest of the search they belong to (its words,
 * filters and page size), so a cursor is never applied to another search. A ranked search's
 * cursor also holds the place of the last session shown and the clock its scores were measured
 * from, so that the next page continues after it (the native search skips what came before, and
 * a deep page costs what the first does). The hashes guard against
 * mistakes (a cursor cut short, or pasted into another search), not an adversary: a cursor only
 * ever moves within the caller's own search. So they are FastHash, not SHA-1, which would load
 * node:crypto into every cold `recall search` (a few milliseconds).
 */
import { RecallError } from "../errors.js";
import { FastHash } from "../hash.js";

const VERSION = 2;

export interface SearchCursor {
  /** Results on the pages before. */
  offset: number;
  /** What the search was (see searchDigest). */
  digest: string;
  /** For a snapshot cursor of a listing, which results came before (see searchPage). */
  results?: string;
  /** A ranked search: where the last session shown is in the ranking. */
  after?: CursorPlace;
  /**
   * A ranked search: the clock of the first page (ms), which every page's scores are measured from.
   */
  now?: number;
  /**
   * For a snapshot cursor of a ranked search, the sessions shown so far (the native search's
   * `ahead` digest).
   */
  ahead?: string;
  /**
   * A search by meaning or both: the vectors of the meaning index the first page read, which later
   * pages read too.
   */
  vectors?: number;
}

/** A session's place in a ranking (the native search's `NativePlace`). */
export interface CursorPlace {
  score: number;
  lastActivity: number;
  key: string;
}

function isPlace(value: unknown): value is { s: number; t: number; k: string } {
  if (typeof value !== "object" || value === null) return false;
  const { s, t, k } = value as Record<string, unknown>;
  return (
    typeof s === "number" &&
    Number.isFinite(s) &&
    Number.isSafeInteger(t) &&
    typeof k === "string" &&
    /^\d{1,20}$/.test(k)
  );
}

/** The search options a cursor is tied to, as one short string. */
export function searchDigest(parts: readonly unknown[]): string {
  return new FastHash().update(JSON.stringify(parts)).digest();
}

function checksum(body: string): string {
  return new FastHash().update(`search:${body}`).digest().slice(0, 12);
}

export function encodeSearchCursor(cursor: SearchCursor): string {
  const body = JSON.stringify({
    v: VERSION,
    o: cursor.offset,
    d: cursor.digest,
    ...(cursor.results === undefined ? {} : { r: cursor.results }),
    ...(cursor.after === undefined
      ? {}
      : { a: { s: cursor.after.score, t: cursor.after.lastActivity, k: cursor.after.key } }),
    ...(cursor.now === undefined ? {} : { n: cursor.now }),
    ...(cursor.ahead === undefined ? {} : { h: cursor.ahead }),
    ...(cursor.vectors === undefined ? {} : { m: cursor.vectors }),
  });
  return Buffer.from(JSON.stringify({ b: body, k: checksum(body) })).toString("base64url");
}

export function decodeSearchCursor(text: string, digest: string): SearchCursor {
  const invalid = new RecallError(
    "BAD_CURSOR",
    "this is not a search cursor (was it cut short when copied?)",
    { field: "cursor" },
  );
  let body: Record<string, unknown>;
  try {
    const outer = JSON.parse(Buffer.from(text.trim(), "base64url").toString("utf8")) as {
      b?: unknown;
      k?: unknown;
    };
    if (typeof outer?.b !== "string" || outer.k !== checksum(outer.b)) throw invalid;
    body = JSON.parse(outer.b) as Record<string, unknown>;
  } catch {
    throw invalid;
  }
  if (body.v !== VERSION)
    throw new RecallError("STALE_CURSOR", "this cursor was made by another version of recall", {
      field: "cursor",
      hint: "start again without a cursor",
    });
  if (
    !Number.isInteger(body.o) ||
    (body.o as number) < 0 ||
    typeof body.d !== "string" ||
    (body.r !== undefined && typeof body.r !== "string")
  )
    throw invalid;
  if (
    (body.a !== undefined && !isPlace(body.a)) ||
    (body.n !== undefined && !Number.isSafeInteger(body.n)) ||
    (body.h !== undefined && (typeof body.h !== "string" || !/^\d{1,20}$/.test(body.h)))
  )
    throw invalid;
  if (body.m !== undefined && (!Number.isSafeInteger(body.m) || (body.m as number) < 0))
    throw invalid;
  if (body.d !== digest)
    throw new RecallError("CURSOR_MISMATCH", "this cursor continues another search", {
      field: "cursor",
      hint: "start again without a cursor",
    });
  const place = body.a as { s: number; t: number; k: string } | undefined;
  return {
    offset: body.o as number,
    digest,
    results: body.r as string | undefined,
    ...(place ? { after: { score: place.s, lastActivity: place.t, key: place.k } } : {}),
    ...(body.n === undefined ? {} : { now: body.n as number }),
    ...(body.h === undefined ? {} : { ahead: body.h as string }),
    ...(body.m === undefined ? {} : { vectors: body.m as number }),
  };
}
