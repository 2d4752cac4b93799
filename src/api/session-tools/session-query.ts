/**
 * What the pi_session_* tools' arguments mean as a library search, for every adapter alike: a
 * query that is a complete session UUID is that session (as pi_session_find), mode "raw" searches
 * every kind of text, and arguments out of the tools' limits are BAD_INPUT.
 */
import { RecallError } from "../../errors.js";
import { MATCH_MODES, type Match } from "../../answers/search-hit.js";
import type { SearchOptions } from "../search.js";
import { SESSION_TOOL_TEXT } from "./descriptions.js";
import {
  SESSION_TOOL_LIMITS as LIMITS,
  SESSION_TOOL_MODES,
  type SessionToolMode,
} from "./limits.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A search as the tools ask for it: the library's options, and what to tell the model about how it
 * was read.
 */
export interface SessionQuery {
  search: Pick<SearchOptions, "query" | "sessionIds" | "content" | "file" | "since" | "match">;
  note?: string;
}

export interface SessionSearchArgs {
  query: string;
  mode?: SessionToolMode;
  file?: string;
  /** `words` (default), `meaning` or `both`, as `search({ match })`. */
  match?: Match;
}

function bad(field: string, message: string, hint: string): RecallError {
  return new RecallError("BAD_INPUT", message, { field, hint });
}

/** `query`, checked: some words, at most the tools' length. */
export function checkedQuery(query: string, field = "query"): string {
  if (query.length > LIMITS.maxQueryChars)
    throw bad(
      field,
      `${field} is longer than ${LIMITS.maxQueryChars} characters`,
      "shorten it to the words that matter",
    );
  const trimmed = query.trim();
  if (trimmed === "")
    throw bad(
      field,
      `${field} is empty`,
      'give some words, a "phrase" or a #tag (pi_session_list lists the latest sessions)',
    );
  return trimmed;
}

function checkedMode(mode: string | undefined): SessionToolMode {
  if (mode === undefined) return "conversation";
  if (!(SESSION_TOOL_MODES as readonly string[]).includes(mode))
    throw bad(
      "mode",
      `mode must be "conversation" or "raw", not ${JSON.stringify(mode)}`,
      'leave it out, or pass "raw"',
    );
  return mode as SessionToolMode;
}

/**
 * The match asked for; undefined: the library's default (both where the model is installed, else
 * words).
 */
function checkedMatch(match: string | undefined): Match | undefined {
  if (match === undefined) return undefined;
  if (!(MATCH_MODES as readonly string[]).includes(match))
    throw bad(
      "match",
      `match must be "words", "meaning" or "both", not ${JSON.stringify(match)}`,
      "leave it out for the default",
    );
  return match as Match;
}

/**
 * pi_session_search: words, or a complete session id; mode "raw" reads every kind of text; match
 * "meaning" or "both" the meaning index.
 */
export function searchQuery(args: SessionSearchArgs): SessionQuery {
  const query = checkedQuery(args.query);
  const raw = checkedMode(args.mode) === "raw";
  const match = checkedMatch(args.match);
  const widened = {
    ...(raw ? { content: ["all" as const] } : {}),
    ...(args.file === undefined ? {} : { file: args.file }),
    ...(match === undefined ? {} : { match }),
  };
  if (UUID.test(query))
    return {
      search: { query: "", sessionIds: [query.toLowerCase()], ...widened },
      note: SESSION_TOOL_TEXT.byIdNote,
    };
  return { search: { query, ...widened } };
}

/** pi_session_find: a complete session UUID, nothing else. */
export function findQuery(sessionId: string, field = "session_id"): SessionQuery {
  const id = sessionId.trim();
  if (!UUID.test(id))
    throw bad(
      field,
      `${field} must be a complete session UUID`,
      "pass the full UUID, or use pi_session_search for words",
    );
  return { search: { query: "", sessionIds: [id.toLowerCase()] } };
}

/** pi_session_list: the latest sessions, from `since` (ms since epoch) on. */
export function listQuery(since: number | undefined): SessionQuery {
  return { search: { query: "", ...(since === undefined ? {} : { since }) } };
}

/** A page size, checked against the tools' limit. */
export function checkedResults(limit: number | undefined, field = "limit"): number {
  if (limit === undefined) return LIMITS.defaultResults;
  if (!Number.isInteger(limit) || limit < 1 || limit > LIMITS.maxResults)
    throw bad(
      field,
      `${field} must be a whole number from 1 to ${LIMITS.maxResults}, not ${limit}`,
      `pass at most ${LIMITS.maxResults} and page on with the cursor`,
    );
  return limit;
}

/** A character budget of read or context, checked against the tools' limits. */
export function checkedPageChars(
  chars: number | undefined,
  fallback: number,
  field = "max_chars",
): number {
  if (chars === undefined) return fallback;
  if (!Number.isInteger(chars) || chars < LIMITS.minPageChars || chars > LIMITS.maxPageChars) {
    throw bad(
      field,
      `${field} must be a whole number from ${LIMITS.minPageChars} to ${LIMITS.maxPageChars}, not ${chars}`,
      `pass at most ${LIMITS.maxPageChars}`,
    );
  }
  return chars;
}

/** The view of a session a read shows: `conversation` unless "raw" is asked for. */
export function readMode(mode: string | undefined): SessionToolMode {
  return checkedMode(mode);
}
