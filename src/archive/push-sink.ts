/**
 * The push as a consumer of the sync's changes (sync/consumer.ts), with the watermarks as its
 * marks: each change of a session file since its last acknowledged push becomes bulk actions on
 * the remote. A large file comes in parts (bounded memory), each part's documents sent as they
 * are made; the file's watermark is queued with its last change and saved once every one of its
 * actions is acknowledged. A file whose work here fails (too large to keep, unreadable) is
 * reported and skipped, and the push goes on; a remote that fails stops the push.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { basename } from "node:path";
import type { Client } from "@opensearch-project/opensearch";
import type { SessionFile } from "../sessions/discover.js";
import type { SessionHeader } from "../sessions/entries.js";
import type { SessionRead } from "../sessions/session-index-reader.js";
import { projectOf } from "../sessions/project-identity.js";
import type { SessionChange } from "../sync/changes.js";
import type { MarkedSink } from "../sync/consumer.js";
import type { KnownFile } from "../sync/state.js";
import { tailHash } from "../sync/state.js";
import { deleteSession, pushTimeout, sendBulk, type Action } from "./bulk.js";
import { remoteError } from "./client.js";
import { sessionDocuments, type Redactions } from "./documents.js";
import type { Forgotten } from "./forgotten.js";
import { heldElsewhere, holdAction, release } from "./holders.js";
import {
  deleteKept,
  filesAlias,
  generationOf,
  MAX_KEPT_BYTES,
  MAX_KEPT_PARTS,
  partId,
  type KeptFile,
  type KeptState,
} from "./kept-files.js";
import { redactKeptFields, redactSessionFile } from "./redact-file.js";
import type { PushOptions, PushReport } from "./push.js";
import type { Remote } from "./remotes.js";
import type { FileWatermark, Watermarks } from "./watermarks.js";

/** A bulk request is sent once it holds this many bytes of documents, or this many actions. */
const BULK_BYTES = 4 << 20;
const BULK_ACTIONS = 2_000;

/** A failure of the remote: it stops the push (a file's own failure only skips the file). */
class RemoteFailure extends Error {
  constructor(readonly error: unknown) {
    super("the remote failed");
  }
}

export interface PushSinkSettings {
  remote: Remote;
  options: PushOptions;
  report: PushReport;
  watermarks: Watermarks;
  forgotten: Forgotten;
  /** The session's tags on this machine. */
  tagsOf: (sessionId: string) => string[];
  /** Whether a session with this header is in the push's folder or project. */
  ofScope: (header: SessionHeader) => boolean;
  /** The remote's client, its indexes prepared; undefined in a dry run. */
  engine: () => Promise<Client | undefined>;
  /** Writes the watermarks (not in a dry run). */
  save: () => void;
}

/** What a push has of the file it is reading now. */
interface Reading {
  path: string;
  /** Out of scope or forgotten: nothing of it is sent, and it gets no watermark. */
  skipped: boolean;
  /** Its secrets in the session's own fields were counted with an earlier part. */
  sessionCounted: boolean;
  /**
   * The watermark's tail ids of the last push (an append), not yet overwritten by a document of
   * this read.
   */
  stale: Set<string>;
  /** Each document sent of this read, by position, for the next watermark's tail ids. */
  sent: [number, string][];
  documents: number;
}

export class PushSink implements MarkedSink {
  private actions: Action[] = [];
  private actionBytes = 0;
  /** Files whose every action is queued: pushed once those are acknowledged. */
  private queued: [string, FileWatermark][] = [];
  private reading: Reading | undefined;
  /** Paths gone from the sessions folder, this push. */
  private readonly gone = new Set<string>();
  /** The file whose work here failed, while its changes still come. */
  private failedPath: string | undefined;
  /** Set when the remote failed: the push stops, and throws it. */
  readonly stop = new AbortController();
  failure: unknown;

  constructor(private readonly settings: PushSinkSettings) {}

  async allMarks(): Promise<KnownFile[]> {
    return [...this.settings.watermarks].map(([path, mark]) => knownOf(path, mark));
  }

  async marks(paths: readonly string[]): Promise<Map<string, KnownFile>> {
    const found = new Map<string, KnownFile>();
    for (const path of paths) {
      const mark = this.settings.watermarks.get(path);
      if (mark) found.set(path, knownOf(path, mark));
    }
    return found;
  }

  async forksOf(parentNames: readonly string[]): Promise<KnownFile[]> {
    const names = new Set(parentNames);
    return [...this.settings.watermarks]
      .filter(
        ([, mark]) => mark.header.parent !== undefined && names.has(basename(mark.header.parent)),
      )
      .map(([path, mark]) => knownOf(path, mark));
  }

  async filesOfSession(id: string): Promise<KnownFile[]> {
    return [...this.settings.watermarks]
      .filter(([, mark]) => mark.header.id.startsWith(id))
      .map(([path, mark]) => knownOf(path, mark));
  }

  async emit(change: SessionChange): Promise<void> {
    const path = change.kind === "removed" ? change.path : change.file.path;
    // The rest of a file that failed here (its later parts, its last change) is passed over.
    if (
      change.kind !== "removed" &&
      path === this.failedPath &&
      !(change.kind === "part" && change.first)
    )
      return;
    this.failedPath = undefined;
    try {
      if (change.kind === "removed") await this.removed(change.path);
      else if (change.kind === "part")
        await this.part(change.file, change.read, change.first, change.from !== undefined);
      else await this.last(change);
    } catch (error) {
      if (error instanceof RemoteFailure) {
        this.failure ??= error.error;
        this.stop.abort();
        throw error.error;
      }
      // The file's own failure (too large for a string, say): reported, and the push goes on with
      // the next file.
      this.settings.report.failed.push({
        path,
        reason: error instanceof Error ? error.message : String(error),
      });
      this.failedPath = path;
      this.reading = undefined;
    }
  }

  /** Sends what is still queued, at the end of the push. */
  async finish(): Promise<void> {
    try {
      await this.flush();
    } catch (error) {
      throw error instanceof RemoteFailure ? error.error : error;
    }
  }

  /** Sends what is still queued; the files queued count as pushed once it is acknowledged. */
  private async flush(): Promise<void> {
    const sending =
      this.actions.length > 0 || this.queued.length > 0
        ? await this.remote(() => this.settings.engine())
        : undefined;
    if (sending && this.actions.length > 0) {
      const actions = this.actions;
      await this.remote(() => sendBulk(sending, this.settings.remote, actions));
    }
    if (sending && this.queued.length > 0) {
      for (const [path, mark] of this.queued) this.settings.watermarks.set(path, mark);
      this.settings.save();
    }
    this.actions = [];
    this.actionBytes = 0;
    this.queued = [];
  }

  /** Runs a request to the remote: its failure is the remote's, which stops the push. */
  private async remote<T>(request: () => Promise<T>, doing?: string): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (error instanceof RemoteFailure) throw error;
      const { remote } = this.settings;
      throw new RemoteFailure(
        doing ? remoteError(remote, error, doing, pushTimeout(remote)) : error,
      );
    }
  }

  private async queue(action: Action, bytes: number): Promise<void> {
    this.actions.push(action);
    this.actionBytes += bytes;
    if (this.actionBytes >= BULK_BYTES || this.actions.length >= BULK_ACTIONS) await this.flush();
  }

  /** A file's first change of this read: whether it is sent at all, and what it replaces. */
  private async begin(
    file: SessionFile,
    read: SessionRead,
    appended: boolean,
    complete: boolean,
  ): Promise<Reading> {
    const { watermarks, forgotten, options, report, ofScope } = this.settings;
    const known = watermarks.get(file.path);
    const reading: Reading = {
      path: file.path,
      skipped: false,
      sessionCounted: false,
      stale: new Set(),
      sent: [],
      documents: 0,
    };
    const header = read.header;
    if (forgotten.sessions.has(header.id) || forgotten.projects.has(projectOf(header.cwd))) {
      report.forgotten++;
      return { ...reading, skipped: true };
    }
    // `--since` by the last message, which a read in parts knows only at its end: the file's time
    // stands in for it.
    const active =
      options.since === undefined ||
      read.modified >= options.since ||
      (!complete && file.mtimeMs >= options.since);
    if (!ofScope(header) || !active) return { ...reading, skipped: true };
    const grown = appended ? known : known && appendedTo(file, known);
    if (grown) reading.stale = new Set(grown.tailIds);
    else if (known) await this.replacing(known, header);
    return reading;
  }

  /**
   * A file read whole again that was not an append of its last push (rewritten): its session's
   * documents go first, unless another machine holds it (they are then only overwritten).
   */
  private async replacing(known: FileWatermark, header: SessionHeader): Promise<void> {
    const client = await this.remote(() => this.settings.engine());
    if (!client) return;
    await this.flush();
    const { remote, report } = this.settings;
    await this.remote(async () => {
      if (known.header.id !== header.id) await release(client, remote, [known.header.id]);
      if (!(await heldElsewhere(client, remote, [known.header.id])).has(known.header.id))
        report.deleted += await deleteSession(client, remote, known.header.id);
    }, "replacing a rewritten session");
  }

  private async part(
    file: SessionFile,
    read: SessionRead,
    first: boolean,
    appended: boolean,
  ): Promise<void> {
    if (first || this.reading?.path !== file.path)
      this.reading = await this.begin(file, read, appended, false);
    await this.send(this.reading, read);
  }

  /** Queues the documents of `read`'s messages. */
  private async send(reading: Reading, read: SessionRead): Promise<void> {
    if (reading.skipped) return;
    const { remote, options, report, tagsOf } = this.settings;
    const documents = await sessionDocuments(
      read,
      remote,
      tagsOf(read.header.id),
      reading.sessionCounted,
    );
    reading.sessionCounted = true;
    for (const document of documents) {
      options.onDocument?.(document);
      reading.stale.delete(document.id);
      reading.sent.push([document.document.position, document.id]);
      reading.documents++;
      const bytes = Buffer.byteLength(JSON.stringify(document.document));
      report.bytes += bytes;
      report.documents++;
      addCounts(report.redactions, document.redacted);
      addRedactions(report.redactedIn, document.places);
      await this.queue({ id: document.id, document: document.document }, bytes);
    }
  }

  /** The file's last change: the rest of its messages, its kept file, its watermark. */
  private async last(
    change: Extract<SessionChange, { kind: "written" | "appended" }>,
  ): Promise<void> {
    const { file, read } = change;
    const reading =
      change.continued && this.reading?.path === file.path
        ? this.reading
        : await this.begin(file, read, change.kind === "appended", true);
    this.reading = undefined;
    if (reading.skipped) return;
    await this.send(reading, read);
    const { remote, report, watermarks, tagsOf } = this.settings;
    const known = watermarks.get(file.path);
    const grown = change.kind === "appended" ? known : known && appendedTo(file, known);
    // What the archive holds of the file's last message and this read did not overwrite.
    for (const id of reading.stale) await this.queue({ id, delete: true }, 0);
    report.deleted += reading.stale.size;
    // This machine holds the session (holders.ts), recorded with its documents.
    await this.queue(holdAction(remote, read.header.id), 0);
    let kept: KeptState | undefined;
    let keptNow = false;
    if (remote.keepFiles) {
      // A kept file that only grew gets the lines appended since as a part of its own.
      const extending =
        grown &&
        known?.kept &&
        known.header.id === read.header.id &&
        known.kept.parts < MAX_KEPT_PARTS
          ? known.kept
          : undefined;
      if (extending && read.end === known!.end) kept = extending;
      else {
        kept = await this.keep(
          file,
          read,
          known,
          extending ? { from: known!.end, extends: extending } : undefined,
        );
        keptNow = kept !== undefined;
      }
    }
    if (reading.documents > 0 || reading.stale.size > 0 || keptNow) report.sessions++;
    const tail = reading.sent
      .filter(([position]) => position >= read.checkpoint.nextIndex)
      .map(([, id]) => id);
    this.queued.push([
      file.path,
      {
        ino: file.ino,
        size: file.size,
        mtimeMs: file.mtimeMs,
        end: read.end,
        tailHash: change.mark.tailHash,
        header: read.header,
        checkpoint: read.checkpoint,
        tailIds: tail,
        tags: tagsOf(read.header.id),
        ...(kept ? { kept } : {}),
      },
    ]);
  }

  /**
   * Queues the file (or the lines appended to it) to be kept; undefined when it is too large to
   * keep.
   */
  private async keep(
    file: SessionFile,
    read: SessionRead,
    known: FileWatermark | undefined,
    extending: { from: number; extends: KeptState } | undefined,
  ): Promise<KeptState | undefined> {
    const { remote, report, options } = this.settings;
    const tooLarge = (bytes: number) => {
      report.failed.push({
        path: file.path,
        reason: `too large to keep in remote ${remote.name} (${Math.ceil(bytes / 2 ** 20)} MB; at most ${MAX_KEPT_BYTES >> 20} MB)`,
      });
      return undefined;
    };
    // Known too large before it is read (redaction hardly changes a file's size).
    const before = (extending?.extends.bytes ?? 0) + read.end - (extending?.from ?? 0);
    if (before > MAX_KEPT_BYTES) return tooLarge(before);
    const { file: keptFile, counts } = await keptFileOf(file.path, read, remote, extending);
    const bytes = (extending?.extends.bytes ?? 0) + keptFile.bytes;
    if (bytes > MAX_KEPT_BYTES) return tooLarge(bytes);
    // Kept again whole (rewritten, of another session, or of too many parts): the old parts go
    // first.
    if (!extending && known?.kept) {
      const client = await this.remote(() => this.settings.engine());
      if (client) {
        await this.flush();
        report.deleted += await this.remote(
          () => deleteKept(client, remote, [known.header.id]),
          "replacing a kept session file",
        );
      }
    }
    options.onFile?.(keptFile, counts);
    report.files++;
    report.fileBytes += keptFile.bytes;
    addCounts(report.fileRedactions, counts);
    addRedactions(report.redactedIn, { "kept-file": counts });
    await this.queue(
      {
        id: partId(keptFile.session_id, keptFile.part),
        index: filesAlias(remote),
        document: keptFile,
      },
      keptFile.bytes,
    );
    return { generation: keptFile.generation, parts: keptFile.part + 1, bytes };
  }

  /**
   * A session file gone from the sessions folder: its session leaves the archive, unless another
   * file here holds it (a copy) or another machine does (holders.ts); within the push's scope only.
   */
  private async removed(path: string): Promise<void> {
    const { watermarks, report, remote, ofScope } = this.settings;
    const mark = watermarks.get(path);
    if (!mark || !ofScope(mark.header)) return;
    this.gone.add(path);
    const heldHere = [...watermarks].some(
      ([other, m]) => other !== path && !this.gone.has(other) && m.header.id === mark.header.id,
    );
    if (!heldHere) {
      const client = await this.remote(() => this.settings.engine());
      if (client) {
        await this.remote(async () => {
          // This machine lets the session go; it stays in the archive while another machine holds
          // it.
          await release(client, remote, [mark.header.id]);
          if ((await heldElsewhere(client, remote, [mark.header.id])).has(mark.header.id)) return;
          const keptParts = mark.kept ? await deleteKept(client, remote, [mark.header.id]) : 0;
          report.deleted += keptParts + (await deleteSession(client, remote, mark.header.id));
        }, "removing a deleted session");
      }
    }
    report.removed++;
    // Saved with the next acknowledged batch, or at the end of the push.
    if (!report.dryRun) watermarks.delete(path);
  }
}

/** A watermark as the sync's mark of its file. */
function knownOf(path: string, mark: FileWatermark): KnownFile {
  return {
    path,
    size: mark.size,
    mtimeMs: mark.mtimeMs,
    ino: mark.ino,
    state: {
      end: mark.end,
      tailHash: mark.tailHash,
      header: mark.header,
      checkpoint: mark.checkpoint,
      indexed: true,
    },
  };
}

/**
 * The watermark of a file that only grew since its last push (or did not change), else undefined.
 */
export function appendedTo(
  file: SessionFile,
  known: FileWatermark | undefined,
): FileWatermark | undefined {
  if (!known || known.ino !== file.ino || file.size < known.end || known.header.version < 3)
    return undefined;
  try {
    return tailHash(file.path, known.end) === known.tailHash ? known : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The complete lines of a session file as one read found them, redacted as the remote says, to be
 * kept: from its start (part 0), or, extending a kept file, from `from` on (its next part); and
 * the secrets removed, by what they were.
 */
async function keptFileOf(
  path: string,
  read: SessionRead,
  remote: Remote,
  extending?: { from: number; extends: KeptState },
): Promise<{ file: KeptFile; counts: Record<string, number> }> {
  const from = extending?.from ?? 0;
  const bytes = Buffer.alloc(read.end - from);
  const fd = openSync(path, "r");
  try {
    for (let at = 0; at < bytes.length;) {
      const got = readSync(fd, bytes, at, bytes.length - at, from + at);
      if (got === 0) break;
      at += got;
    }
  } finally {
    closeSync(fd);
  }
  const text = bytes.toString("utf8");
  const cleaned = remote.redact
    ? await redactSessionFile(text)
    : { text, total: 0, counts: {} as Record<string, number> };
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
  if (remote.redact) addCounts(cleaned.counts, await redactKeptFields(file));
  return { file, counts: cleaned.counts };
}

function addCounts(into: Record<string, number>, found: Record<string, number>): void {
  for (const [what, count] of Object.entries(found)) into[what] = (into[what] ?? 0) + count;
}

function addRedactions(into: Redactions, found: Redactions): void {
  for (const [place, kinds] of Object.entries(found)) addCounts((into[place] ??= {}), kinds);
}
