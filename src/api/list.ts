/**
 * Listing sessions newest first (by their last message), optionally only those of one folder or
 * active in a time window. The bounds apply to a session's last activity, inside the index query.
 */
import type { IndexStore } from "../store.js";
import { inProject } from "./project-scope.js";
import { checkedLimit } from "../answers/limits.js";
import { scopeFilters } from "./search.js";
import { toSummary, type SessionSummary } from "../answers/session-summary.js";
import { callsTouching, onlyTouching } from "./touched-file.js";

export interface ListOptions {
  /** Sessions to return (default 50). */
  limit?: number;
  /** Only sessions whose working directory is this folder. */
  cwd?: string;
  /**
   * Only sessions of the project this folder belongs to, in whichever folder they ran (see
   * `SearchOptions.repo`).
   */
  repo?: string;
  /** Only sessions whose last message is from this time on / up to this time (ms since epoch). */
  since?: number;
  until?: number;
  /** Only sessions that touched this file (see `SearchOptions.file`). */
  file?: string;
}

export const DEFAULT_LIST_LIMIT = 50;

export async function listSessions(
  store: IndexStore,
  options: ListOptions = {},
): Promise<SessionSummary[]> {
  return listUpTo(store, options, checkedLimit(options.limit ?? DEFAULT_LIST_LIMIT));
}

/** Every session `options` selects, however many (a caller's limit does not apply). */
export async function listEverySession(
  store: IndexStore,
  options: Omit<ListOptions, "limit"> = {},
): Promise<SessionSummary[]> {
  return listUpTo(store, options, Math.max(1, (await store.native.stats()).sessions));
}

async function listUpTo(
  store: IndexStore,
  options: ListOptions,
  limit: number,
): Promise<SessionSummary[]> {
  let filters = await inProject(store, scopeFilters(options), options.repo);
  if (options.file !== undefined) {
    const touching = await callsTouching(store, options.file);
    if (touching.size === 0) return [];
    filters = onlyTouching(filters, touching);
  }
  const sessions = await store.native.list({ limit, filters });
  return sessions.map(toSummary);
}

/** How many sessions the index holds, or holds of one folder: what a search looked through. */
export async function countSessions(
  store: IndexStore,
  options: Pick<ListOptions, "cwd"> = {},
): Promise<number> {
  const all = (await store.native.stats()).sessions;
  if (options.cwd === undefined || all === 0) return all;
  return (await store.native.list({ limit: all, filters: scopeFilters(options) })).length;
}
