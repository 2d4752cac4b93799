/**
 * The local query language as one OpenSearch query with the local ranking's shape
 * (native/src/search/query.rs, fusion.rs), on the documents of an archive (one per message):
 *
 * - every word of the query scored by BM25 and OR'ed; a balanced `"quoted phrase"` required;
 * - with two or more loose words, the run of them as a phrase, boosted 10×;
 * - a constant per distinct word a message holds (coordination): OpenSearch's BM25 (Lucene's legacy
 *   one) keeps Tantivy's factor k1 + 1, so BM25 scores, and the constant, are the local ones;
 * - tags and the session's name, 4×, as the local session document's tag text: a message scores
 *   the better of its words and its session's tags and name;
 * - a kind's weight (thinking and calls 0.8, outputs 0.6) on the messages of that kind;
 * - recency, × `1 + 0.2·exp(-age / 7 days)` of the session's last message (`recencyFactor`),
 *   applied by search.ts to the best sessions the query found, once it knows their last activity.
 *
 * Words are cut by the archive's analyzer, the same as the local one (template.ts), asked with
 * `_analyze` before the search.
 */
import type { Client } from "@opensearch-project/opensearch";
import type { TextKind } from "../sessions/content-scope.js";
import type { PushedContent } from "./remotes.js";
import { ANALYZER } from "./template.js";

/** The local constants (native/src/search/: query.rs, find.rs, fusion.rs). */
const PHRASE_BOOST = 10;
const TAG_BOOST = 4;
const COORDINATION = 6;
const RECENCY_WEIGHT = 0.2;
const RECENCY_HALF_LIFE_MS = 7 * 24 * 3600 * 1000;
const KIND_WEIGHT: Record<TextKind, number> = {
  conversation: 1,
  thinking: 0.8,
  call: 0.8,
  output: 0.6,
};

export const KIND_CONTENT: Record<TextKind, PushedContent> = {
  conversation: "conversation",
  thinking: "thinking",
  call: "calls",
  output: "outputs",
};

/** The query's text as the user typed it: the unquoted part, and each quoted part. */
export interface QueryText {
  loose: string;
  required: string[];
}

/** The query's words, as the archive's analyzer (the local one's twin) cuts them. */
export interface QueryWords {
  /** Unquoted words in query order, duplicates kept (for the phrase clause). */
  loose: string[];
  /** Quoted parts, each required: one word a required word, several a required phrase. */
  required: string[][];
}

/** Balanced quotes, as native/src/search/query.rs reads them: an unmatched last quote is text. */
export function splitQuotes(text: string): QueryText {
  const quotes = text.split('"').length - 1;
  const balanced = quotes - (quotes % 2);
  let loose = "";
  let quoted = "";
  let seen = 0;
  const required: string[] = [];
  for (const ch of text) {
    if (ch === '"' && seen < balanced) {
      seen++;
      if (seen % 2 === 0) {
        required.push(quoted);
        quoted = "";
        loose += " ";
      }
      continue;
    }
    if (seen % 2 === 1) quoted += ch;
    else loose += ch;
  }
  return { loose, required };
}

/** The words of the query, cut by the archive's analyzer (one request per part, sent together). */
export async function queryWords(
  client: Client,
  index: string,
  text: QueryText,
): Promise<QueryWords> {
  const cut = async (part: string): Promise<string[]> => {
    if (!part.trim()) return [];
    const analyzed = await client.indices.analyze({
      index,
      body: { analyzer: ANALYZER, text: part },
    });
    return (analyzed.body.tokens ?? []).map((t) => t.token);
  };
  const [loose, ...required] = await Promise.all([text.loose, ...text.required].map(cut));
  return { loose: loose!, required: required.filter((words) => words.length > 0) };
}

export function hasWords(words: QueryWords): boolean {
  return words.loose.length > 0 || words.required.length > 0;
}

/** Every distinct word of the query, in first-seen order. */
function distinctWords(words: QueryWords): string[] {
  return [...new Set([...words.loose, ...words.required.flat()])];
}

export interface ArchiveFilters {
  kinds: TextKind[];
  since?: number;
  until?: number;
  tagsAll: string[];
  tagsNone: string[];
  folder?: string;
  project?: string;
  user?: string;
  machine?: string;
  /** Only these sessions (complete ids). */
  sessionIds?: string[];
}

type Clause = Record<string, unknown>;

export function filterClauses(filters: ArchiveFilters): { filter: Clause[]; must_not: Clause[] } {
  const filter: Clause[] = [{ terms: { kind: filters.kinds.map((kind) => KIND_CONTENT[kind]) } }];
  if (filters.since !== undefined || filters.until !== undefined) {
    filter.push({
      range: {
        timestamp: {
          ...(filters.since === undefined ? {} : { gte: filters.since }),
          ...(filters.until === undefined ? {} : { lte: filters.until }),
        },
      },
    });
  }
  for (const tag of filters.tagsAll) filter.push({ term: { tags: tag } });
  if (filters.folder !== undefined) filter.push({ term: { folder: filters.folder } });
  if (filters.project !== undefined) filter.push({ term: { project: filters.project } });
  if (filters.user !== undefined) filter.push({ term: { user: filters.user } });
  if (filters.machine !== undefined) filter.push({ term: { machine: filters.machine } });
  if (filters.sessionIds !== undefined) filter.push({ terms: { session_id: filters.sessionIds } });
  return {
    filter,
    must_not: filters.tagsNone.length > 0 ? [{ terms: { tags: filters.tagsNone } }] : [],
  };
}

const term = (field: string, word: string, boost = 1): Clause => ({
  term: { [field]: boost === 1 ? word : { value: word, boost } },
});
const phrase = (words: string[], boost = 1): Clause => ({
  match_phrase: {
    text: { query: words.join(" "), analyzer: ANALYZER, ...(boost === 1 ? {} : { boost }) },
  },
});
const constant = (filter: Clause, boost: number): Clause => ({ constant_score: { filter, boost } });

/**
 * How much more a session active at `last` (ms) weighs than an old one, at `now`: as
 * native/src/search/fusion.rs.
 */
export function recencyFactor(now: number, last: number): number {
  return 1 + RECENCY_WEIGHT * Math.exp(-Math.max(0, now - last) / RECENCY_HALF_LIFE_MS);
}

/**
 * The scoring query of `parsed` (which has words), filtered; recency comes after (`recencyFactor`).
 */
export function rankedQuery(parsed: QueryWords, filters: ArchiveFilters): Clause {
  const words = distinctWords(parsed);
  const coordinate = words.length > 1;
  const inMessages: Clause[] = words.flatMap((word) => [
    term("text", word),
    ...(coordinate ? [constant(term("text", word), COORDINATION)] : []),
  ]);
  if (parsed.loose.length >= 2) inMessages.push(phrase(parsed.loose, PHRASE_BOOST));
  const inTags: Clause[] = words.flatMap((word) => {
    const either = { bool: { should: [term("tags.text", word), term("session_name", word)] } };
    return [
      term("tags.text", word, TAG_BOOST),
      term("session_name", word, TAG_BOOST),
      ...(coordinate ? [constant(either, COORDINATION)] : []),
    ];
  });
  const weighted = filters.kinds.some((kind) => KIND_WEIGHT[kind] !== 1)
    ? {
        function_score: {
          query: { bool: { should: inMessages } },
          functions: filters.kinds.map((kind) => ({
            filter: { term: { kind: KIND_CONTENT[kind] } },
            weight: KIND_WEIGHT[kind],
          })),
          score_mode: "first",
          boost_mode: "multiply",
        },
      }
    : { bool: { should: inMessages } };
  const { filter, must_not } = filterClauses(filters);
  return {
    bool: {
      must: parsed.required.map((words) =>
        words.length === 1 ? term("text", words[0]!) : phrase(words),
      ),
      should: [{ dis_max: { queries: [weighted, { bool: { should: inTags } }] } }],
      minimum_should_match: parsed.required.length > 0 ? 0 : 1,
      filter,
      must_not,
    },
  };
}

/**
 * What marks the matched words of a snippet in the archive's highlighting: characters of Unicode's
 * private use.
 */
export const MARK_OPEN = "\uE000";
export const MARK_CLOSE = "\uE001";

/**
 * Highlighting of the best message's text: ~200 characters around the words; none when only tags or
 * the name matched.
 */
export function snippetHighlight(parsed: QueryWords): Clause {
  const words = distinctWords(parsed);
  return {
    pre_tags: [MARK_OPEN],
    post_tags: [MARK_CLOSE],
    fields: {
      text: {
        type: "unified",
        fragment_size: 200,
        number_of_fragments: 1,
        highlight_query: { bool: { should: words.map((word) => term("text", word)) } },
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
