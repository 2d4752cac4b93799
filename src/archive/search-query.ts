/**
 * The local query language as one OpenSearch query with the local ranking's shape
 * (native/src/query.rs, fusion.rs), on the documents of an archive (one per message):
 *
 * - every word of the query scored by BM25 and OR'ed; a balanced `"quoted phrase"` required;
 * - with two or more loose words, the run of them as a phrase, boosted 10×;
 * - a constant per distinct word a message holds (coordination). BM25 in OpenSearch (Lucene) leaves
 *   out Tantivy's factor k1 + 1 = 2.2, so the constant is the local one divided by 2.2;
 * - tags and the session's name, 4×, as the local session document's tag text: a message scores
 *   the better of its words and its session's tags and name;
 * - a kind's weight (thinking and calls 0.8, outputs 0.6) on the messages of that kind;
 * - recency, × `1 + 0.2·exp(-age / 7 days)`; the age is the matched message's, where the local
 *   index takes the session's last message (a message's document does not know it).
 *
 * Words are cut by the archive's analyzer, the same as the local one (template.ts); the query is
 * split at spaces only, so a token such as `foo_bar` counts once in the distinct-word bonus
 * where the local index counts two words.
 */
import type { TextKind } from "../api/content-scope.js";
import type { PushedContent } from "./remotes.js";

/** The local constants (native/src/query.rs, search.rs, fusion.rs). */
const PHRASE_BOOST = 10;
const TAG_BOOST = 4;
const COORDINATION = 6 / 2.2;
const RECENCY_WEIGHT = 0.2;
const RECENCY_SCALE = "7d";
const KIND_WEIGHT: Record<TextKind, number> = { conversation: 1, thinking: 0.8, call: 0.8, output: 0.6 };

export const KIND_CONTENT: Record<TextKind, PushedContent> = { conversation: "conversation", thinking: "thinking", call: "calls", output: "outputs" };

export interface ParsedText {
  /** Unquoted tokens, in query order. */
  loose: string[];
  /** Quoted parts, each required. */
  required: string[];
}

/** Words and balanced quotes, as native/src/query.rs reads them: an unmatched last quote is text. */
export function parseText(text: string): ParsedText {
  const quotes = text.split('"').length - 1;
  const balanced = quotes - (quotes % 2);
  let unquoted = "";
  let quoted = "";
  let seen = 0;
  const required: string[] = [];
  for (const ch of text) {
    if (ch === '"' && seen < balanced) {
      seen++;
      if (seen % 2 === 0) {
        if (/[\p{L}\p{N}]/u.test(quoted)) required.push(quoted.trim());
        quoted = "";
        unquoted += " ";
      }
      continue;
    }
    if (seen % 2 === 1) quoted += ch;
    else unquoted += ch;
  }
  return { loose: tokens(unquoted), required };
}

/** The tokens of a text that hold a letter or digit (anything else is no word to the analyzer). */
function tokens(text: string): string[] {
  return text.split(/\s+/).filter((token) => /[\p{L}\p{N}]/u.test(token));
}

export function hasWords(parsed: ParsedText): boolean {
  return parsed.loose.length > 0 || parsed.required.length > 0;
}

/** Every distinct token of the query, case aside, in first-seen order. */
export function distinctWords(parsed: ParsedText): string[] {
  const seen = new Map<string, string>();
  for (const word of [...parsed.loose, ...parsed.required.flatMap(tokens)]) if (!seen.has(word.toLowerCase())) seen.set(word.toLowerCase(), word);
  return [...seen.values()];
}

export interface ArchiveFilters {
  kinds: TextKind[];
  since?: number;
  until?: number;
  tagsAll: string[];
  tagsNone: string[];
  folder?: string;
  user?: string;
  machine?: string;
}

type Clause = Record<string, unknown>;

export function filterClauses(filters: ArchiveFilters): { filter: Clause[]; must_not: Clause[] } {
  const filter: Clause[] = [{ terms: { kind: filters.kinds.map((kind) => KIND_CONTENT[kind]) } }];
  if (filters.since !== undefined || filters.until !== undefined) {
    filter.push({ range: { timestamp: { ...(filters.since === undefined ? {} : { gte: filters.since }), ...(filters.until === undefined ? {} : { lte: filters.until }) } } });
  }
  for (const tag of filters.tagsAll) filter.push({ term: { tags: tag } });
  if (filters.folder !== undefined) filter.push({ term: { folder: filters.folder } });
  if (filters.user !== undefined) filter.push({ term: { user: filters.user } });
  if (filters.machine !== undefined) filter.push({ term: { machine: filters.machine } });
  return { filter, must_not: filters.tagsNone.length > 0 ? [{ terms: { tags: filters.tagsNone } }] : [] };
}

const match = (field: string, query: string, boost = 1): Clause => ({ match: { [field]: boost === 1 ? query : { query, boost } } });
const constant = (filter: Clause, boost: number): Clause => ({ constant_score: { filter, boost } });

/** The scoring query of `parsed` (which has words), filtered, with recency from `now`. */
export function rankedQuery(parsed: ParsedText, filters: ArchiveFilters, now: number): Clause {
  const words = distinctWords(parsed);
  const coordinate = words.length > 1;
  const inMessages: Clause[] = words.flatMap((word) => [match("text", word), ...(coordinate ? [constant(match("text", word), COORDINATION)] : [])]);
  if (parsed.loose.length >= 2) inMessages.push({ match_phrase: { text: { query: parsed.loose.join(" "), boost: PHRASE_BOOST } } });
  const inTags: Clause[] = words.flatMap((word) => {
    const either = { bool: { should: [match("tags.text", word), match("session_name", word)] } };
    return [match("tags.text", word, TAG_BOOST), match("session_name", word, TAG_BOOST), ...(coordinate ? [constant(either, COORDINATION)] : [])];
  });
  const weighted = filters.kinds.some((kind) => KIND_WEIGHT[kind] !== 1)
    ? {
        function_score: {
          query: { bool: { should: inMessages } },
          functions: filters.kinds.map((kind) => ({ filter: { term: { kind: KIND_CONTENT[kind] } }, weight: KIND_WEIGHT[kind] })),
          score_mode: "first",
          boost_mode: "multiply",
        },
      }
    : { bool: { should: inMessages } };
  const { filter, must_not } = filterClauses(filters);
  const text = {
    bool: {
      must: parsed.required.map((phrase) => ({ match_phrase: { text: phrase } })),
      should: [{ dis_max: { queries: [weighted, { bool: { should: inTags } }] } }],
      minimum_should_match: parsed.required.length > 0 ? 0 : 1,
      filter,
      must_not,
    },
  };
  return {
    function_score: {
      query: text,
      functions: [{ weight: 1 }, { exp: { timestamp: { origin: now, scale: RECENCY_SCALE, decay: Math.exp(-1) } }, weight: RECENCY_WEIGHT }],
      score_mode: "sum",
      boost_mode: "multiply",
    },
  };
}

/** What marks the matched words of a snippet in the archive's highlighting: characters of Unicode's private use. */
export const MARK_OPEN = "\uE000";
export const MARK_CLOSE = "\uE001";

/** Highlighting of the best message's text: ~200 characters around the words; none when only tags or the name matched. */
export function snippetHighlight(parsed: ParsedText): Clause {
  const words = distinctWords(parsed);
  return {
    pre_tags: [MARK_OPEN],
    post_tags: [MARK_CLOSE],
    fields: {
      text: {
        type: "unified",
        fragment_size: 200,
        number_of_fragments: 1,
        highlight_query: { bool: { should: words.map((word) => match("text", word)) } },
      },
    },
  };
}

/** A highlighted fragment as a snippet and the UTF-8 byte spans of its marked words. */
export function markedSnippet(fragment: string): { snippet: string; spans: [number, number][] } {
  const spans: [number, number][] = [];
  let snippet = "";
  let bytes = 0;
  let start = -1;
  for (const ch of fragment) {
    if (ch === MARK_OPEN) start = bytes;
    else if (ch === MARK_CLOSE) {
      if (start >= 0 && bytes > start) spans.push([start, bytes]);
      start = -1;
    } else {
      snippet += ch;
      bytes += Buffer.byteLength(ch);
    }
  }
  return { snippet, spans };
}
