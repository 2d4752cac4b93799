/**
 * The session files a remote keeps (`keepFiles: true`), so that `pull` can write one on another
 * machine, redacted unless the remote says not to. A kept file is one document or a few, its
 * parts: part 0, its id the session id, holds the file from its start as one push read it; each
 * later push of a file that only grew adds a part with the lines appended since (`<id>:<n>`), so
 * an append sends only what the archive lacks. Each part names the bytes of the session file it
 * holds and the version of part 0 it extends (`generation`): `keptContent` joins the parts that
 * follow on from part 0, and a part left by an earlier version of the file is never one of them.
 * A file rewritten, or grown to MAX_KEPT_PARTS parts, is kept again as a new part 0.
 *
 * They live in an index of their own, `<index>-files` (an alias in front of `<index>-files-v1`,
 * as template.ts does for the sessions' index), not beside the messages: searches, reads,
 * collapses and counts of the sessions' index see only messages, a search never reads a file's
 * megabytes, and the file's text is stored, not analyzed.
 */
import type { Client } from "@opensearch-project/opensearch";
import { FastHash } from "../hash.js";
import { deleteMatching } from "./bulk.js";
import type { Remote } from "./remotes.js";
import { followingPart, refusedKeptFile } from "./untrusted.js";

export const FILES_VERSION = 1;

/** The alias kept files are written to and read from. */
export function filesAlias(remote: Remote): string {
  return `${remote.index}-files`;
}

/**
 * A kept file bigger than this is not kept (a request to OpenSearch holds at most 100 MB by
 * default).
 */
export const MAX_KEPT_BYTES = 48 << 20;

/** A kept file of this many parts is kept again whole, as one, when it next grows. */
export const MAX_KEPT_PARTS = 100;

/** Parts asked for in one request by `keptContent`. */
const PARTS_PER_READ = 50;

/** One part of a kept file: its document. */
export interface KeptFile {
  session_id: string;
  /** Pi's name of the file, `<time>_<id>.jsonl`. */
  file_name: string;
  /** The folder the session was started in, on the machine that pushed it. */
  folder: string;
  project: string;
  machine: string;
  user: string;
  session_created: number;
  /** 0: the file from its start; n: the lines appended to it after part n - 1. */
  part: number;
  /** The bytes of the session file this part holds: [from, end), before redaction. */
  from: number;
  end: number;
  /** Part 0's, on every part that extends it. */
  generation: string;
  /** The part's lines, complete ones only, redacted. */
  content: string;
  bytes: number;
  redactions: number;
}

/** What the archive keeps of a session file, as its watermark remembers it. */
export interface KeptState {
  generation: string;
  parts: number;
  /** The bytes of its parts, as sent. */
  bytes: number;
}

/** A part's document id: part 0's is the session id. */
export function partId(sessionId: string, part: number): string {
  return part === 0 ? sessionId : `${sessionId}:${part}`;
}

/** The generation of a part 0: the same file kept the same way is the same part 0. */
export function generationOf(sessionId: string, content: string): string {
  return new FastHash().update(sessionId).update(content).digest();
}

const keyword = { type: "keyword" } as const;

/**
 * The fields of parts, added to an index of kept files made before them (an added field is
 * allowed).
 */
const PART_FIELDS = {
  part: { type: "integer" },
  from: { type: "long" },
  end: { type: "long" },
  generation: keyword,
} as const;

const MAPPINGS = {
  dynamic: "strict",
  properties: {
    session_id: keyword,
    file_name: keyword,
    folder: keyword,
    project: keyword,
    machine: keyword,
    user: keyword,
    session_created: { type: "date", format: "epoch_millis" },
    ...PART_FIELDS,
    /** Stored for `pull`, never searched. */
    content: { type: "text", index: false },
    bytes: { type: "long" },
    redactions: { type: "integer" },
  },
} as const;

/**
 * Creates the index of kept files behind its alias, unless it is there; one made before parts gets
 * their fields.
 */
export async function ensureFilesIndex(client: Client, remote: Remote): Promise<void> {
  const alias = filesAlias(remote);
  if ((await client.indices.existsAlias({ name: alias })).body) {
    await client.indices.putMapping({ index: alias, body: { properties: PART_FIELDS } });
    return;
  }
  try {
    await client.indices.create({
      index: `${alias}-v${FILES_VERSION}`,
      body: { aliases: { [alias]: {} }, mappings: MAPPINGS } as never,
    });
  } catch (error) {
    // Another machine created it meanwhile.
    if (
      (error as { body?: { error?: { type?: string } } }).body?.error?.type !==
      "resource_already_exists_exception"
    )
      throw error;
  }
}

/**
 * Whether the remote has an index of kept files (a remote may have kept files before `keepFiles`
 * was turned off).
 */
export async function hasFilesIndex(client: Client, remote: Remote): Promise<boolean> {
  return (await client.indices.existsAlias({ name: filesAlias(remote) })).body;
}

/**
 * Every part of the kept files of these sessions, wherever pushes left them; how many documents
 * that was.
 */
export async function deleteKept(
  client: Client,
  remote: Remote,
  sessionIds: readonly string[],
): Promise<number> {
  let deleted = 0;
  for (let at = 0; at < sessionIds.length; at += 1_000) {
    deleted += await deleteMatching(
      client,
      remote,
      { terms: { session_id: sessionIds.slice(at, at + 1_000) } },
      filesAlias(remote),
    );
  }
  return deleted;
}

/**
 * The whole kept file whose part 0 is `first`: its content and that of each part after it, as long
 * as they follow on (read by id, so a push is seen the moment it is acknowledged), up to the
 * MAX_KEPT_PARTS a push writes. A part that follows on but is not one a push writes, or a file
 * larger than a push keeps, is refused (untrusted.ts).
 */
export async function keptContent(
  client: Client,
  remote: Remote,
  first: KeptFile,
): Promise<string> {
  const contents: string[] = [];
  let bytes = 0;
  const add = (content: string) => {
    bytes += Buffer.byteLength(content);
    if (bytes > MAX_KEPT_BYTES)
      throw refusedKeptFile(
        remote.name,
        first.session_id,
        `it is larger than a push keeps (${MAX_KEPT_BYTES >> 20} MB)`,
      );
    contents.push(content);
  };
  add(first.content);
  let end = first.end;
  for (let next = 1; next < MAX_KEPT_PARTS; next += PARTS_PER_READ) {
    const ids = Array.from({ length: Math.min(PARTS_PER_READ, MAX_KEPT_PARTS - next) }, (_, i) =>
      partId(first.session_id, next + i),
    );
    const { docs } = (await client.mget({ index: filesAlias(remote), body: { ids } })).body as {
      docs: { found?: boolean; _source?: unknown }[];
    };
    for (const [i, doc] of docs.entries()) {
      const part = followingPart(
        doc.found ? doc._source : undefined,
        first,
        next + i,
        end,
        remote.name,
      );
      if (!part) break;
      add(part.content);
      end = part.end;
    }
    if (contents.length < next + ids.length) break;
  }
  return contents.join("");
}
