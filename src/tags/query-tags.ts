/**
 * Hashtags in a search query. `#tag` keeps only sessions carrying the tag (several AND
 * together) and `-#tag` drops them; both are exact, on normalized tags, and resolved here to
 * session ids that the index applies as a filter before it ranks anything. The rest of the query
 * is ordinary text, and a tag's words stay searchable there too (`codebase` finds `#codebase`).
 */
import type { NativeFilters } from "../native/binding.js";
import { parseTags } from "./normalize.js";
import type { TagStore } from "./tag-store.js";

export interface TagQuery {
  /** The query without its tag tokens, spacing kept (it decides prefix matching). */
  text: string;
  /** Tags every result must carry. */
  include: string[];
  /** Tags no result may carry. */
  exclude: string[];
}

export type TagFilters = Pick<NativeFilters, "sessionIds" | "excludeSessionIds">;

/** A quoted phrase, or a run of non-space: `#tag` inside quotes is text, as written. */
const TOKEN = /"[^"]*"|[^\s"]+|"/g;
const TAG_TOKEN = /^(-?)#(.+)$/s;

export function parseTagQuery(query: string): TagQuery {
  const include: string[] = [];
  const exclude: string[] = [];
  const text = query.replace(TOKEN, (token) => {
    const match = TAG_TOKEN.exec(token);
    if (!match) return token;
    const [tag] = parseTags([token]);
    const list = match[1] ? exclude : include;
    if (!list.includes(tag!)) list.push(tag!);
    return "";
  });
  return { text, include, exclude };
}

export function hasTags(query: TagQuery): boolean {
  return query.include.length > 0 || query.exclude.length > 0;
}

/** Whether any word is left to search for once the tags are taken out. */
export function hasText(query: TagQuery): boolean {
  return /[\p{L}\p{N}]/u.test(query.text);
}

/**
 * The session filters for a query's tags: `sessionIds` are the sessions carrying every included
 * tag (empty when none does: nothing can match), `excludeSessionIds` those carrying any excluded one.
 */
export function tagFilters(tags: TagStore, query: Pick<TagQuery, "include" | "exclude">): TagFilters {
  const filters: TagFilters = {};
  if (query.include.length > 0) filters.sessionIds = tags.sessionsWithAll(query.include);
  if (query.exclude.length > 0) filters.excludeSessionIds = tags.sessionsWithAny(query.exclude);
  return filters;
}
