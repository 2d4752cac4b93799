/**
 * Related sessions: the sessions nearest one session. Without a model they are those that share
 * the most of its distinctive words (native/src/related.rs: its words weighed tf-idf over the
 * index, the session itself, its copies, its parent and its forks left out); the meaning index,
 * where it exists, adds its nearest sessions there, as a second source of candidates, so this
 * module and its callers do not change. Hits are search hits, each with the words it shares.
 */
import type { IndexStore } from "../store.js";
import type { SessionRef } from "./resolve-session.js";
import { checkedLimit, scopeFilters, toSearchHit, type SearchHit } from "./search.js";

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
  signal?: AbortSignal;
}

export interface RelatedHit extends SearchHit {
  /** The distinctive words of the session asked about that this session holds too, most distinctive first. */
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
}

export const DEFAULT_RELATED_LIMIT = 10;

export async function relatedSessions(store: IndexStore, session: SessionRef, options: Omit<RelatedOptions, "session">): Promise<RelatedPage> {
  const limit = checkedLimit(options.limit ?? DEFAULT_RELATED_LIMIT);
  const request = { path: session.path, sessionId: session.id, limit, filters: scopeFilters(options) };
  const { words, hits } = await store.native.related(request, options.signal);
  return { session, words, hits: hits.map(({ hit, shared }) => ({ ...toSearchHit(hit), shared })) };
}
