/**
 * The session files a remote keeps (`keepFiles: true`), so that `pull` can write one on another
 * machine: one document per session, its id the session id, holding the whole file as pushed
 * (redacted unless the remote says not to). They live in an index of their own, `<index>-files`
 * (an alias in front of `<index>-files-v1`, as template.ts does for the sessions' index), not
 * beside the messages: searches, reads, collapses and counts of the sessions' index see only
 * messages, a search never reads a file's megabytes, and the file's text is stored, not analyzed.
 */
import type { Client } from "@opensearch-project/opensearch";
import type { Remote } from "./remotes.js";

export const FILES_VERSION = 1;

/** The alias kept files are written to and read from. */
export function filesAlias(remote: Remote): string {
  return `${remote.index}-files`;
}

/** A kept file bigger than this is not kept (a request to OpenSearch holds at most 100 MB by default). */
export const MAX_KEPT_BYTES = 48 << 20;

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
  /** The file's lines, complete ones only, redacted. */
  content: string;
  bytes: number;
  redactions: number;
}

const keyword = { type: "keyword" } as const;

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
    /** Stored for `pull`, never searched. */
    content: { type: "text", index: false },
    bytes: { type: "long" },
    redactions: { type: "integer" },
  },
} as const;

/** Creates the index of kept files behind its alias, unless it is there. */
export async function ensureFilesIndex(client: Client, remote: Remote): Promise<void> {
  const alias = filesAlias(remote);
  if ((await client.indices.existsAlias({ name: alias })).body) return;
  try {
    await client.indices.create({ index: `${alias}-v${FILES_VERSION}`, body: { aliases: { [alias]: {} }, mappings: MAPPINGS } as never });
  } catch (error) {
    // Another machine created it meanwhile.
    if ((error as { body?: { error?: { type?: string } } }).body?.error?.type !== "resource_already_exists_exception") throw error;
  }
}

/** Whether the remote has an index of kept files (a remote may have kept files before `keepFiles` was turned off). */
export async function hasFilesIndex(client: Client, remote: Remote): Promise<boolean> {
  return (await client.indices.existsAlias({ name: filesAlias(remote) })).body;
}
