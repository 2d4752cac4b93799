/**
 * `search` in an archive: the sessions of every machine and user pushed to a remote, ranked as
 * the local search ranks them (search-query.ts), one hit per session (collapsed on its id), with a
 * snippet of the best message marked by the archive's highlighting. A second request gives the
 * sessions' summaries (last activity, messages, first user message). A query of tags alone, or
 * of nothing, lists the latest sessions.
 */
import { resolve } from "node:path";
import type { Client } from "@opensearch-project/opensearch";
import { textKinds, type ContentScope, type TextKind } from "../sessions/content-scope.js";
import { checkedLimit, DEFAULT_LIMIT } from "../answers/limits.js";
import type { SearchHit } from "../answers/search-hit.js";
import { iso, type SessionSummary } from "../answers/session-summary.js";
import { projectOf } from "../sessions/project-identity.js";
import { FIRST_MESSAGE_CHARS } from "../sessions/session-index-reader.js";
import { clipLine } from "../sessions/text.js";
import { parseTagQuery } from "../tags/query-tags.js";
import { remoteError, withRemote } from "./client.js";
import type { ArchiveDocument } from "./documents.js";
import type { Remote } from "./remotes.js";
import { checkedDocument } from "./untrusted.js";
import {
  filterClauses,
  hasWords,
  KIND_CONTENT,
  markedSnippet,
  queryWords,
  rankedQuery,
  recencyFactor,
  snippetHighlight,
  splitQuotes,
  type ArchiveFilters,
} from "./search-query.js";

export interface ArchiveSearchOptions {
  /** Words, `"phrases"`, `#tag` and `-#tag`, as a local search takes them. */
  query: string;
  limit?: number;
  /** The kinds of text to search (default the conversation), as a local search names them. */
  content?: ContentScope[];
  /** Only messages from / up to this time (ms since epoch). */
  since?: number;
  until?: number;
  /** The time recency is measured from (default: now). */
  now?: number;
  /** Only sessions of this folder (as the machine that pushed them named it). */
  cwd?: string;
  /**
   * Only sessions of the project this folder of this machine belongs to, from any machine or clone.
   */
  repo?: string;
  /** Only sessions pushed by this user / from this machine. */
  user?: string;
  machine?: string;
  /** Only these sessions (complete ids, as pi_session_search takes a UUID). */
  sessionIds?: string[];
}

/** Where an archived session lives: the remote, and the machine and user that pushed it. */
export interface Origin {
  remote: string;
  machine: string;
  user: string;
}

/**
 * A hit of the archive, shaped as a local one: `path` is empty (the session file is on the
 * machine that pushed it), `parent` is null (forks are not archived as such).
 */
export interface ArchiveHit extends SearchHit {
  origin: Origin;
}

export interface ArchiveSearchPage {
  hits: ArchiveHit[];
}

type Source = Omit<ArchiveDocument, "text" | "redactions">;

/** The most sessions the query asks for before recency ranks them. */
const MAX_CANDIDATES = 10_000;

const CONTENT_KIND = Object.fromEntries(
  Object.entries(KIND_CONTENT).map(([kind, content]) => [content, kind]),
) as Record<string, TextKind>;

export async function searchArchive(
  remote: Remote,
  env: NodeJS.ProcessEnv,
  options: ArchiveSearchOptions,
): Promise<ArchiveSearchPage> {
  const limit = checkedLimit(options.limit ?? DEFAULT_LIMIT);
  const tags = parseTagQuery(options.query);
  const filters: ArchiveFilters = {
    kinds: textKinds(options.content) ?? ["conversation"],
    since: options.since,
    until: options.until,
    tagsAll: tags.include,
    tagsNone: tags.exclude,
    folder: options.cwd,
    project: options.repo === undefined ? undefined : projectOf(resolve(options.repo)),
    user: options.user,
    machine: options.machine,
    sessionIds: options.sessionIds,
  };
  return withRemote(remote, env, remote.timeoutMs, async (connection) => {
    try {
      return await rankedPage(connection.client(), remote, tags.text, options, filters, limit);
    } catch (error) {
      throw remoteError(remote, error, "searching");
    }
  });
}

/**
 * The best `limit` sessions of the archive for the query `text` (its tags are in `filters`);
 * crafted documents (untrusted.ts) are left out.
 */
async function rankedPage(
  client: Client,
  remote: Remote,
  text: string,
  options: ArchiveSearchOptions,
  filters: ArchiveFilters,
  limit: number,
): Promise<ArchiveSearchPage> {
  const parsed = await queryWords(client, remote.index, splitQuotes(text));
  const ranked = hasWords(parsed);
  const now = options.now ?? Date.now();
  const body = {
    // Recency can lift a session over one up to 20 % better: the sessions after the best `limit`
    // are ranked too.
    size: ranked ? Math.min(MAX_CANDIDATES, limit * 2 + 20) : limit,
    _source: { excludes: ["text"] },
    query: ranked ? rankedQuery(parsed, filters) : { bool: filterClauses(filters) },
    collapse: { field: "session_id" },
    // The best message of a session: equal scores fall to the later message (never to shard order).
    sort: ranked
      ? [{ _score: "desc" }, { timestamp: "desc" }, { session_id: "asc" }]
      : [{ timestamp: "desc" }, { session_id: "asc" }],
    ...(ranked ? { highlight: snippetHighlight(parsed) } : {}),
  };
  const response = await client.search({ index: remote.index, body: body as never });
  const hits = (
    response.body.hits.hits as {
      _score?: number | null;
      _source: unknown;
      highlight?: { text?: string[] };
    }[]
  ).flatMap((hit) => {
    const source = checkedDocument<Source>(hit._source, false);
    return source ? [{ ...hit, _source: source }] : [];
  });
  const summaries = await sessionSummaries(
    client,
    remote,
    hits.map((hit) => hit._source.session_id),
  );
  const found: ArchiveHit[] = hits.map((hit) => {
    const doc = hit._source;
    const summary = summaryOf(doc, summaries.get(doc.session_id));
    const fragment = hit.highlight?.text?.[0];
    const { snippet, spans } =
      fragment === undefined ? { snippet: "", spans: [] } : markedSnippet(fragment);
    return {
      ...summary,
      score: ranked ? (hit._score ?? 0) * recencyFactor(now, Date.parse(summary.modified)) : 0,
      // As locally, a session found by its tags or name alone has no message.
      message:
        spans.length > 0
          ? {
              kind: CONTENT_KIND[doc.kind] ?? "conversation",
              tool: doc.tool ?? null,
              role: doc.role,
              index: doc.position,
              entryId: doc.entry_id,
              timestamp: iso(doc.timestamp),
            }
          : null,
      snippet: spans.length > 0 ? snippet : "",
      spans,
      origin: { remote: remote.name, machine: doc.machine, user: doc.user },
    };
  });
  // Equal scores fall to the more recent session, then to the session id, as locally.
  if (ranked)
    found.sort(
      (a, b) =>
        b.score - a.score ||
        Date.parse(b.modified) - Date.parse(a.modified) ||
        (a.id < b.id ? -1 : 1),
    );
  return { hits: found.slice(0, limit) };
}

interface Activity {
  last: number;
  messages: number;
  firstMessage: string;
}

/** The last activity, conversation messages and first user message of each session. */
async function sessionSummaries(
  client: Client,
  remote: Remote,
  ids: string[],
): Promise<Map<string, Activity>> {
  if (ids.length === 0) return new Map();
  const conversation = { term: { kind: "conversation" } };
  const found = await client.search({
    index: remote.index,
    body: {
      size: 0,
      query: { terms: { session_id: ids } },
      aggs: {
        sessions: {
          terms: { field: "session_id", size: ids.length },
          aggs: {
            last: { max: { field: "timestamp" } },
            said: { filter: conversation },
            asked: {
              filter: { bool: { filter: [conversation, { term: { role: "user" } }] } },
              aggs: {
                first: { top_hits: { size: 1, sort: [{ position: "asc" }], _source: ["text"] } },
              },
            },
          },
        },
      },
    } as never,
  });
  type Bucket = {
    key: string;
    last: { value: number | null };
    said: { doc_count: number };
    asked: { first: { hits: { hits: { _source: { text: string } }[] } } };
  };
  const buckets = (found.body.aggregations?.sessions as unknown as { buckets: Bucket[] }).buckets;
  return new Map(
    buckets.map((b) => {
      const first: unknown = b.asked.first.hits.hits[0]?._source.text;
      return [
        b.key,
        {
          last: b.last.value ?? 0,
          messages: b.said.doc_count,
          firstMessage: clipLine(typeof first === "string" ? first : "", FIRST_MESSAGE_CHARS),
        },
      ];
    }),
  );
}

function summaryOf(doc: Source, activity: Activity | undefined): SessionSummary {
  return {
    id: doc.session_id,
    path: "",
    cwd: doc.folder,
    project: doc.project,
    name: doc.session_name ?? null,
    created: iso(doc.session_created),
    modified: iso(activity?.last ?? doc.timestamp),
    messageCount: activity?.messages ?? 0,
    firstMessage: activity?.firstMessage ?? "",
    parent: null,
    tags: [...(doc.tags ?? [])],
  };
}
