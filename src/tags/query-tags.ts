/**
 * Hashtags in a search query. `#tag` keeps only sessions carrying the tag (several AND
 * together) and `-#tag` drops them; both are exact, on normalized tags, and the index applies
 * them (to the merged tags on its session documents) before it ranks anything. The rest of the
 * query is ordinary text, and a tag's words stay searchable there too (`codebase` finds
 * `#codebase`). A `#` or `-#` followed by nothing a tag is made of (`##`, `#-`, `-#!`) is no tag,
 * only text, which holds no word to search for.
 */
import { questionTerms } from "../native/words.js";
import { normalizeTag, parseTags } from "./normalize.js";

export interface TagQuery {
  /** The query without its tag tokens, spacing kept (it decides prefix matching). */
  text: string;
  /** Tags every result must carry. */
  include: string[];
  /** Tags no result may carry. */
  exclude: string[];
}

/** A quoted phrase, or a run of non-space: `#tag` inside quotes is text, as written. */
const TOKEN = /"[^"]*"|[^\s"]+|"/g;
const TAG_TOKEN = /^(-?)#(.+)$/s;

export function parseTagQuery(query: string): TagQuery {
  const include: string[] = [];
  const exclude: string[] = [];
  const text = query.replace(TOKEN, (token) => {
    const match = TAG_TOKEN.exec(token);
    if (!match || !normalizeTag(match[2]!)) return token;
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

/** Whether any word is left to search for once the tags are taken out, by the index's words. */
export function hasText(query: TagQuery): boolean {
  return questionTerms(query.text).length > 0;
}
