/**
 * Brings the index up to date with the session files. Unchanged files cost one stat (the native
 * scan compares them with their records in the index); the changed ones go through the stages of
 * change-stream.ts into the index (index-sink.ts): a file that only grew (Pi appends) is read
 * from the start of its last message; a new or rewritten file is read whole; a deleted one is
 * removed. Writing happens under the index's writer lock, with the records re-read once the lock
 * is held, so two processes syncing at once never lose or duplicate anything. A broken file is
 * reported and skipped; what was indexed of it stays, and it is tried again by the next sync.
 */
import { RecallError } from "../errors.js";
import type { NativeScan } from "../native/addon.js";
import { scanSessionFiles, type EarlyLook } from "../sessions/discover.js";
import type { IndexStore } from "../store.js";
import { damagedTagStore, hasTagData, takeTagNotices, tagsFor } from "../tags/open-tags.js";
import { syncTags } from "./apply-tags.js";
import {
  streamChanges,
  type MalformedFile,
  type SyncFailure,
  type SyncProgress,
} from "./change-stream.js";
import { IndexSink } from "./index-sink.js";
import {
  cannotWrite,
  cannotWriteIn,
  diskFull,
  lockIndex,
  refusal,
  unlockIndex,
} from "./index-writer.js";
import { indexState } from "./state.js";
import { loadTagFingerprint, saveTagFingerprint, tagDataSignature } from "./tag-fingerprint.js";
import { watcherKeepsFresh } from "./watch-lock.js";

export type { MalformedFile, SyncFailure, SyncProgress } from "./change-stream.js";
export { FIRST_INDEX_COMMIT_MS } from "./index-sink.js";

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
  /**
   * True when the index changed (sessions read, removed or rebuilt): an earlier answer may be out
   * of date.
   */
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
export async function checkFreshness(
  store: IndexStore,
  options: Pick<SyncOptions, "rebuild"> & { early?: EarlyLook } = {},
): Promise<Freshness> {
  const rebuild = options.rebuild === true;
  const scan = await scanSessionFiles(store, !rebuild, options.early);
  const tagData = tagDataSignature(store);
  const seen = loadTagFingerprint(store);
  const filesChanged = rebuild || scan.changed.length > 0 || scan.removed.length > 0;
  return {
    scan,
    tagData,
    filesChanged,
    upToDate:
      !filesChanged && seen?.tags === tagData && seen.stamp === (await store.native.stats()).stamp,
  };
}

/**
 * Syncs the session files, then applies tag edits the index has not seen yet (see apply-tags.ts).
 * `checked` is a freshness check the caller has just made (see readWhileSyncing).
 */
export async function syncIndex(
  store: IndexStore,
  options: SyncOptions & { checked?: Freshness } = {},
): Promise<SyncReport> {
  try {
    return await syncChanges(store, options);
  } catch (error) {
    throw cannotWriteIn(store, diskFull(store, error));
  }
}

async function syncChanges(
  store: IndexStore,
  options: SyncOptions & { checked?: Freshness },
): Promise<SyncReport> {
  const { scan, tagData, filesChanged, upToDate } =
    options.checked ?? (await checkFreshness(store, options));
  if (upToDate) return { ...emptyReport(scan), unchanged: scan.unchanged };
  // Files synced now would be indexed without their tags: the index waits, as it is, for a repair.
  const damaged = await damagedTagStore(store);
  if (damaged)
    return {
      ...emptyReport(scan),
      unchanged: scan.unchanged,
      notices: [`${damaged.message}; the index is not updated until then`],
    };
  const report = filesChanged
    ? await syncFiles(store, scan, options)
    : { ...emptyReport(scan), unchanged: scan.unchanged };
  if (!report.busy) {
    const tagged = await syncTags(store, { lockTimeoutMs: options.lockTimeoutMs });
    if (tagged.unwritable) throw tagged.unwritable;
    report.busy = tagged.busy;
  }
  report.notices.push(...takeTagNotices(store));
  if (!report.busy)
    saveTagFingerprint(store, { stamp: (await store.native.stats()).stamp, tags: tagData });
  report.changed = report.rebuilt || report.indexed + report.appended + report.removed > 0;
  return report;
}

/**
 * Reads the index while its freshness check runs, so that on two cores the check costs little
 * more than the read; when the check finds something to do, syncs and reads again. The read sees
 * every commit made before the call. While `recall watch` says the index is up to date (see
 * watch.ts), there is no check and the report is null. `early`: see startEarlyLook.
 */
export async function readWhileSyncing<T>(
  store: IndexStore,
  read: () => Promise<T>,
  early?: EarlyLook,
): Promise<{ value: T; report: SyncReport | null }> {
  await store.native.reload();
  if (watcherKeepsFresh(store.locations)) return { value: await read(), report: null };
  const [checked, first] = await Promise.all([checkFreshness(store, { early }), read()]);
  const report = await untilFirstCommit(store, await syncIndexIfWritable(store, { checked }), () =>
    syncIndexIfWritable(store, { lockTimeoutMs: RETRY_LOCK_MS }),
  );
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
 * index commits every FIRST_INDEX_COMMIT_MS, see index-sink.ts), or has let go of the lock, for up
 * to FIRST_COMMIT_WAIT_MS; then LOCKED, saying so.
 */
export async function untilFirstCommit(
  store: IndexStore,
  report: SyncReport,
  retry: () => Promise<SyncReport>,
): Promise<SyncReport> {
  const deadline = Date.now() + FIRST_COMMIT_WAIT_MS;
  for (;;) {
    if (!report.busy) return report;
    await store.native.reload();
    if ((await store.native.stats()).stamp !== "") return report;
    if (Date.now() >= deadline) break;
    report = await retry();
  }
  throw new RecallError(
    "LOCKED",
    `another recall process is building the index in ${store.locations.cacheDir} and has not committed any session yet; try again in a moment`,
  );
}

/**
 * `syncIndex`, for a command that answers from the index: when the cache cannot be written to
 * (read-only, no permission, a full disk), the index answers as it is, and the report carries
 * one notice saying so (and `unwritable`).
 */
export async function syncIndexIfWritable(
  store: IndexStore,
  options: SyncOptions & { checked?: Freshness } = {},
): Promise<SyncReport> {
  try {
    return await syncIndex(store, options);
  } catch (error) {
    if (!cannotWrite(error)) throw error;
    const notice = `the index in ${store.locations.cacheDir} could not be updated (${refusal(store, error)}); answering from it as it is`;
    const scan = options.checked?.scan ?? {
      filesTotal: 0,
      unchanged: 0,
      changed: [],
      removed: [],
      failures: [],
    };
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

async function syncFiles(
  store: IndexStore,
  scan: NativeScan,
  options: SyncOptions,
): Promise<SyncReport> {
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
    // Someone who never tagged anything gets no tag database created by a sync.
    const tagStore =
      options.tagsOf === undefined && hasTagData(store) ? await tagsFor(store) : undefined;
    const tagsOf = options.tagsOf ?? (tagStore ? (id: string) => tagStore.merged(id) : () => []);
    // Nothing committed yet, or a replaced index: what is read is worth showing at once.
    const first = !rebuild && (await store.native.stats()).documents === 0;
    const sink = new IndexSink(store, { state, rebuild, first, tagsOf });
    const { planned, failed, ...counts } = await streamChanges(sink, scan, {
      locations: store.locations,
      rebuild,
      onProgress: options.onProgress,
      signal: options.signal,
    });
    Object.assign(report, counts, {
      unchanged: scan.filesTotal - planned,
      failed: [...report.failed, ...failed],
    });
    await sink.finish();
  } finally {
    await unlockIndex(store);
  }
  return report;
}
