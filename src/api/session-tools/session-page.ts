/**
 * One page of sessions for pi_session_search, find and list, the same for every adapter: the
 * library search under the facade's freshness policy, its cursor pinned to the first page's
 * clock (recency is part of a session's score, so a later page must rank as the first did), the
 * count of sessions looked through, and notes for the model: how the query was read, words read
 * as others, and, while the index is still being built, how far it got.
 */
import { RecallError } from "../../errors.js";
import { existsSync, readdirSync } from "node:fs";
import { sessionsFolderProblem, type Locations } from "../../locations.js";
import type { SyncProgress } from "../../sync/sync.js";
import type { Freshness } from "../recall.js";
import type { SearchOptions, SearchPage } from "../search.js";
import type { SearchHit } from "../../answers/search-hit.js";
import { meaningIncomplete, type MeaningCoverage } from "../meaning.js";
import { checkedResults, type SessionQuery } from "./session-query.js";

export interface SessionPageRequest {
  query: SessionQuery;
  /** Only sessions run in this folder (a project scope). */
  cwd?: string;
  limit?: number;
  /** The cursor the previous page gave (`nextCursor`), unchanged. */
  cursor?: string;
  signal?: AbortSignal;
}

/** How far the first index of a long-lived host got (see `recall.sessionTools.startIndexing`). */
export interface IndexingProgress {
  filesDone: number;
  filesTotal: number;
}

export interface SessionPage {
  hits: SearchHit[];
  nextCursor: string | null;
  /** Sessions the search looked through (of the project, with `cwd`). */
  scanned: number;
  /** What the model should know about this answer, one sentence each. */
  notes: string[];
  /** While the first index is being built: how far it got (the page holds only what is indexed). */
  indexing: IndexingProgress | null;
  /** A search by meaning or both: how many of the messages searched have their vector. */
  meaningCoverage: MeaningCoverage | null;
  /**
   * Whether the page holds all it would with every index complete: no first index under way, and
   * the meaning index (when searched) covers all but 1 in 100 messages.
   */
  complete: boolean;
}

/** What a page needs of the facade. */
export interface PageHost {
  search(options: SearchOptions & Freshness): Promise<SearchPage>;
  count(cwd: string | undefined): Promise<number>;
  locations: Locations;
  /** Undefined once the index has been brought up to date; how far it got until then. */
  indexing(): Promise<{ progress: SyncProgress | undefined } | undefined>;
}

interface PinnedCursor {
  /** The library's cursor. */
  c: string;
  /** The clock of the first page (ms). */
  n: number;
}

function encodeCursor(cursor: PinnedCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}

function decodeCursor(text: string): PinnedCursor {
  try {
    const cursor = JSON.parse(
      Buffer.from(text, "base64url").toString("utf8"),
    ) as Partial<PinnedCursor>;
    if (typeof cursor.c === "string" && Number.isSafeInteger(cursor.n))
      return cursor as PinnedCursor;
  } catch {
    // refused below
  }
  throw new RecallError(
    "BAD_CURSOR",
    "this is not a cursor of this search (was it cut short when copied?)",
    { field: "cursor", hint: "call again without a cursor" },
  );
}

const FIRST_PAGE = new Set(["/", "start"]);

export async function sessionPage(
  host: PageHost,
  request: SessionPageRequest,
): Promise<SessionPage> {
  const problem = storageProblem(host.locations);
  if (problem === "unusable")
    throw new RecallError("IO", "the sessions folder does not exist or is not a folder", {
      field: "sessionsDir",
      hint: "start the server with a sessions folder or agent folder that exists (or fix PI_CODING_AGENT_DIR / PI_CODING_AGENT_SESSION_DIR)",
    });
  const limit = checkedResults(request.limit);
  const pinned =
    request.cursor === undefined || FIRST_PAGE.has(request.cursor)
      ? undefined
      : decodeCursor(request.cursor);
  const now = pinned?.n ?? Date.now();
  const indexing = await host.indexing();
  const page = await host.search({
    ...request.query.search,
    limit,
    now,
    prefix: false,
    snapshot: true,
    ...(request.cwd === undefined ? {} : { cwd: request.cwd }),
    ...(pinned ? { cursor: pinned.c } : {}),
    ...(request.signal ? { signal: request.signal } : {}),
    // While the first index is being built, what is indexed answers now.
    ...(indexing ? { sync: false } : {}),
  });
  const notes = [
    ...(request.query.note ? [request.query.note] : []),
    ...page.readAs.map(
      ({ word, readAs }) =>
        `no session holds ${JSON.stringify(word)}: read as ${JSON.stringify(readAs)}, one typo away`,
    ),
    ...(problem === "empty" ? ["Pi has written no sessions yet"] : []),
  ];
  const progress = indexing
    ? {
        filesDone: indexing.progress?.filesDone ?? 0,
        filesTotal: indexing.progress?.filesTotal ?? 0,
      }
    : null;
  if (progress) notes.push(indexingNote(progress));
  const meaningCoverage = page.coverage ?? null;
  const meaningShort = meaningCoverage !== null && meaningIncomplete(meaningCoverage);
  if (meaningShort) notes.push(meaningNote(meaningCoverage));
  return {
    hits: page.hits,
    nextCursor: page.nextCursor === null ? null : encodeCursor({ c: page.nextCursor, n: now }),
    scanned: await host.count(request.cwd),
    notes,
    indexing: progress,
    meaningCoverage,
    complete: progress === null && !meaningShort,
  };
}

/**
 * What recall itself keeps in Pi's agent folder (cache/, recall/, pi-recall/): no sign that Pi uses
 * the folder.
 */
const RECALL_OWN = new Set(["cache", "recall", "pi-recall"]);

/**
 * Whether the sessions folder can hold sessions: "unusable" when a setting names a folder that is
 * not there (or a file), so that nothing would ever be found; "empty" when it is only not there
 * yet: Pi's own folder, or an agent folder Pi uses (it holds more than recall's own folders),
 * where Pi makes its sessions folder when it first saves a session.
 */
function storageProblem(locations: Locations): "unusable" | "empty" | undefined {
  const problem = sessionsFolderProblem(locations);
  if (!problem) return undefined;
  if (!problem.fatal) return "empty";
  const agentFolder =
    locations.sessionsFrom === "PI_CODING_AGENT_DIR" &&
    !existsSync(locations.sessionsDir) &&
    existsSync(locations.agentDir);
  return agentFolder && readdirSync(locations.agentDir).some((name) => !RECALL_OWN.has(name))
    ? "empty"
    : "unusable";
}

function indexingNote({ filesDone, filesTotal }: IndexingProgress): string {
  const far =
    filesTotal > 0
      ? `${filesDone} of ${filesTotal} session files read so far`
      : "it has just started";
  return `the index is still being built (${far}): these results come from what is indexed and may be incomplete; call again shortly for complete results`;
}

function meaningNote({ embedded, messages }: MeaningCoverage): string {
  return `the meaning index covers ${embedded} of ${messages} messages searched (it is being built): a session whose messages are not embedded yet is found by its words only; call again later for complete results`;
}
