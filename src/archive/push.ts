/**
 * `push`: sends an archive what it lacks of the session files. A file unchanged since its last
 * acknowledged push costs one stat; one that only grew is read from the start of its last message
 * (as the local sync reads it), and the documents of that message it replaces are deleted; one
 * rewritten is replaced whole. Documents go in bulk requests of bounded size; the items the
 * archive refuses for a passing reason (429, 5xx) are sent again with backoff, alone; a file
 * counts as pushed only once every one of its documents is acknowledged. A remote with `keepFiles`
 * also gets each pushed session file, redacted (redact-file.ts), in its index of kept files
 * (kept-files.ts): sent whole again whenever the file changed, in the same bulk request as the
 * file's last documents, and taken out with its session (all of them once `keepFiles` is off again).
 */
import { closeSync, existsSync, openSync, readSync } from "node:fs";
import { basename } from "node:path";
import { join, resolve } from "node:path";
import { RecallError } from "../errors.js";
import type { Locations } from "../locations.js";
import { discoverSessionFiles, type SessionFile } from "../sessions/discover.js";
import type { SessionHeader } from "../sessions/entries.js";
import { readCopyKeys, readSessionForIndex, type SessionRead } from "../sessions/session-index-reader.js";
import { projectOf } from "../sessions/project-identity.js";
import { parentFinder } from "../sync/fork-parent.js";
import { tailHash } from "../sync/state.js";
import { TAGS_DB_FILE, TagStore } from "../tags/tag-store.js";
import { deleteSession, pushTimeout, sendBulk, type Action } from "./bulk.js";
import type { Client } from "@opensearch-project/opensearch";
import { remoteError, withRemote, type RemoteConnection } from "./client.js";
import { sessionDocuments, type IdentifiedDocument, type Redactions } from "./documents.js";
import { forgottenFile, loadForgotten } from "./forgotten.js";
import { ensureHoldersIndex, heldElsewhere, holdAction, release } from "./holders.js";
import { indexIdentity, replacedSince, type IndexIdentity } from "./index-identity.js";
import { deleteKept, ensureFilesIndex, filesAlias, generationOf, MAX_KEPT_BYTES, MAX_KEPT_PARTS, partId, type KeptFile, type KeptState } from "./kept-files.js";
import { redactKeptFields, redactSessionFile } from "./redact-file.js";
import type { Remote } from "./remotes.js";
import { ensureIndex } from "./template.js";
import { loadSignatures, loadWatermarks, saveSignatures, saveWatermarks, watermarkFile, type FileWatermark, type Signature, type Signatures, type Watermarks } from "./watermarks.js";

export interface PushOptions {
  /** Read and redact as a push would, send nothing, change nothing. */
  dryRun?: boolean;
  /** Only the sessions started in this folder. */
  cwd?: string;
  /** Only the sessions of the project this folder belongs to (project-identity.ts). */
  repo?: string;
  /** Only the sessions active from this time on (ms since epoch): their last message. */
  since?: number;
  /** Each document that is (or, dry, would be) sent. */
  onDocument?: (document: IdentifiedDocument) => void;
  /** Each part of a session file that is (or, dry, would be) kept in the archive (`keepFiles`), and the secrets removed from it by kind. */
  onFile?: (file: KeptFile, redacted: Record<string, number>) => void;
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
  /** Parts of session files kept in the archive (`keepFiles`: a file whole, or the lines appended to it), and their bytes as sent. */
  files: number;
  fileBytes: number;
  /** Documents removed from the archive: a message that grew, a rewritten or deleted session's old ones. */
  deleted: number;
  /** Sessions whose file is gone from the sessions folder, taken out of the archive. */
  removed: number;
  /** Sessions not sent because the remote was told to forget them or their project. */
  forgotten: number;
  /** The aliases whose index was deleted or replaced since this machine's last push (index-identity.ts): everything was sent again. */
  replaced: string[];
  /** Secrets removed from the documents, by what they were. */
  redactions: Record<string, number>;
  /** Secrets removed from the kept session files (`keepFiles`), by what they were: their tool output and thinking included, which documents may not carry. */
  fileRedactions: Record<string, number>;
  /** All the secrets removed, by where they were (documents.ts's places, `kept-file`) and what they were. */
  redactedIn: Redactions;
  failed: { path: string; reason: string }[];
  dryRun: boolean;
}

/** A bulk request is sent once it holds this many bytes of documents, or this many actions. */
const BULK_BYTES = 4 << 20;
const BULK_ACTIONS = 2_000;
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

export function push(locations: Locations, remote: Remote, env: NodeJS.ProcessEnv, options: PushOptions = {}): Promise<PushReport> {
  return withRemote(remote, env, pushTimeout(remote), (connection) => pushOver(locations, remote, connection, options));
}

/** The push, over a connection whose client is made only once there is something to send. */
async function pushOver(locations: Locations, remote: Remote, connection: RemoteConnection, options: PushOptions): Promise<PushReport> {
  if (options.cwd !== undefined && options.repo !== undefined) throw new RecallError("BAD_INPUT", "a folder (cwd) and a project (repo) cannot both scope one push", { field: "repo" });
  const dryRun = options.dryRun === true;
  const report: PushReport = { remote: remote.name, sessions: 0, unchanged: 0, documents: 0, bytes: 0, files: 0, fileBytes: 0, deleted: 0, removed: 0, forgotten: 0, replaced: [], redactions: {}, fileRedactions: {}, redactedIn: {}, failed: [], dryRun };
  const { files, failures } = await discoverSessionFiles(locations);
  report.failed.push(...failures);
  const stateFile = watermarkFile(locations, remote);
  // The indexes as they are now, in one small request (a dry run asks nothing): an index deleted or
  // replaced since the last push holds none of what the watermarks say it acknowledged.
  let identityNow: IndexIdentity | undefined;
  if (!dryRun) {
    try {
      identityNow = await indexIdentity(connection.client(), remote);
    } catch (error) {
      throw remoteError(remote, error, "looking at the index", pushTimeout(remote));
    }
  }
  const replacedIn = (saved: IndexIdentity | undefined) => (identityNow ? replacedSince(remote, saved, identityNow) : []);
  // Nothing to send, by the signatures alone: the watermarks (five times their bytes) are not read.
  const signatures = loadSignatures(stateFile);
  if (signatures && allAsPushed(locations, files, signatures, remote) && replacedIn(signatures.identity).length === 0) {
    report.unchanged = files.length;
    return report;
  }
  const watermarks: Watermarks = loadWatermarks(stateFile);
  report.replaced = replacedIn(watermarks.identity);
  // Sent again, all of it: the archive no longer holds what was acknowledged.
  if (report.replaced.length > 0) watermarks.clear();
  if (identityNow) watermarks.identity = identityNow;
  let saved = false;
  const save = () => {
    saveWatermarks(stateFile, watermarks);
    saved = true;
  };
  const forgotten = loadForgotten(forgottenFile(stateFile));
  // The remote is asked for nothing (its client not even loaded) until the push has something for
  // it: a push with nothing to send costs only the look at the files. Undefined in a dry run.
  let client: Client | undefined;
  const engine = async (): Promise<Client | undefined> => {
    if (dryRun || client) return client;
    const made = connection.client();
    try {
      await ensureIndex(made, remote.index);
      await ensureHoldersIndex(made, remote);
      if (remote.keepFiles) await ensureFilesIndex(made, remote);
      // The indexes just made (or found) are the ones the watermarks saved from now on name.
      watermarks.identity = await indexIdentity(made, remote);
    } catch (error) {
      throw remoteError(remote, error, "preparing the index", pushTimeout(remote));
    }
    client = made;
    return client;
  };

  // A remote no longer told to keep files drops the ones it kept (counted with the deleted documents).
  // Of a session another machine holds too, the kept file may be that machine's: it stays.
  const unkept = remote.keepFiles ? [] : [...watermarks.values()].filter((mark) => mark.kept);
  const dropping = unkept.length > 0 ? await engine() : undefined;
  if (dropping) {
    try {
      const elsewhere = await heldElsewhere(dropping, remote, unkept.map((mark) => mark.header.id));
      report.deleted += await deleteKept(dropping, remote, unkept.map((mark) => mark.header.id).filter((id) => !elsewhere.has(id)));
    } catch (error) {
      throw remoteError(remote, error, "dropping the kept session files", pushTimeout(remote));
    }
    for (const mark of unkept) delete mark.kept;
    save();
  }

  let actions: Action[] = [];
  let actionBytes = 0;
  /** Files whose every action is queued: pushed once those are acknowledged. */
  let queued: [string, FileWatermark][] = [];
  const flush = async () => {
    const sending = actions.length > 0 || queued.length > 0 ? await engine() : undefined;
    if (sending && actions.length > 0) await sendBulk(sending, remote, actions);
    if (sending && queued.length > 0) {
      for (const [path, mark] of queued) watermarks.set(path, mark);
      save();
    }
    actions = [];
    actionBytes = 0;
    queued = [];
  };

  const folder = options.cwd === undefined ? undefined : resolve(options.cwd);
  const project = options.repo === undefined ? undefined : projectOf(resolve(options.repo));
  const ofScope = (header: SessionHeader) => (folder === undefined || header.cwd === folder) && (project === undefined || projectOf(header.cwd) === project);
  const inScope = (read: SessionRead) => ofScope(read.header) && (options.since === undefined || read.modified >= options.since);
  const tags = openTags(locations);
  const copiesOf = forkCopies(locations, files);
  try {
    for (const file of files) {
      const known = watermarks.get(file.path);
      // A session tagged since its last push sends its documents again, carrying the new tags.
      const retagged = known !== undefined && !sameTags(known.tags ?? [], tags.of(known.header.id));
      const keptAsIs = !remote.keepFiles || known?.kept !== undefined;
      if (known && !retagged && keptAsIs && sameSignature(known, file)) {
        report.unchanged++;
        continue;
      }
      const grown = appendedTo(file, known);
      const append = retagged ? undefined : grown;
      let read: SessionRead;
      try {
        if (append) {
          read = readSessionForIndex(file.path, { resume: { header: append.header, checkpoint: append.checkpoint }, skipCopies: await copiesOf(file.path, append.header.parent), whole: true });
        } else {
          // Only the header says whether this is a fork; most files are read once.
          read = readSessionForIndex(file.path, { whole: true });
          const copies = await copiesOf(file.path, read.header.parent);
          if (copies) read = readSessionForIndex(file.path, { skipCopies: copies, whole: true });
        }
      } catch (error) {
        report.failed.push({ path: file.path, reason: error instanceof Error ? error.message : String(error) });
        continue;
      }
      if (forgotten.sessions.has(read.header.id) || forgotten.projects.has(projectOf(read.header.cwd))) {
        report.forgotten++;
        continue;
      }
      if (!inScope(read)) continue;
      const sessionTags = tags.of(read.header.id);
      const documents = await sessionDocuments(read, remote, sessionTags);
      const ids = new Set(documents.map((d) => d.id));
      // What the archive holds of this file and will not be overwritten: the last message's old
      // documents, or, for a rewritten file, all of its session's.
      const stale = grown ? grown.tailIds.filter((id) => !ids.has(id)) : [];
      const replacing = known && !grown ? await engine() : undefined;
      if (known && replacing) {
        await flush();
        try {
          // Overwritten only, while another machine holds the session: its documents may be that machine's.
          if (known.header.id !== read.header.id) await release(replacing, remote, [known.header.id]);
          if (!(await heldElsewhere(replacing, remote, [known.header.id])).has(known.header.id)) report.deleted += await deleteSession(replacing, remote, known.header.id);
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
        addRedactions(report.redactedIn, document.places);
        // A long session spans requests; it counts as pushed only with its last one (it is not queued yet).
        if (actionBytes >= BULK_BYTES || actions.length >= BULK_ACTIONS) await flush();
      }
      // This machine holds the session (holders.ts), recorded with its documents.
      actions.push(holdAction(remote, read.header.id));
      let kept: KeptState | undefined;
      let keptNow = false;
      if (remote.keepFiles) {
        // A kept file that only grew gets the lines appended since as a part of its own.
        const extending = grown && known?.kept && known.header.id === read.header.id && known.kept.parts < MAX_KEPT_PARTS ? known.kept : undefined;
        if (extending && read.end === known!.end) kept = extending;
        else {
          const { file: keptFile, counts } = await keptFileOf(file.path, read, remote, extending ? { from: known!.end, extends: extending } : undefined);
          const bytes = (extending?.bytes ?? 0) + keptFile.bytes;
          if (bytes > MAX_KEPT_BYTES) {
            report.failed.push({ path: file.path, reason: `too large to keep in remote ${remote.name} (${Math.ceil(bytes / 2 ** 20)} MB; at most ${MAX_KEPT_BYTES >> 20} MB)` });
          } else {
            // Kept again whole (rewritten, of another session, or of too many parts): the old parts go first.
            const replacingKept = !extending && known?.kept ? await engine() : undefined;
            if (known && replacingKept) {
              await flush();
              try {
                report.deleted += await deleteKept(replacingKept, remote, [known.header.id]);
              } catch (error) {
                throw remoteError(remote, error, "replacing a kept session file", pushTimeout(remote));
              }
            }
            options.onFile?.(keptFile, counts);
            actions.push({ id: partId(keptFile.session_id, keptFile.part), index: filesAlias(remote), document: keptFile });
            actionBytes += keptFile.bytes;
            report.files++;
            report.fileBytes += keptFile.bytes;
            for (const [what, count] of Object.entries(counts)) report.fileRedactions[what] = (report.fileRedactions[what] ?? 0) + count;
            addRedactions(report.redactedIn, { "kept-file": counts });
            kept = { generation: keptFile.generation, parts: keptFile.part + 1, bytes };
            keptNow = true;
            if (actionBytes >= BULK_BYTES || actions.length >= BULK_ACTIONS) await flush();
          }
        }
      }
      if (documents.length > 0 || stale.length > 0 || keptNow) report.sessions++;
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
          ...(kept ? { kept } : {}),
        },
      ]);
    }
  } finally {
    tags.close();
  }
  await flush();
  await removeDeleted(files, watermarks, ofScope, report, async (mark) => {
    const removing = await engine();
    if (!removing) return 0;
    try {
      // This machine lets the session go; it stays in the archive while another machine holds it.
      await release(removing, remote, [mark.header.id]);
      if ((await heldElsewhere(removing, remote, [mark.header.id])).has(mark.header.id)) return 0;
      const keptParts = mark.kept ? await deleteKept(removing, remote, [mark.header.id]) : 0;
      return keptParts + (await deleteSession(removing, remote, mark.header.id));
    } catch (error) {
      throw remoteError(remote, error, "removing a deleted session", pushTimeout(remote));
    }
  });
  if (!dryRun && (report.removed > 0 || (report.replaced.length > 0 && !saved))) save();
  // After the last save, or when missing or stale (a recall before them, a push that stopped):
  // the next push with nothing to send reads only them.
  if (!dryRun && (saved || signatures === undefined)) {
    // The watermarks first, when this push wrote none (a machine with no session yet has none at all).
    if (!saved) save();
    saveSignatures(stateFile, watermarks);
  }
  return report;
}

/**
 * Whether every session file is as the remote acknowledged it (signature, tags, kept as the remote
 * says) and the remote holds no file that is gone: a push would send and remove nothing.
 */
function allAsPushed(locations: Locations, files: readonly SessionFile[], signatures: Signatures, remote: Remote): boolean {
  if (signatures.count !== files.length) return false;
  const tags = openTags(locations);
  try {
    return files.every((file) => {
      const known = signatures.of(file.path);
      return known !== undefined && sameSignature(known, file) && known.kept === remote.keepFiles && sameTags(known.tags, tags.of(known.sessionId));
    });
  } finally {
    tags.close();
  }
}

/** Whether the file is as it was when pushed: the same inode, size and time. */
function sameSignature(known: Pick<Signature, "ino" | "size" | "mtimeMs">, file: SessionFile): boolean {
  return known.ino === file.ino && known.size === file.size && known.mtimeMs === file.mtimeMs;
}

/**
 * Takes out of the archive the sessions pushed from files that are no longer in the sessions
 * folder (a file that could not be read is still there), of the push's folder or project if it
 * has one. A session another file here still holds (a copy) keeps its documents.
 */
async function removeDeleted(
  files: readonly SessionFile[],
  watermarks: Watermarks,
  ofScope: (header: SessionHeader) => boolean,
  report: PushReport,
  deleteSessionDocuments: (mark: FileWatermark) => Promise<number>,
): Promise<void> {
  const present = new Set([...files.map((file) => file.path), ...report.failed.map((failure) => failure.path)]);
  const gone = [...watermarks].filter(([path, mark]) => !present.has(path) && ofScope(mark.header));
  const heldHere = new Set([...watermarks].filter(([path]) => present.has(path)).map(([, mark]) => mark.header.id));
  for (const [path, mark] of gone) {
    if (!heldHere.has(mark.header.id)) report.deleted += await deleteSessionDocuments(mark);
    report.removed++;
    if (!report.dryRun) watermarks.delete(path);
  }
}

/**
 * The complete lines of a session file as one read found them, redacted as the remote says, to be
 * kept: from its start (part 0), or, extending a kept file, from `from` on (its next part); and
 * the secrets removed, by what they were.
 */
async function keptFileOf(path: string, read: SessionRead, remote: Remote, extending?: { from: number; extends: KeptState }): Promise<{ file: KeptFile; counts: Record<string, number> }> {
  const from = extending?.from ?? 0;
  const bytes = Buffer.alloc(read.end - from);
  const fd = openSync(path, "r");
  try {
    for (let at = 0; at < bytes.length; ) {
      const got = readSync(fd, bytes, at, bytes.length - at, from + at);
      if (got === 0) break;
      at += got;
    }
  } finally {
    closeSync(fd);
  }
  const text = bytes.toString("utf8");
  const cleaned = remote.redact ? await redactSessionFile(text) : { text, total: 0, counts: {} as Record<string, number> };
  const file: KeptFile = {
    session_id: read.header.id,
    file_name: basename(path),
    folder: read.header.cwd,
    project: projectOf(read.header.cwd),
    machine: remote.machine,
    user: remote.user,
    session_created: read.header.created,
    part: extending ? extending.extends.parts : 0,
    from,
    end: read.end,
    generation: extending?.extends.generation ?? generationOf(read.header.id, cleaned.text),
    content: cleaned.text,
    bytes: Buffer.byteLength(cleaned.text),
    redactions: cleaned.total,
  };
  if (remote.redact) for (const [what, count] of Object.entries(await redactKeptFields(file))) cleaned.counts[what] = (cleaned.counts[what] ?? 0) + count;
  return { file, counts: cleaned.counts };
}

function addRedactions(into: Redactions, found: Redactions): void {
  for (const [place, kinds] of Object.entries(found)) {
    for (const [kind, count] of Object.entries(kinds)) (into[place] ??= {})[kind] = (into[place]![kind] ?? 0) + count;
  }
}
