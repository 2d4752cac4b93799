/**
 * `push`: sends an archive what it lacks of the session files. A file unchanged since its last
 * acknowledged push costs one stat; one that only grew is read from the start of its last message
 * (as the local sync reads it), and the documents of that message it replaces are deleted; one
 * rewritten is replaced whole. Documents go in bulk requests of bounded size; the items the
 * archive refuses for a passing reason (429, 5xx) are sent again with backoff, alone; a file
 * counts as pushed only once every one of its documents is acknowledged.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@opensearch-project/opensearch";
import { RecallError } from "../errors.js";
import type { Locations } from "../locations.js";
import { discoverSessionFiles, type SessionFile } from "../sessions/discover.js";
import { readCopyKeys, readSessionForIndex, type SessionRead } from "../sessions/session-index-reader.js";
import { parentFinder } from "../sync/fork-parent.js";
import { tailHash } from "../sync/state.js";
import { TAGS_DB_FILE, TagStore } from "../tags/tag-store.js";
import { PUSH_TIMEOUT_MS, remoteClient, remoteError, statusOf } from "./client.js";
import { sessionDocuments, type IdentifiedDocument } from "./documents.js";
import type { Remote } from "./remotes.js";
import { ensureIndex } from "./template.js";
import { loadWatermarks, saveWatermarks, watermarkFile, type FileWatermark, type Watermarks } from "./watermarks.js";

export interface PushOptions {
  /** Read and redact as a push would, send nothing, change nothing. */
  dryRun?: boolean;
  /** Each document that is (or, dry, would be) sent. */
  onDocument?: (document: IdentifiedDocument) => void;
}

export interface PushReport {
  /** The remote's name. */
  remote: string;
  /** Session files with something sent. */
  sessions: number;
  unchanged: number;
  /** Documents sent (one per message). */
  documents: number;
  /** Bytes of the documents sent, as JSON. */
  bytes: number;
  /** Documents removed from the archive: a message that grew, a rewritten session's old ones. */
  deleted: number;
  /** Secrets removed, by what they were. */
  redactions: Record<string, number>;
  failed: { path: string; reason: string }[];
  dryRun: boolean;
}

/** A bulk request is sent once it holds this many bytes of documents, or this many actions. */
const BULK_BYTES = 4 << 20;
const BULK_ACTIONS = 2_000;
/** Tries of an item the archive refused for a passing reason, with backoff from 250 ms to 8 s. */
const MAX_TRIES = 8;

type Action = { id: string; document: IdentifiedDocument["document"] } | { id: string; delete: true };

/** A push's requests may take the remote's timeout, and at least PUSH_TIMEOUT_MS. */
const pushTimeout = (remote: Remote) => Math.max(remote.timeoutMs, PUSH_TIMEOUT_MS);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const backoff = (attempt: number) => Math.min(8_000, 250 * 2 ** attempt);
const passing = (status: number | undefined) => status === undefined || status === 429 || status >= 500;

/** Sends `actions` in one bulk request, again for the items refused for a passing reason. */
async function sendBulk(client: Client, remote: Remote, actions: Action[]): Promise<void> {
  let pending = actions;
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > 0) await sleep(backoff(attempt - 1));
    const body = pending.flatMap((a): Record<string, unknown>[] => ("delete" in a ? [{ delete: { _index: remote.index, _id: a.id } }] : [{ index: { _index: remote.index, _id: a.id } }, { ...a.document }]));
    let items: Record<string, { status: number; error?: { type?: string; reason?: string } }>[];
    try {
      items = (await client.bulk({ body })).body.items as typeof items;
    } catch (error) {
      if (passing(statusOf(error)) && attempt + 1 < MAX_TRIES) continue;
      throw remoteError(remote, error, "pushing", pushTimeout(remote));
    }
    const again: Action[] = [];
    items.forEach((item, i) => {
      const result = Object.values(item)[0]!;
      const action = pending[i]!;
      // Deleting what is not there leaves the archive as wanted.
      if (!result.error && (result.status < 300 || ("delete" in action && result.status === 404))) return;
      if (!passing(result.status)) throw new RecallError("IO", `remote ${remote.name} refused document ${action.id} (HTTP ${result.status}): ${result.error?.reason ?? result.error?.type ?? "no reason given"}`);
      again.push(action);
    });
    if (again.length > 0 && attempt + 1 >= MAX_TRIES) throw new RecallError("IO", `remote ${remote.name} kept refusing ${again.length} documents (HTTP ${items.find((i) => Object.values(i)[0]!.error)?.[0]?.status ?? "429/5xx"}) after ${MAX_TRIES} tries`);
    pending = again;
  }
}

/**
 * Deletes every document of a session, found by a search and deleted in bulk (`_delete_by_query`
 * is a module that a bare engine lacks); again after a refresh until none is found.
 */
async function deleteSession(client: Client, remote: Remote, sessionId: string): Promise<number> {
  let deleted = 0;
  for (;;) {
    await client.indices.refresh({ index: remote.index });
    const found = await client.search({ index: remote.index, body: { size: 10_000, _source: false, query: { term: { session_id: sessionId } } } });
    const ids = found.body.hits.hits.map((hit) => hit._id!);
    if (ids.length === 0) return deleted;
    await sendBulk(client, remote, ids.map((id): Action => ({ id, delete: true })));
    deleted += ids.length;
  }
}

/** The tags of each session as the user's tag database holds them (none without a database). */
function openTags(locations: Locations): { of: (sessionId: string) => string[]; close: () => void } {
  const path = join(locations.dataDir, TAGS_DB_FILE);
  if (!existsSync(path)) return { of: () => [], close: () => undefined };
  const store = TagStore.open(path);
  return { of: (sessionId) => store.merged(sessionId), close: () => store.close() };
}

/**
 * The entries a fork copied from its parent, found as the local sync finds them (fork-parent.ts):
 * they are pushed with the parent only, as the local index keeps them.
 */
function forkCopies(locations: Locations, files: readonly SessionFile[]): (path: string, parent: string | undefined) => Promise<ReadonlySet<string> | undefined> {
  const findParent = parentFinder(locations, { filesOfSession: async () => [] }, files.map((f) => f.path));
  return async (path, parent) => {
    const found = await findParent(parent, path);
    try {
      return found ? readCopyKeys(found) : undefined;
    } catch {
      return undefined;
    }
  };
}

const sameTags = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((tag, i) => tag === b[i]);

/** The watermark of a file that only grew since its last push (or did not change), else undefined. */
function appendedTo(file: SessionFile, known: FileWatermark | undefined): FileWatermark | undefined {
  if (!known || known.ino !== file.ino || file.size < known.end || known.header.version < 3) return undefined;
  try {
    return tailHash(file.path, known.end) === known.tailHash ? known : undefined;
  } catch {
    return undefined;
  }
}

export async function push(locations: Locations, remote: Remote, env: NodeJS.ProcessEnv, options: PushOptions = {}): Promise<PushReport> {
  const dryRun = options.dryRun === true;
  const report: PushReport = { remote: remote.name, sessions: 0, unchanged: 0, documents: 0, bytes: 0, deleted: 0, redactions: {}, failed: [], dryRun };
  const { files, failures } = await discoverSessionFiles(locations);
  report.failed.push(...failures);
  const stateFile = watermarkFile(locations, remote);
  const watermarks: Watermarks = loadWatermarks(stateFile);
  const client = dryRun ? undefined : remoteClient(remote, env, pushTimeout(remote));
  if (client) {
    try {
      await ensureIndex(client, remote.index);
    } catch (error) {
      throw remoteError(remote, error, "preparing the index", pushTimeout(remote));
    }
  }

  let actions: Action[] = [];
  let actionBytes = 0;
  /** Files whose every action is queued: pushed once those are acknowledged. */
  let queued: [string, FileWatermark][] = [];
  const flush = async () => {
    if (client && actions.length > 0) await sendBulk(client, remote, actions);
    if (client && queued.length > 0) {
      for (const [path, mark] of queued) watermarks.set(path, mark);
      saveWatermarks(stateFile, watermarks);
    }
    actions = [];
    actionBytes = 0;
    queued = [];
  };

  const tags = openTags(locations);
  const copiesOf = forkCopies(locations, files);
  try {
    for (const file of files) {
      const known = watermarks.get(file.path);
      // A session tagged since its last push sends its documents again, carrying the new tags.
      const retagged = known !== undefined && !sameTags(known.tags ?? [], tags.of(known.header.id));
      if (known && !retagged && known.ino === file.ino && known.size === file.size && known.mtimeMs === file.mtimeMs) {
        report.unchanged++;
        continue;
      }
      const grown = appendedTo(file, known);
      const append = retagged ? undefined : grown;
      let read: SessionRead;
      try {
        if (append) {
          read = readSessionForIndex(file.path, { resume: { header: append.header, checkpoint: append.checkpoint }, skipCopies: await copiesOf(file.path, append.header.parent) });
        } else {
          // Only the header says whether this is a fork; most files are read once.
          read = readSessionForIndex(file.path);
          const copies = await copiesOf(file.path, read.header.parent);
          if (copies) read = readSessionForIndex(file.path, { skipCopies: copies });
        }
      } catch (error) {
        report.failed.push({ path: file.path, reason: error instanceof Error ? error.message : String(error) });
        continue;
      }
      const sessionTags = tags.of(read.header.id);
      const documents = sessionDocuments(read, remote, sessionTags);
      const ids = new Set(documents.map((d) => d.id));
      // What the archive holds of this file and will not be overwritten: the last message's old
      // documents, or, for a rewritten file, all of its session's.
      const stale = grown ? grown.tailIds.filter((id) => !ids.has(id)) : [];
      if (known && !grown && client) {
        await flush();
        try {
          report.deleted += await deleteSession(client, remote, known.header.id);
        } catch (error) {
          throw remoteError(remote, error, "replacing a rewritten session", pushTimeout(remote));
        }
      }
      for (const id of stale) actions.push({ id, delete: true });
      report.deleted += stale.length;
      for (const document of documents) {
        options.onDocument?.(document);
        const bytes = Buffer.byteLength(JSON.stringify(document.document));
        actions.push({ id: document.id, document: document.document });
        actionBytes += bytes;
        report.bytes += bytes;
        report.documents++;
        for (const [what, count] of Object.entries(document.redacted)) report.redactions[what] = (report.redactions[what] ?? 0) + count;
        // A long session spans requests; it counts as pushed only with its last one (it is not queued yet).
        if (actionBytes >= BULK_BYTES || actions.length >= BULK_ACTIONS) await flush();
      }
      if (documents.length > 0 || stale.length > 0) report.sessions++;
      queued.push([
        file.path,
        {
          ino: file.ino,
          size: file.size,
          mtimeMs: file.mtimeMs,
          end: read.end,
          tailHash: tailHash(file.path, read.end),
          header: read.header,
          checkpoint: read.checkpoint,
          tailIds: documents.filter((d) => d.document.position >= read.checkpoint.nextIndex).map((d) => d.id),
          tags: sessionTags,
        },
      ]);
    }
  } finally {
    tags.close();
  }
  await flush();
  return report;
}
