/**
 * The index as a consumer of the sync's changes (changes.ts): its marks are the records of the
 * session files it keeps (state.ts), and a change goes in with its file's new record, so the two
 * are always committed together. Changes are sent to the writer in batches of bounded text (a
 * large file's messages come in parts, sent in order, each awaited); a
 * first index commits every FIRST_INDEX_COMMIT_MS, so that a query meanwhile answers from what is
 * there rather than from nothing. The caller holds the writer lock.
 */
import type { NativeChangeSet, NativeSessionUpdate } from "../native/addon.js";
import type { SessionFile } from "../sessions/discover.js";
import type { SessionRead } from "../sessions/session-index-reader.js";
import type { IndexStore } from "../store.js";
import type { ChangeSink, SessionChange } from "./changes.js";
import { commitIndex } from "./index-writer.js";
import { knownFile, knownFiles, recordUpdate, type IndexState, type KnownFile } from "./state.js";

/** Text sent to the writer per batch: bounds memory on a first index of a large history. */
const BATCH_TEXT_CHARS = 2 << 20;

/**
 * How often a first index (of an empty index) commits what it has: a query meanwhile answers
 * from that, rather than from nothing (see untilFirstCommit). A rebuild commits once, so that
 * queries keep the old answers until the new index is whole.
 */
export const FIRST_INDEX_COMMIT_MS = 3_000;

export interface IndexSinkOptions {
  /** The index state to commit with each commit. */
  state: IndexState;
  /** The index was just emptied: nothing is marked, and a commit is due even with nothing read. */
  rebuild: boolean;
  /**
   * Nothing committed yet (or a replaced index): commit what is read every FIRST_INDEX_COMMIT_MS.
   */
  first: boolean;
  /** Tags of a session id, for its session document. */
  tagsOf: (sessionId: string) => string[];
}

export class IndexSink implements ChangeSink {
  private batch = emptyBatch();
  private batchChars = 0;
  private applied: boolean;
  private committedAt = Date.now();

  constructor(
    private readonly store: IndexStore,
    private readonly options: IndexSinkOptions,
  ) {
    this.applied = options.rebuild;
  }

  marks(paths: readonly string[]): Promise<Map<string, KnownFile>> {
    return knownFiles(this.store, [...paths]);
  }

  async forksOf(parentNames: readonly string[]): Promise<KnownFile[]> {
    const records = await this.store.native.fileRecords({ parentNames: [...parentNames] });
    return records.map(knownFile).filter((fork): fork is KnownFile => fork !== undefined);
  }

  async filesOfSession(id: string): Promise<KnownFile[]> {
    const records = await this.store.native.fileRecords({ sessionIdPrefix: id });
    return records.map(knownFile).filter((file): file is KnownFile => file !== undefined);
  }

  async emit(change: SessionChange): Promise<void> {
    // What came before is sent, and on a first index committed, when due: before this change is
    // added, so that files which took long to read are not held back by this one.
    await this.sendIfDue();
    if (change.kind === "removed") {
      this.batch.removePaths.push(change.path);
      return;
    }
    if (change.kind === "part") {
      this.addSession(
        change.file,
        change.read,
        change.first ? { replaceFrom: change.from } : { continued: true },
      );
      return;
    }
    const { file, read, mark } = change;
    if (mark.indexed) {
      this.addSession(
        file,
        read,
        change.continued
          ? { continued: true }
          : { replaceFrom: change.kind === "appended" ? change.from : undefined },
      );
    } else if (change.before?.state.indexed) {
      this.batch.removePaths.push(file.path);
    }
    this.batch.files.push(recordUpdate(file, mark));
  }

  /** The session's document and `read.messages`, replacing what `replacing` says. */
  private addSession(
    file: SessionFile,
    read: SessionRead,
    replacing: Pick<NativeSessionUpdate, "replaceFrom" | "continued">,
  ): void {
    this.batch.sessions.push({
      session: {
        id: read.header.id,
        path: file.path,
        cwd: read.header.cwd,
        name: read.name,
        created: read.header.created,
        modified: read.modified,
        messageCount: read.messageCount,
        firstMessage: read.firstMessage,
        opening: read.opening,
        parent: read.header.parent,
        tags: this.options.tagsOf(read.header.id),
      },
      messages: read.messages,
      ...replacing,
    });
    this.batchChars += read.messages.reduce((sum, m) => sum + m.text.length, 0);
  }

  /**
   * Sends what is left and commits; nothing to commit when every change was already synced by
   * another process, or unreadable.
   */
  async finish(): Promise<void> {
    await this.flush();
    if (this.applied) await commitIndex(this.store, this.options.state);
  }

  private async sendIfDue(): Promise<void> {
    const firstDue = this.options.first && Date.now() - this.committedAt >= FIRST_INDEX_COMMIT_MS;
    if (this.batchChars >= BATCH_TEXT_CHARS || firstDue) await this.flush();
    if (firstDue && this.applied) {
      // Every file committed here has its record: a sync after a crash goes on from there.
      await commitIndex(this.store, this.options.state);
      this.committedAt = Date.now();
    }
  }

  private async flush(): Promise<void> {
    const { removePaths, sessions, files } = this.batch;
    if (removePaths.length === 0 && sessions.length === 0 && files.length === 0) return;
    const changes = this.batch;
    this.batch = emptyBatch();
    this.batchChars = 0;
    this.applied = true;
    await this.store.native.apply(changes);
  }
}

function emptyBatch(): Required<NativeChangeSet> {
  return { removePaths: [], sessions: [], files: [], tagUpdates: [] };
}
