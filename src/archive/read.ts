/**
 * `read` of an archived session: its messages as they were pushed (the conversation, or with
 * `raw` every kind the remote took), in session order, a page of at most `maxChars` characters at
 * a time. A session is named by its id or a unique prefix of it. Pages hold whole messages (one
 * longer than a page is a page of its own); the cursor says where the next page starts and how
 * many messages the session had, and is refused once that changed.
 */
import { Buffer } from "node:buffer";
import type { Client } from "@opensearch-project/opensearch";
import { checkedPageChars, DEFAULT_PAGE_CHARS } from "../answers/limits.js";
import type { ReadMessage, ReadPage } from "../answers/read-page.js";
import { iso } from "../answers/session-summary.js";
import { RecallError } from "../errors.js";
import type { TranscriptMode } from "../sessions/transcript.js";
import { remoteError, withRemote } from "./client.js";
import type { ArchiveDocument } from "./documents.js";
import type { PushedContent, Remote } from "./remotes.js";
import type { Origin } from "./search.js";
import { checkedDocument, isSessionId } from "./untrusted.js";

export interface ArchiveReadOptions {
  /** `conversation` (the default) or `raw`: every kind of text the remote was sent. */
  mode?: TranscriptMode;
  /** Start with the latest N messages (ignored with a cursor). */
  limit?: number;
  maxChars?: number;
  cursor?: string;
}

export interface ArchiveReadResult {
  messages: ReadMessage[];
  /**
   * The page as a local read ends it; `path` is empty (the file is on the machine that pushed it).
   */
  page: ReadPage;
  origin: Origin;
}

/** The most documents of one session an archive read takes (OpenSearch's result window). */
const MAX_DOCUMENTS = 10_000;
/** Within one message, the order its kinds of text came in. */
const KIND_ORDER: Record<PushedContent, number> = {
  thinking: 0,
  conversation: 1,
  calls: 2,
  outputs: 3,
};

interface Cursor {
  session: string;
  mode: TranscriptMode;
  from: number;
  total: number;
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}

function decodeCursor(text: string, session: string): Cursor {
  let cursor: Partial<Cursor>;
  try {
    cursor = JSON.parse(Buffer.from(text, "base64url").toString("utf8")) as Partial<Cursor>;
  } catch {
    throw new RecallError("BAD_CURSOR", "this is not a cursor of an archived session's page", {
      field: "cursor",
    });
  }
  if (
    typeof cursor.session !== "string" ||
    typeof cursor.from !== "number" ||
    typeof cursor.total !== "number" ||
    (cursor.mode !== "conversation" && cursor.mode !== "raw")
  ) {
    throw new RecallError("BAD_CURSOR", "this is not a cursor of an archived session's page", {
      field: "cursor",
    });
  }
  if (cursor.session !== session)
    throw new RecallError(
      "CURSOR_MISMATCH",
      `this cursor continues session ${cursor.session}, not ${session}`,
      { field: "cursor" },
    );
  return cursor as Cursor;
}

/** The one session whose id is `ref` or starts with it. */
export async function resolveArchived(
  client: Client,
  remote: Remote,
  ref: string,
): Promise<string> {
  if (!/^[0-9a-z-]{4,}$/i.test(ref))
    throw new RecallError(
      "BAD_INPUT",
      `an archived session is named by its id or a prefix of 4 or more of its characters, not ${JSON.stringify(ref)}`,
      { field: "session" },
    );
  const found = await client.search({
    index: remote.index,
    body: {
      size: 0,
      query: { prefix: { session_id: ref.toLowerCase() } },
      aggs: { ids: { terms: { field: "session_id", size: 11 } } },
    } as never,
  });
  // A session id no push gives (a crafted one: untrusted.ts) names nothing to read.
  const ids = (found.body.aggregations?.ids as unknown as { buckets: { key: unknown }[] }).buckets
    .map((b) => b.key)
    .filter(isSessionId);
  if (ids.length === 0)
    throw new RecallError("NOT_FOUND", `no session ${ref} in remote ${remote.name}`, {
      field: "session",
      value: ref,
    });
  if (ids.length > 1 && !ids.includes(ref))
    throw new RecallError(
      "AMBIGUOUS",
      `${ref} names several sessions in remote ${remote.name}: ${ids.slice(0, 10).join(", ")}${ids.length > 10 ? ", …" : ""}`,
      { field: "session", value: ref },
    );
  return ids.includes(ref) ? ref : ids[0]!;
}

export async function readArchived(
  remote: Remote,
  env: NodeJS.ProcessEnv,
  ref: string,
  options: ArchiveReadOptions = {},
): Promise<ArchiveReadResult> {
  const maxChars = checkedPageChars(options.maxChars ?? DEFAULT_PAGE_CHARS);
  const { session, cursor, mode, documents } = await withRemote(
    remote,
    env,
    remote.timeoutMs,
    async (connection) => {
      const client = connection.client();
      try {
        const session = await resolveArchived(client, remote, ref);
        const cursor =
          options.cursor === undefined ? undefined : decodeCursor(options.cursor, session);
        const mode = cursor?.mode ?? options.mode ?? "conversation";
        const query = {
          bool: {
            filter: [
              { term: { session_id: session } },
              ...(mode === "raw" ? [] : [{ term: { kind: "conversation" } }]),
            ],
          },
        };
        const found = await client.search({
          index: remote.index,
          body: {
            size: MAX_DOCUMENTS,
            track_total_hits: true,
            query,
            sort: [{ position: "asc" }],
          } as never,
        });
        const total = found.body.hits.total;
        if ((typeof total === "number" ? total : (total?.value ?? 0)) > MAX_DOCUMENTS) {
          throw new RecallError(
            "BAD_INPUT",
            `session ${session} has more than ${MAX_DOCUMENTS} archived messages, more than an archive read takes`,
            { field: "session" },
          );
        }
        // A crafted message (untrusted.ts) is left out; the others are read.
        const documents = found.body.hits.hits.flatMap(
          (hit) => checkedDocument<ArchiveDocument>(hit._source, true) ?? [],
        );
        return { session, cursor, mode, documents };
      } catch (error) {
        throw remoteError(remote, error, "reading a session");
      }
    },
  );
  documents.sort((a, b) => a.position - b.position || KIND_ORDER[a.kind] - KIND_ORDER[b.kind]);
  if (cursor && cursor.total !== documents.length) {
    throw new RecallError(
      "STALE_CURSOR",
      `session ${session} changed in remote ${remote.name} since this cursor was made`,
      { field: "cursor", hint: "start again without a cursor" },
    );
  }
  const start =
    cursor?.from ??
    (options.limit === undefined ? 0 : Math.max(0, documents.length - options.limit));
  let end = start;
  let chars = 0;
  while (
    end < documents.length &&
    (end === start || chars + documents[end]!.text.length <= maxChars)
  )
    chars += documents[end++]!.text.length;
  const first = documents[0];
  const messages = documents.slice(start, end).map((d, i): ReadMessage => ({
    type: "message",
    index: start + i,
    entryId: d.entry_id,
    role: d.role,
    timestamp: iso(d.timestamp),
    text: d.text,
    ...(d.tool === undefined ? {} : { toolName: d.tool }),
  }));
  const last = documents[documents.length - 1];
  return {
    messages,
    page: {
      type: "page",
      id: session,
      path: "",
      cwd: first?.folder ?? "",
      name: last?.session_name ?? null,
      mode,
      allBranches: false,
      total: documents.length,
      from: messages.length > 0 ? start : null,
      count: messages.length,
      chars,
      nextCursor:
        end < documents.length
          ? encodeCursor({ session, mode, from: end, total: documents.length })
          : null,
    },
    origin: { remote: remote.name, machine: last?.machine ?? "", user: last?.user ?? "" },
  };
}
