/**
 * `push`: sends an archive what it lacks of the session files, as a consumer of the sync's changes
 * (sync/consumer.ts) whose marks are the watermarks (push-sink.ts): a file unchanged since its last
 * acknowledged push costs one stat; one that only grew is read from the start of its last message
 * (as the local sync reads it), and the documents of that message it replaces are deleted; one
 * rewritten is replaced whole; a large one is read and sent in parts, in bounded memory. A file
 * that cannot be read or kept is reported and skipped; the others still go. Documents go in bulk
 * requests of bounded size; the items the archive refuses for a passing reason (429, 5xx) are sent
 * again with backoff, alone; a file counts as pushed only once every one of its documents is
 * acknowledged. A remote with `keepFiles` also gets each pushed session file, redacted
 * (redact-file.ts), in its index of kept files (kept-files.ts): sent whole again whenever the file
 * changed, in the same bulk request as the file's last documents, and taken out with its session
 * (all of them once `keepFiles` is off again). Each push first asks which indexes stand behind the
 * remote's aliases (index-identity.ts): one deleted or replaced since gets everything again.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Client } from "@opensearch-project/opensearch";
import { RecallError } from "../errors.js";
import type { Locations } from "../locations.js";
import { discoverSessionFiles, type SessionFile } from "../sessions/discover.js";
import type { SessionHeader } from "../sessions/entries.js";
import { projectOf } from "../sessions/project-identity.js";
import type { StreamCounts } from "../sync/change-stream.js";
import { syncConsumer } from "../sync/consumer.js";
import { TAGS_DB_FILE, TagStore } from "../tags/tag-store.js";
import { deleteKept, ensureFilesIndex, type KeptFile } from "./kept-files.js";
import { pushTimeout } from "./bulk.js";
import { remoteError, withRemote, type RemoteConnection } from "./client.js";
import type { IdentifiedDocument, Redactions } from "./documents.js";
import { forgottenFile, loadForgotten } from "./forgotten.js";
import { ensureHoldersIndex, heldElsewhere } from "./holders.js";
import { indexIdentity, replacedSince, type IndexIdentity } from "./index-identity.js";
import { PushSink } from "./push-sink.js";
import type { Remote } from "./remotes.js";
import { ensureIndex } from "./template.js";
import {
  loadSignatures,
  loadWatermarks,
  saveSignatures,
  saveWatermarks,
  watermarkFile,
  type Signature,
  type Signatures,
  type Watermarks,
} from "./watermarks.js";

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
  /**
   * Each part of a session file that is (or, dry, would be) kept in the archive (`keepFiles`), and
   * the secrets removed from it by kind.
   */
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
  /**
   * Parts of session files kept in the archive (`keepFiles`: a file whole, or the lines appended to
   * it), and their bytes as sent.
   */
  files: number;
  fileBytes: number;
  /**
   * Documents removed from the archive: a message that grew, a rewritten or deleted session's old
   * ones.
   */
  deleted: number;
  /** Sessions whose file is gone from the sessions folder, taken out of the archive. */
  removed: number;
  /** Sessions not sent because the remote was told to forget them or their project. */
  forgotten: number;
  /**
   * The aliases whose index was deleted or replaced since this machine's last push
   * (index-identity.ts): everything was sent again.
   */
  replaced: string[];
  /** Secrets removed from the documents, by what they were. */
  redactions: Record<string, number>;
  /**
   * Secrets removed from the kept session files (`keepFiles`), by what they were: their tool output
   * and thinking included, which documents may not carry.
   */
  fileRedactions: Record<string, number>;
  /**
   * All the secrets removed, by where they were (documents.ts's places, `kept-file`) and what they
   * were.
   */
  redactedIn: Redactions;
  failed: { path: string; reason: string }[];
  dryRun: boolean;
}

/** The tags of each session as the user's tag database holds them (none without a database). */
function openTags(locations: Locations): {
  of: (sessionId: string) => string[];
  close: () => void;
} {
  const path = join(locations.dataDir, TAGS_DB_FILE);
  if (!existsSync(path)) return { of: () => [], close: () => undefined };
  const store = TagStore.open(path);
  return { of: (sessionId) => store.merged(sessionId), close: () => store.close() };
}

const sameTags = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((tag, i) => tag === b[i]);

export function push(
  locations: Locations,
  remote: Remote,
  env: NodeJS.ProcessEnv,
  options: PushOptions = {},
): Promise<PushReport> {
  return withRemote(remote, env, pushTimeout(remote), (connection) =>
    pushOver(locations, remote, connection, options),
  );
}

/** The push, over a connection whose client is made only once there is something to send. */
async function pushOver(
  locations: Locations,
  remote: Remote,
  connection: RemoteConnection,
  options: PushOptions,
): Promise<PushReport> {
  if (options.cwd !== undefined && options.repo !== undefined)
    throw new RecallError(
      "BAD_INPUT",
      "a folder (cwd) and a project (repo) cannot both scope one push",
      { field: "repo" },
    );
  const dryRun = options.dryRun === true;
  const report: PushReport = {
    remote: remote.name,
    sessions: 0,
    unchanged: 0,
    documents: 0,
    bytes: 0,
    files: 0,
    fileBytes: 0,
    deleted: 0,
    removed: 0,
    forgotten: 0,
    replaced: [],
    redactions: {},
    fileRedactions: {},
    redactedIn: {},
    failed: [],
    dryRun,
  };
  const { files, failures } = await discoverSessionFiles(locations);
  const stateFile = watermarkFile(locations, remote);
  // The indexes as they are now, in one small request (a dry run asks nothing): an index deleted or
  // replaced since the last push holds none of what the watermarks say it acknowledged.
  let identityNow: IndexIdentity | undefined;
  if (!dryRun) identityNow = await indexIdentity(connection, remote);
  const replacedIn = (saved: IndexIdentity | undefined) =>
    identityNow ? replacedSince(remote, saved, identityNow) : [];
  // Nothing to send, by the signatures alone: the watermarks (five times their bytes) are not read.
  const signatures = loadSignatures(stateFile);
  if (
    signatures &&
    allAsPushed(locations, files, signatures, remote) &&
    replacedIn(signatures.identity).length === 0
  ) {
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
  // The indexes are prepared only once the push has something for them. Undefined in a dry run.
  let client: Client | undefined;
  const engine = async (): Promise<Client | undefined> => {
    if (dryRun || client) return client;
    const made = connection.client();
    try {
      await ensureIndex(made, remote.index);
      await ensureHoldersIndex(made, remote);
      if (remote.keepFiles) await ensureFilesIndex(made, remote);
      // The indexes just made (or found) are the ones the watermarks saved from now on name.
      watermarks.identity = await indexIdentity(connection, remote, "preparing the index");
    } catch (error) {
      throw remoteError(remote, error, "preparing the index", pushTimeout(remote));
    }
    client = made;
    return client;
  };

  // A remote no longer told to keep files drops the ones it kept (counted with the deleted
  // documents). Of a session another machine holds too, the kept file may be that machine's: it
  // stays.
  const unkept = remote.keepFiles ? [] : [...watermarks.values()].filter((mark) => mark.kept);
  const dropping = unkept.length > 0 ? await engine() : undefined;
  if (dropping) {
    try {
      const elsewhere = await heldElsewhere(
        dropping,
        remote,
        unkept.map((mark) => mark.header.id),
      );
      report.deleted += await deleteKept(
        dropping,
        remote,
        unkept.map((mark) => mark.header.id).filter((id) => !elsewhere.has(id)),
      );
    } catch (error) {
      throw remoteError(remote, error, "dropping the kept session files", pushTimeout(remote));
    }
    for (const mark of unkept) delete mark.kept;
    save();
  }

  const folder = options.cwd === undefined ? undefined : resolve(options.cwd);
  const project = options.repo === undefined ? undefined : projectOf(resolve(options.repo));
  const ofScope = (header: SessionHeader) =>
    (folder === undefined || header.cwd === folder) &&
    (project === undefined || projectOf(header.cwd) === project);
  const tags = openTags(locations);
  const sink = new PushSink({
    remote,
    options,
    report,
    watermarks,
    forgotten,
    tagsOf: tags.of,
    ofScope,
    engine,
    save,
  });
  let counts: StreamCounts;
  try {
    counts = await syncConsumer(locations, sink, {
      listed: { files, failures },
      reading: { whole: true },
      signal: sink.stop.signal,
      // Read whole again: a session tagged since its last push (its documents carry the new tags),
      // and one not kept yet by a remote that keeps files.
      again: (file) => {
        const known = watermarks.get(file.path);
        return (
          known !== undefined &&
          (!sameTags(known.tags ?? [], tags.of(known.header.id)) ||
            (remote.keepFiles && known.kept === undefined))
        );
      },
    });
  } catch (error) {
    throw sink.failure ?? error;
  } finally {
    tags.close();
  }
  if (sink.failure) throw sink.failure;
  await sink.finish();
  // Failures of the listing and of reading files come with the stream's counts; the sink's own are
  // in the report already.
  report.failed.unshift(...counts.failed);
  report.unchanged = Math.max(0, files.length - counts.planned);
  if (!dryRun && (report.removed > 0 || (report.replaced.length > 0 && !saved))) save();
  // After the last save, or when missing or stale (a recall before them, a push that stopped):
  // the next push with nothing to send reads only them.
  if (!dryRun && (saved || signatures === undefined)) {
    // The watermarks first, when this push wrote none (a machine with no session yet has none at
    // all).
    if (!saved) save();
    saveSignatures(stateFile, watermarks);
  }
  return report;
}

/**
 * Whether every session file is as the remote acknowledged it (signature, tags, kept as the remote
 * says) and the remote holds no file that is gone: a push would send and remove nothing.
 */
function allAsPushed(
  locations: Locations,
  files: readonly SessionFile[],
  signatures: Signatures,
  remote: Remote,
): boolean {
  if (signatures.count !== files.length) return false;
  const tags = openTags(locations);
  try {
    return files.every((file) => {
      const known = signatures.of(file.path);
      return (
        known !== undefined &&
        sameSignature(known, file) &&
        known.kept === remote.keepFiles &&
        sameTags(known.tags, tags.of(known.sessionId))
      );
    });
  } finally {
    tags.close();
  }
}

/** Whether the file is as it was when pushed: the same inode, size and time. */
function sameSignature(
  known: Pick<Signature, "ino" | "size" | "mtimeMs">,
  file: SessionFile,
): boolean {
  return known.ino === file.ino && known.size === file.size && known.mtimeMs === file.mtimeMs;
}
