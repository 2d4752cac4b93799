/**
 * Full-text search over the index: the one implementation the CLI, the Pi extension and the MCP
 * server share. The native core decides which messages match and how sessions rank; this layer
 * turns the caller's options into filters and the results into `SearchHit`s.
 */
import { resolve } from "node:path";
import type { NativeFilters } from "../native/addon.js";
import type { IndexStore } from "../store.js";
import { hasTags, hasText, parseTagQuery } from "../tags/query-tags.js";
import { iso, toSummary, type SessionSummary } from "./session-summary.js";

export interface SearchOptions {
  /**
   * Words to find. `#tag` keeps only sessions carrying that tag (several must all be there) and
   * `-#tag` drops those carrying it; a query of tags alone lists their sessions, newest first.
   */
  query: string;
  /** Sessions to return (default 20). */
  limit?: number;
  /** Also match the unfinished last word as a prefix (for search-as-you-type). */
  prefix?: boolean;
  /** Only sessions whose working directory is this folder. */
  cwd?: string;
  /** Only messages from this time on / up to this time (ms since epoch). */
  since?: number;
  until?: number;
  /** The time recency is measured from (default: now). */
  now?: number;
  signal?: AbortSignal;
}

export interface MatchedMessage {
  role: string;
  /** Position among the session's indexed messages, from 0. */
  index: number;
  entryId: string;
  /** ISO 8601 */
  timestamp: string;
}

export interface SearchHit extends SessionSummary {
  score: number;
  /** The best matching message; null when only the session's tags matched. */
  message: MatchedMessage | null;
  /** About 200 characters around the match. */
  snippet: string;
  /** Matched words in `snippet` as [start, end) UTF-8 byte offsets. */
  spans: [number, number][];
}

export const DEFAULT_LIMIT = 20;

export function scopeFilters(options: Pick<SearchOptions, "cwd" | "since" | "until">): NativeFilters {
  const filters: NativeFilters = {};
  if (options.cwd !== undefined) filters.cwds = [resolve(options.cwd)];
  if (options.since !== undefined) filters.since = options.since;
  if (options.until !== undefined) filters.until = options.until;
  return filters;
}

export async function searchSessions(store: IndexStore, options: SearchOptions): Promise<SearchHit[]> {
  const query = parseTagQuery(options.query);
  const limit = options.limit ?? DEFAULT_LIMIT;
  const filters = scopeFilters(options);
  if (hasTags(query)) {
    if (query.include.length > 0) filters.tagsAll = query.include;
    if (query.exclude.length > 0) filters.tagsNone = query.exclude;
    if (!hasText(query)) {
      const sessions = await store.native.list({ limit, filters });
      return sessions.map((session) => ({ ...toSummary(session), score: 0, message: null, snippet: "", spans: [] }));
    }
  }
  const hits = await store.native.search(
    {
      query: query.text,
      limit,
      prefix: options.prefix ?? false,
      filters,
      now: options.now ?? Date.now(),
    },
    options.signal,
  );
  return hits.map((hit) => ({
    ...toSummary(hit.session),
    score: hit.score,
    message: hit.message
      ? { role: hit.message.role, index: hit.message.index, entryId: hit.message.entryId, timestamp: iso(hit.message.timestamp) }
      : null,
    snippet: hit.snippet,
    spans: hit.spans.map((s) => [s.start, s.end] as [number, number]),
  }));
}
