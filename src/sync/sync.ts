/**
 * Brings the index up to date with the session files. Unchanged files cost one stat (the native
 * scan compares them with their records in the index); a file that only grew (Pi appends) is read
 * from the start of its last message; a new or rewritten file is read whole; a deleted one is
 * removed. Writing happens under the index's writer lock, with the records re-read once the lock
 * is held, so two processes syncing at once never lose or duplicate anything. A broken file is
 * reported and skipped; what was indexed of it stays, and it is tried again by the next sync.
 */
import { existsSync } from "node:fs";
import { basename } from "node:path";
import { RecallError } from "../errors.js";
import type { NativeChangeSet, NativeScan } from "../native/addon.js";
import { discoverSessionFiles, scanSessionFiles, type EarlyLook, type SessionFile } from "../sessions/discover.js";
import type { MalformedLine } from "../sessions/lines.js";
import { readCopyKeys, readSessionForIndex, type SessionRead } from "../sessions/session-index-reader.js";
import type { IndexStore } from "../store.js";
import { damagedTagStore, hasTagData, takeTagNotices, tagsFor } from "../tags/open-tags.js";
import { syncTags } from "./apply-tags.js";
import { cannotWrite, cannotWriteIn, commitIndex, diskFull, lockIndex, refusal, unlockIndex } from "./index-writer.js";
import { indexState, knownFile, knownFiles, recordUpdate, sameSignature, tailHash, type KnownFile } from "./state.js";
import { loadTagFingerprint, saveTagFingerprint, tagDataSignature } from "./tag-fingerprint.js";
import { watcherKeepsFresh } from "./watch-lock.js";

export interface SyncFailure {
  path: string;
  reason: string;
}

export interface MalformedFile {
  path: string;
  /** How many lines of the file were skipped in this sync (more than `lines` may hold). */
  count: number;
  lines: MalformedLine[];
}

export interface SyncProgress {
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
}

export interface SyncOptions {
  /** Start from an empty index. */
  rebuild?: boolean;
  /** How long to wait for another process's write to finish (default 5 s). */
  lockTimeoutMs?: number;
  /** Tags of a session id, for its session document (default: its merged tags in the tag store). */
  tagsOf?: (sessionId: string) => string[];
  onProgress?: (progress: SyncProgress) => void;
  /** Stops reading files: what was read so far is committed, the rest is left for the next sync. */
  signal?: AbortSignal;
}

export interface SyncReport {
  discovered: number;
  /** Files read whole. */
  indexed: number;
  /** Files of which only the appended part was read. */
  appended: number;
  removed: number;
  unchanged: number;
  failed: SyncFailure[];
  /** Lines that were not JSON, skipped. */
  malformedLines: number;
  /** Where they are: the files, each with its first skipped lines (see MAX_MALFORMED_DETAILS). */
  malformed: MalformedFile[];
  /** True when the whole index was rebuilt. */
  rebuilt: boolean;
  /** True when the caller's signal stopped the sync before every file was read. */
  stopped: boolean;
  /** True when the index changed (sessions read, removed or rebuilt): an earlier answer may be out of date. */
  changed: boolean;
  /** True when another process held the writer lock too long: the index was left as it was. */
  busy: boolean;
  /** One-line notices for the user (tags imported from pi-recall, for example). */
  notices: string[];
  /** True when the cache could not be written to: nothing was synced (see syncIndexIfWritable). */
  unwritable?: boolean;
}

/** Changed bytes above which a sync writes with two threads. */
const HEAVY_SYNC_BYTES = 16 << 20;

/** Text sent to the writer per batch: bounds memory on a first index of a large history. */
const BATCH_TEXT_CHARS = 2 << 20;

/**
 * How often a first index (of an empty index) commits what it has: a query meanwhile answers
 * from that, rather than from nothing (see awaitFirstCommit). A rebuild commits once, so that
 * queries keep the old answers until the new index is whole.
 */
export const FIRST_INDEX_COMMIT_MS = 3_000;

function errorReason(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  if (e && typeof e.code === "string") return `${e.code}${e.syscall ? ` (${e.syscall})` : ""}`;
  return error instanceof Error ? error.message : String(error);
}

/** True if the file only grew since it was read, so reading can resume. */
function isAppend(file: SessionFile, known: KnownFile): boolean {
  const { state } = known;
  if (known.ino !== file.ino || file.size < state.end || !state.indexed) return false;
  // v1 and v2 files are rewritten whole by Pi when it opens them.
  if (state.header.version < 3) return false;
  try {
    return tailHash(file.path, state.end) === state.tailHash;
  } catch {
    return false;
  }
}

/** What the freshness check found: the scan, and whether anything is left to do. */
export interface Freshness {
  scan: NativeScan;
  tagData: string;
  /** Session files to read or remove (all of them for a rebuild). */
  filesChanged: boolean;
  upToDate: boolean;
}

/**
 * The freshness check alone: one stat per session file (native, see scan.rs) and one of the tag
 * data. A sync with nothing to do is exactly this. `early`: see startEarlyLook.
 */
export async function checkFreshness(store: IndexStore, options: Pick<SyncOptions, "rebuild"> & { early?: EarlyLook } = {}): Promise<Freshness> {
  const rebuild = options.rebuild === true;
  const scan = await scanSessionFiles(store, !rebuild, options.early);
  const tagData = tagDataSignature(store);
  const seen = loadTagFingerprint(store);
  const filesChanged = rebuild || scan.changed.length > 0 || scan.removed.length > 0;
  return { scan, tagData, filesChanged, upToDate: !filesChanged && seen?.tags === tagData && seen.stamp === (await store.native.stats()).stamp };
}

/**
 * Syncs the session files, then applies tag edits the index has not seen yet (see apply-tags.ts).
 * `checked` is a freshness check the caller has just made (see readWhileSyncing).
 */
export async function syncIndex(store: IndexStore, options: SyncOptions & { checked?: Freshness } = {}): Promise<SyncReport> {
  try {
    return await syncChanges(store, options);
  } catch (error) {
    throw cannotWriteIn(store, diskFull(store, error));
  }
}

async function syncChanges(store: IndexStore, options: SyncOptions & { checked?: Freshness }): Promise<SyncReport> {
  const { scan, tagData, filesChanged, upToDate } = options.checked ?? (await checkFreshness(store, options));
  if (upToDate) return { ...emptyReport(scan), unchanged: scan.unchanged };
  // Files synced now would be indexed without their tags: the index waits, as it is, for a repair.
  const damaged = await damagedTagStore(store);
  if (damaged) return { ...emptyReport(scan), unchanged: scan.unchanged, notices: [`${damaged.message}; the index is not updated until then`] };
  const report = filesChanged ? await syncFiles(store, scan, options) : { ...emptyReport(scan), unchanged: scan.unchanged };
  if (!report.busy) {
    const tagged = await syncTags(store, { lockTimeoutMs: options.lockTimeoutMs });
    if (tagged.unwritable) throw tagged.unwritable;
    report.busy = tagged.busy;
  }
  report.notices.push(...takeTagNotices(store));
  if (!report.busy) saveTagFingerprint(store, { stamp: (await store.native.stats()).stamp, tags: tagData });
  report.changed = report.rebuilt || report.indexed + report.appended + report.removed > 0;
  return report;
}

/**
 * Reads the index while its freshness check runs, so that on two cores the check costs little
 * more than the read; when the check finds something to do, syncs and reads again. The read sees
 * every commit made before the call. While `recall watch` says the index is up to date (see
 * watch.ts), there is no check and the report is null. `early`: see startEarlyLook.
 */
export async function readWhileSyncing<T>(store: IndexStore, read: () => Promise<T>, early?: EarlyLook): Promise<{ value: T; report: SyncReport | null }> {
  await store.native.reload();
  if (watcherKeepsFresh(store.locations)) return { value: await read(), report: null };
  const [checked, first] = await Promise.all([checkFreshness(store, { early }), read()]);
  const report = await untilFirstCommit(store, await syncIndexIfWritable(store, { checked }), () => syncIndexIfWritable(store, { lockTimeoutMs: RETRY_LOCK_MS }));
  return { value: checked.upToDate || report.unwritable ? first : await read(), report };
}

/** How long a query waits for another process building the index from scratch to commit first. */
const FIRST_COMMIT_WAIT_MS = 15_000;
/** How long each retry of the sync waits for the writer lock meanwhile. */
export const RETRY_LOCK_MS = 1_000;

/**
 * After a sync that found the writer busy: when the index has never been committed to, another
 * process is building it from scratch, and an answer now would be "nothing" only because of that.
 * Retries the sync (`retry`, with a short lock wait) until that process has committed (a first
 * index commits every FIRST_INDEX_COMMIT_MS, see syncFiles), or has let go of the lock, for up to
 * FIRST_COMMIT_WAIT_MS; then LOCKED, saying so.
 */
export async function untilFirstCommit(store: IndexStore, report: SyncReport, retry: () => Promise<SyncReport>): Promise<SyncReport> {
  const deadline = Date.now() + FIRST_COMMIT_WAIT_MS;
  for (;;) {
    if (!report.busy) return report;
    await store.native.reload();
    if ((await store.native.stats()).stamp !== "") return report;
    if (Date.now() >= deadline) break;
    report = await retry();
  }
  throw new RecallError("LOCKED", `another recall process is building the index in ${store.locations.cacheDir} and has not committed any session yet; try again in a moment`);
}

/**
 * `syncIndex`, for a command that answers from the index: when the cache cannot be written to
 * (read-only, no permission, a full disk), the index answers as it is, and the report carries
 * one notice saying so (and `unwritable`).
 */
export async function syncIndexIfWritable(store: IndexStore, options: SyncOptions & { checked?: Freshness } = {}): Promise<SyncReport> {
  try {
    return await syncIndex(store, options);
  } catch (error) {
    if (!cannotWrite(error)) throw error;
    const notice = `the index in ${store.locations.cacheDir} could not be updated (${refusal(store, error)}); answering from it as it is`;
    const scan = options.checked?.scan ?? { filesTotal: 0, unchanged: 0, changed: [], removed: [], failures: [] };
    return { ...emptyReport(scan), notices: [notice], unwritable: true };
  }
}


function emptyReport(scan: NativeScan): SyncReport {
  return {
    discovered: scan.filesTotal,
    indexed: 0,
    appended: 0,
    removed: 0,
    unchanged: 0,
    failed: [...scan.failures],
    malformedLines: 0,
    malformed: [],
    rebuilt: false,
    stopped: false,
    changed: false,
    busy: false,
    notices: [],
  };
}

interface Work {
  /** Files to read, each with what the index knew of it. */
  files: { file: SessionFile; known: KnownFile | undefined; whole: boolean }[];
  removed: string[];
}

/**
 * What is left to do once the writer lock is held: another process may have synced some of the
 * scanned changes meanwhile, so the records are read now. A fork's copied history is indexed
 * only with its parent: when the parent appears or goes, the fork is read again in full.
 */
async function planWork(store: IndexStore, scan: NativeScan, rebuild: boolean): Promise<Work> {
  const known = rebuild ? new Map<string, KnownFile>() : await knownFiles(store, scan.changed.map((f) => f.path));
  const work: Work = { files: [], removed: scan.removed };
  for (const file of scan.changed) {
    const record = known.get(file.path);
    if (!sameSignature(file, record)) work.files.push({ file, known: record, whole: false });
  }
  const appearedOrGone = [...work.files.filter((f) => !f.known).map((f) => basename(f.file.path)), ...scan.removed.map((p) => basename(p))];
  if (rebuild || appearedOrGone.length === 0) return work;
  const reading = new Map(work.files.map((f) => [f.file.path, f]));
  const removed = new Set(scan.removed);
  for (const record of await store.native.fileRecords({ parentNames: [...new Set(appearedOrGone)] })) {
    const fork = knownFile(record);
    if (!fork || removed.has(fork.path)) continue;
    const listed = reading.get(fork.path);
    if (listed) listed.whole = true;
    // An unchanged fork: its record's signature is the file's.
    else work.files.push({ file: { path: fork.path, size: fork.size, mtimeMs: fork.mtimeMs, ino: fork.ino }, known: fork, whole: true });
  }
  return work;
}

/** The session id at the end of a Pi session file name: `<time>_<id>.jsonl`. */
const SESSION_ID_IN_NAME = /_([0-9a-f-]+)\.jsonl$/i;

/**
 * The parent of a fork as a file we can read: its recorded path, or a file of that name in the
 * sessions folder (the folder moved), or else a file of the same session id under another name
 * (sessions copied elsewhere, a renamed file). The folder is listed only when the path is gone.
 */
function parentFinder(store: IndexStore): (parent: string | undefined) => Promise<string | undefined> {
  let listing: Promise<SessionFile[]> | undefined;
  return async (parent) => {
    if (!parent) return undefined;
    if (existsSync(parent)) return parent;
    listing ??= discoverSessionFiles(store.locations).then((d) => d.files);
    const files = await listing;
    const name = basename(parent);
    const byName = files.find((f) => basename(f.path) === name);
    if (byName) return byName.path;
    const id = SESSION_ID_IN_NAME.exec(name)?.[1];
    return id === undefined ? undefined : files.find((f) => basename(f.path).endsWith(`_${id}.jsonl`))?.path;
  };
}

async function syncFiles(store: IndexStore, scan: NativeScan, options: SyncOptions): Promise<SyncReport> {
  const report = emptyReport(scan);
  const rebuild = options.rebuild === true;
  // A first index or a large batch gets two writer threads; an append, one (fewer segments to
  // write and flush per commit).
  const heavy = rebuild || scan.changed.reduce((sum, f) => sum + f.size, 0) > HEAVY_SYNC_BYTES;
  if (!(await lockIndex(store, options.lockTimeoutMs ?? 5000, heavy))) {
    report.busy = true;
    return report;
  }
  try {
    await store.native.reload();
    const state = rebuild ? {} : await indexState(store);
    if (rebuild) {
      await store.native.clear();
      report.rebuilt = true;
    }
    // Nothing committed yet, or a replaced index: what is read is worth showing at once.
    const first = !rebuild && (await store.native.stats()).documents === 0;
    let committedAt = Date.now();
    const work = await planWork(store, scan, rebuild);
    report.unchanged = scan.filesTotal - work.files.length;

    let batch: Required<NativeChangeSet> = { removePaths: [], sessions: [], files: [], tagUpdates: [] };
    let batchChars = 0;
    let applied = rebuild;
    const flush = async () => {
      if (batch.removePaths.length === 0 && batch.sessions.length === 0 && batch.files.length === 0) return;
      const changes = batch;
      batch = { removePaths: [], sessions: [], files: [], tagUpdates: [] };
      batchChars = 0;
      applied = true;
      await store.native.apply(changes);
    };

    for (const path of work.removed) {
      batch.removePaths.push(path);
      report.removed++;
    }

    const progress: SyncProgress = {
      filesDone: 0,
      filesTotal: work.files.length,
      bytesDone: 0,
      bytesTotal: work.files.reduce((sum, f) => sum + f.file.size, 0),
    };
    const parentKeys = new Map<string, Set<string>>();
    const findParent = parentFinder(store);
    // Entries a fork copied from its parent are indexed with the parent only.
    const copiesFromParent = async (path: string, parent: string | undefined) => {
      const source = await findParent(parent);
      if (!source || source === path) return undefined;
      if (!parentKeys.has(source)) parentKeys.set(source, readCopyKeys(source));
      return parentKeys.get(source);
    };
    // Someone who never tagged anything gets no tag database created by a sync.
    const tagStore = options.tagsOf === undefined && hasTagData(store) ? await tagsFor(store) : undefined;
    const tagsOf = options.tagsOf ?? (tagStore ? (id: string) => tagStore.merged(id) : () => []);
    for (const { file, known, whole } of work.files) {
      if (options.signal?.aborted) {
        report.stopped = true;
        break;
      }
      const append = known !== undefined && !whole && isAppend(file, known);
      let read: SessionRead;
      try {
        if (append) {
          const resume = { header: known.state.header, checkpoint: known.state.checkpoint };
          read = readSessionForIndex(file.path, { resume, skipCopies: await copiesFromParent(file.path, known.state.header.parent) });
        } else {
          // Only the header says whether this is a fork; most files are read once.
          const first = readSessionForIndex(file.path);
          const copies = await copiesFromParent(file.path, first.header.parent);
          read = copies ? readSessionForIndex(file.path, { skipCopies: copies }) : first;
        }
      } catch (error) {
        report.failed.push({ path: file.path, reason: errorReason(error) });
        continue;
      }
      report.malformedLines += read.malformedLines;
      if (read.malformedLines > 0) report.malformed.push({ path: file.path, count: read.malformedLines, lines: read.malformedAt });
      const indexed = read.messageCount > 0 || read.messages.length > 0 || (append && known.state.indexed);
      if (indexed) {
        batch.sessions.push({
          session: {
            id: read.header.id,
            path: file.path,
            cwd: read.header.cwd,
            name: read.name,
            created: read.header.created,
            modified: read.modified,
            messageCount: read.messageCount,
            firstMessage: read.firstMessage,
            parent: read.header.parent,
            tags: tagsOf(read.header.id),
          },
          messages: read.messages,
          replaceFrom: append ? known.state.checkpoint.nextIndex : undefined,
        });
        batchChars += read.messages.reduce((sum, m) => sum + m.text.length, 0);
      } else if (known?.state.indexed) {
        batch.removePaths.push(file.path);
      }
      batch.files.push(
        recordUpdate(file, {
          end: read.end,
          tailHash: tailHash(file.path, read.end),
          header: read.header,
          checkpoint: read.checkpoint,
          indexed,
        }),
      );
      if (append) report.appended++;
      else report.indexed++;
      progress.filesDone++;
      progress.bytesDone += file.size;
      options.onProgress?.(progress);
      if (batchChars >= BATCH_TEXT_CHARS || (first && Date.now() - committedAt >= FIRST_INDEX_COMMIT_MS)) await flush();
      if (first && applied && Date.now() - committedAt >= FIRST_INDEX_COMMIT_MS) {
        // Every file committed here has its record: a sync after a crash goes on from there.
        await commitIndex(store, state);
        committedAt = Date.now();
      }
    }
    await flush();
    // Nothing to commit when every change was already synced by another process, or unreadable.
    if (applied) await commitIndex(store, state);
  } finally {
    await unlockIndex(store);
  }
  return report;
}
