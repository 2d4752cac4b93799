/**
 * Full-text search over the index: the one implementation the CLI, the Pi extension and the MCP
 * server share. The native core decides which messages match and how sessions rank; this layer
 * turns the caller's options into filters, the results into `SearchHit`s, and pages into cursors.
 * A query with neither words nor tags lists the latest sessions.
 */
import { resolve } from "node:path";
import { RecallError } from "../errors.js";
import type {
  NativeAhead,
  NativeAfter,
  NativeFilters,
  NativeHit,
  NativePlace,
} from "../native/addon.js";
import type { IndexStore } from "../store.js";
import { hasTags, hasText, parseTagQuery } from "../tags/query-tags.js";
import {
  decodeSearchCursor,
  encodeSearchCursor,
  searchDigest,
  type SearchCursor,
} from "./search-cursor.js";
import { iso, toSummary, type SessionSummary } from "../answers/session-summary.js";
import { garbledTagStore } from "../tags/open-tags.js";
import { textKinds, type ContentScope, type TextKind } from "../sessions/content-scope.js";
import { callsTouching, onlyTouching } from "./touched-file.js";
import { inProject } from "./project-scope.js";
import { addOutputSnippets } from "./output-snippets.js";
import { meaningUnavailable, type Meaning, type MeaningCoverage } from "./meaning.js";
import type { Match, SearchHit } from "../answers/search-hit.js";
import { checkedLimit, DEFAULT_LIMIT } from "../answers/limits.js";

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
  /**
   * Only sessions of the project this folder belongs to, in whichever folder, clone or worktree
   * they ran: those whose `project` (the folder's git remote, normalized) is this folder's.
   */
  repo?: string;
  /**
   * The kinds of text to search (default: `conversation`, what user and assistant said); `all`,
   * or any of `calls`, `outputs`, `thinking` with or without `conversation`.
   */
  content?: ContentScope[];
  /**
   * Only sessions that touched this file: a tool call read, edited or wrote it, or a bash
   * command named it. A relative path is taken from the current folder.
   */
  file?: string;
  /** Only messages from this time on / up to this time (ms since epoch). */
  since?: number;
  until?: number;
  /** The time recency is measured from (default: now). */
  now?: number;
  /**
   * What a word that no searched text holds is read as (docs/search.md, "Typos"): `correct` (the
   * default) reads it as its nearest word, named in the page's `readAs`; `suggest` searches it as
   * typed and names its nearest word in `suggestions` (for callers that must get only the words
   * they asked for); `off` searches it as typed.
   */
  typos?: Typos;
  /** Only these sessions (by id). */
  sessionIds?: string[];
  /** Continue after the page that gave this cursor (same query and options). */
  cursor?: string;
  /**
   * Tie the cursor to the results before it, not only to the search: if they changed (a session
   * now ranks higher, or is gone), the next page is refused as STALE_CURSOR instead of skipping
   * or repeating a session.
   */
  snapshot?: boolean;
  /**
   * What a session must match (docs/meaning.md): its `words`, its `meaning` (the
   * meaning index: the messages nearest the query in meaning, whatever their words), or `both`,
   * the two rankings fused. Other than words needs the model package (MODEL_UNAVAILABLE without
   * it). Left out: `both` where the model package is installed and loads, else `words`.
   */
  match?: Match;
  signal?: AbortSignal;
}

export interface SearchPage {
  hits: SearchHit[];
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: string | null;
  /**
   * Words of the query that no searched text holds, each read as the word one typo away that the
   * most messages hold (docs/search.md, "Typos"), in query order.
   */
  readAs: ReadAs[];
  /**
   * With `typos: "suggest"`: the words of the query no searched text holds, each with the word it
   * would have been read as.
   */
  suggestions: Suggestion[];
  /**
   * With `match` meaning or both: how many of the messages searched the meaning index covers
   * (it is built in the background; a search uses what is there and never waits).
   */
  coverage?: MeaningCoverage;
}

export const TYPO_MODES = ["correct", "suggest", "off"] as const;
export type Typos = (typeof TYPO_MODES)[number];

export interface ReadAs {
  word: string;
  readAs: string;
}

export interface Suggestion {
  word: string;
  suggestion: string;
}

/** A search's hits, and the words it read as others or would have. */
interface Found {
  hits: SearchHit[];
  /** A ranked search: each hit's place in the ranking (where a next page continues). */
  places?: NativePlace[];
  /** A ranked search continued after a place: the sessions ranked at or before it. */
  ahead?: NativeAhead;
  readAs: ReadAs[];
  suggestions: Suggestion[];
  coverage?: MeaningCoverage;
  /**
   * A search by meaning or both: the vectors of the meaning index it read (a later page reads as
   * many).
   */
  vectors?: number;
}

export function scopeFilters(
  options: Pick<SearchOptions, "cwd" | "since" | "until" | "sessionIds">,
): NativeFilters {
  const filters: NativeFilters = {};
  if (options.cwd !== undefined) filters.cwds = [resolve(options.cwd)];
  if (options.sessionIds !== undefined) filters.sessionIds = options.sessionIds;
  if (options.since !== undefined) filters.since = options.since;
  if (options.until !== undefined) filters.until = options.until;
  return filters;
}

/** A page of results: the first, or the one after `options.cursor`. */
export async function searchPage(
  store: IndexStore,
  options: SearchOptions,
  meaning?: Meaning,
): Promise<SearchPage> {
  const limit = checkedLimit(options.limit ?? DEFAULT_LIMIT);
  const searched = [
    options.query,
    options.prefix ?? false,
    options.cwd ?? null,
    options.since ?? null,
    options.until ?? null,
    limit,
  ];
  if (options.repo !== undefined) searched.push(`repo:${options.repo}`);
  if (options.content !== undefined || options.file !== undefined)
    searched.push(options.content?.join(",") ?? null, options.file ?? null);
  if ((options.typos ?? "correct") !== "correct") searched.push(`typos:${options.typos}`);
  if ((options.match ?? "words") !== "words") searched.push(`match:${options.match}`);
  const digest = searchDigest(
    options.sessionIds === undefined ? searched : [...searched, options.sessionIds],
  );
  const cursor =
    options.cursor === undefined ? undefined : decodeSearchCursor(options.cursor, digest);
  const offset = cursor?.offset ?? 0;
  // Every page's scores are measured from the first page's clock, so that a later page ranks as the
  // first did.
  const now = options.now ?? cursor?.now ?? Date.now();
  // A ranked search continues after the last session shown; a listing skips the sessions shown.
  const after: NativeAfter | undefined = cursor?.after
    ? { place: cursor.after, shown: offset }
    : undefined;
  const skip = after ? 0 : offset;
  // One more than the page shows says whether another page follows.
  const found = await findSessions(
    store,
    { ...options, now, limit: skip + limit + 1 },
    meaning,
    after,
    cursor?.vectors,
  );
  if (cursor !== undefined && stale(cursor, offset, found)) {
    throw new RecallError("STALE_CURSOR", "the results changed since this cursor was made", {
      field: "cursor",
      hint: "start again without a cursor",
    });
  }
  const hits = found.hits.slice(skip, skip + limit);
  const more = found.hits.length > skip + limit;
  const { readAs, suggestions, coverage } = found;
  const page = { readAs, suggestions, ...(coverage ? { coverage } : {}) };
  if (!more) return { hits, nextCursor: null, ...page };
  // A search by meaning or both: later pages read the vectors the first page read, so a build under
  // way does not reorder them.
  const vectors = cursor?.vectors ?? found.vectors;
  const next = { offset: offset + limit, digest, ...(vectors === undefined ? {} : { vectors }) };
  const last = found.places?.[skip + limit - 1];
  if (last === undefined) {
    const results = options.snapshot
      ? resultsDigest(found.hits.slice(0, offset + limit))
      : undefined;
    return { hits, nextCursor: encodeSearchCursor({ ...next, results }), ...page };
  }
  const shown = found.places!.slice(skip, skip + limit).map((place) => place.key);
  const ahead = options.snapshot ? sumOfKeys([cursor?.ahead ?? "0", ...shown]) : undefined;
  return { hits, nextCursor: encodeSearchCursor({ ...next, after: last, now, ahead }), ...page };
}

/**
 * Whether the sessions the pages before showed are no longer those ranked before this page (a
 * snapshot cursor).
 */
function stale(cursor: SearchCursor, offset: number, found: Found): boolean {
  if (cursor.results !== undefined)
    return cursor.results !== resultsDigest(found.hits.slice(0, offset));
  if (cursor.ahead !== undefined)
    return found.ahead?.sessions !== offset || found.ahead.digest !== cursor.ahead;
  return false;
}

/**
 * The wrapping sum of path keys (u64, in decimal), as the native search's `ahead` digest sums them.
 */
function sumOfKeys(keys: readonly string[]): string {
  return BigInt.asUintN(
    64,
    keys.reduce((sum, key) => sum + BigInt(key), 0n),
  ).toString();
}

/** Which sessions came first, in order: what a snapshot cursor is tied to. */
function resultsDigest(hits: readonly SearchHit[]): string {
  return searchDigest(hits.map((hit) => hit.path));
}

function unranked(session: SessionSummary): SearchHit {
  return { ...session, score: 0, message: null, snippet: "", spans: [] };
}

export async function searchSessions(
  store: IndexStore,
  options: SearchOptions,
): Promise<SearchHit[]> {
  return (await findSessions(store, options, undefined)).hits;
}

/** A hit of the native core as the library gives it. */
export function toSearchHit(hit: NativeHit): SearchHit {
  return {
    ...toSummary(hit.session),
    score: hit.score,
    message: hit.message
      ? {
          kind: hit.message.kind as TextKind,
          tool: hit.message.tool ?? null,
          role: hit.message.role,
          index: hit.message.index,
          entryId: hit.message.entryId,
          timestamp: iso(hit.message.timestamp),
        }
      : null,
    snippet: hit.snippet,
    spans: hit.spans.map((s) => [s.start, s.end] as [number, number]),
  };
}

async function findSessions(
  store: IndexStore,
  options: SearchOptions,
  meaning: Meaning | undefined,
  after?: NativeAfter,
  vectors?: number,
): Promise<Found> {
  const query = parseTagQuery(options.query);
  const limit = options.limit ?? DEFAULT_LIMIT;
  const content = textKinds(options.content);
  const touching =
    options.file === undefined ? undefined : await callsTouching(store, options.file);
  if (touching?.size === 0) return { hits: [], readAs: [], suggestions: [] };
  const withCalls = (hit: SearchHit): SearchHit =>
    touching ? { ...hit, calls: touching.get(hit.path) ?? [] } : hit;
  const scoped = await inProject(store, scopeFilters(options), options.repo);
  const filters = touching ? onlyTouching(scoped, touching) : scoped;
  if (hasTags(query)) {
    const damaged = await garbledTagStore(store);
    if (damaged) throw damaged;
    if (query.include.length > 0) filters.tagsAll = query.include;
    if (query.exclude.length > 0) filters.tagsNone = query.exclude;
  }
  // Tags alone, or nothing at all: the sessions themselves, newest first.
  if (!query.text.trim() || (hasTags(query) && !hasText(query))) {
    const sessions = await store.native.list({ limit, filters });
    return {
      hits: sessions.map((session) => withCalls(unranked(toSummary(session)))),
      readAs: [],
      suggestions: [],
    };
  }
  const typos = options.typos ?? "correct";
  // The words and the meaning fused where the model is installed (BENCHMARKS.md: as good on word
  // queries as the words alone, and it finds paraphrases); the words alone where it is not.
  const match = options.match ?? (meaning ? "both" : "words");
  if (match !== "words" && !meaning) throw meaningUnavailable();
  const request = {
    query: query.text,
    limit,
    prefix: options.prefix ?? false,
    filters,
    ...(content ? { content } : {}),
    now: options.now ?? Date.now(),
    typos,
    ...(after ? { after } : {}),
  };
  const {
    hits,
    places,
    ahead,
    readAs: named,
    coverage,
    vectors: read,
  } = match !== "words" && meaning
    ? await store.native.searchByMeaning(
        { ...request, matching: match, ...(vectors === undefined ? {} : { vectors }) },
        meaning.index,
        options.signal,
        meaning.model,
      )
    : await store.native.search(request, options.signal);
  await addOutputSnippets(
    store,
    hits,
    query.text,
    options.prefix ?? false,
    typos,
    content ?? ["conversation"],
  );
  const found = hits.map((hit) =>
    withCalls({
      ...toSearchHit(hit),
      ...(match === "words" ? {} : { matchedBy: hit.matchedBy as Match }),
    }),
  );
  const covered = {
    places,
    ...(ahead ? { ahead } : {}),
    ...(coverage ? { coverage: { embedded: coverage.embedded, messages: coverage.messages } } : {}),
    ...(read === undefined || read === null ? {} : { vectors: read }),
  };
  // Typos are the words' business: a search by meaning alone reads no word as another.
  if (match === "meaning") return { hits: found, readAs: [], suggestions: [], ...covered };
  if (typos === "suggest")
    return {
      hits: found,
      readAs: [],
      suggestions: named.map(({ word, readAs }) => ({ word, suggestion: readAs })),
      ...covered,
    };
  return { hits: found, readAs: named, suggestions: [], ...covered };
}
