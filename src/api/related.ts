/**
 * Related sessions: the sessions nearest one session. Without a model they are those that share
 * the most of its distinctive words (native/src/search/related.rs: its words weighed tf-idf over
 * the index, the session itself, its copies, its parent and its forks left out). With the model
 * package installed they are by default those nearest it in meaning too (`match` both: the sessions
 * whose centroid, the mean of their messages' vectors, lies nearest its, fused with the words' as a
 * search by both fuses them). Hits are search hits, each with the words it shares.
 */
import type { MeaningIndexHandle } from "../native/meaning-index-handle.js";
import type { IndexStore } from "../store.js";
import { meaningUnavailable, type MeaningCoverage } from "./meaning.js";
import type { Match, SearchHit } from "../answers/search-hit.js";
import { checkedLimit } from "../answers/limits.js";
import type { SessionRef } from "./resolve-session.js";
import { scopeFilters, toSearchHit } from "./search.js";

export interface RelatedOptions {
  /** The session: its id, a unique id prefix, its file's path, or a session already resolved. */
  session: string | SessionRef;
  /** Sessions to return (default 10). */
  limit?: number;
  /** Only sessions whose working directory is this folder. */
  cwd?: string;
  /** Only messages from this time on / up to this time (ms since epoch). */
  since?: number;
  until?: number;
  /**
   * What relates a session: its distinctive `words`, its `meaning` (the meaning index), or `both`.
   * Default: both when the model package is installed, else words.
   */
  match?: Match;
  signal?: AbortSignal;
}

export interface RelatedHit extends SearchHit {
  /**
   * The distinctive words of the session asked about that this session holds too, most distinctive
   * first.
   */
  shared: string[];
}

export interface RelatedPage {
  /** The session asked about. */
  session: SessionRef;
  /**
   * Its distinctive words, most distinctive first: what the related sessions were looked up by.
   * Empty when it has none (no conversation, or only words no other session holds): no hits then.
   */
  words: string[];
  /** Best first. */
  hits: RelatedHit[];
  /**
   * With `match` meaning or both: how many of the messages searched the meaning index covers.
   * No hits by meaning while it holds none of the session's own messages.
   */
  coverage?: MeaningCoverage;
}

export const DEFAULT_RELATED_LIMIT = 10;

/**
 * The related sessions of `session`; `meaning` is the meaning index when the model package is
 * installed (null otherwise), which makes `both` the default.
 */
export async function relatedSessions(
  store: IndexStore,
  session: SessionRef,
  options: Omit<RelatedOptions, "session">,
  meaning: MeaningIndexHandle | null,
): Promise<RelatedPage> {
  const limit = checkedLimit(options.limit ?? DEFAULT_RELATED_LIMIT);
  const match = options.match ?? (meaning ? "both" : "words");
  if (match !== "words" && !meaning) throw meaningUnavailable();
  const request = {
    path: session.path,
    sessionId: session.id,
    limit,
    filters: scopeFilters(options),
    matching: match,
  };
  const { words, hits, coverage } =
    match === "words" || !meaning
      ? await store.native.related(request, options.signal)
      : await store.native.relatedByMeaning(request, meaning, options.signal);
  const page: RelatedPage = {
    session,
    words,
    hits: hits.map(({ hit, shared }) => ({
      ...toSearchHit(hit),
      ...(match === "words" ? {} : { matchedBy: hit.matchedBy as Match }),
      shared,
    })),
  };
  return coverage ? { ...page, coverage } : page;
}
