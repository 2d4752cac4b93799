/**
 * Brings the index up to date with the session files. Unchanged files cost one stat; a file
 * that only grew (Pi appends) is read from the start of its last message; a new or rewritten
 * file is read whole; a deleted one is removed. Writing happens under the index's writer lock,
 * with the state re-read once the lock is held, so two processes syncing at once never lose or
 * duplicate anything. A broken file is reported and skipped; what was indexed of it stays.
 */
import { existsSync } from "node:fs";
import { basename } from "node:path";
import { native } from "../errors.js";
import { discoverSessionFiles, type Discovery, type SessionFile } from "../sessions/discover.js";
import { readCopyKeys, readSessionForIndex, type SessionRead } from "../sessions/session-index-reader.js";
import type { IndexStore } from "../store.js";
import { hasTagData, takeTagNotices, tagsFor } from "../tags/open-tags.js";
import { syncTags } from "./apply-tags.js";
import { discoveryDigest, loadFingerprint, saveFingerprint, tagDataSignature, type Fingerprint } from "./fingerprint.js";
import { commitIndex, lockIndex, unlockIndex } from "./index-writer.js";
import { emptyState, loadState, tailHash, type FileState, type SyncState } from "./state.js";

export interface SyncFailure {
  path: string;
  reason: string;
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
  /** True when the whole index was rebuilt. */
  rebuilt: boolean;
  /** True when another process held the writer lock too long: the index was left as it was. */
  busy: boolean;
  /** One-line notices for the user (tags imported from pi-recall, for example). */
  notices: string[];
}

/** Changed bytes above which a sync writes with two threads. */
const HEAVY_SYNC_BYTES = 16 << 20;

/** Text sent to the writer per batch: bounds memory on a first index of a large history. */
const BATCH_TEXT_CHARS = 16 << 20;

function sameSignature(file: SessionFile, known: FileState | undefined): boolean {
  return known !== undefined && known.size === file.size && known.mtimeMs === file.mtimeMs && known.ino === file.ino;
}

function errorReason(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  if (e && typeof e.code === "string") return `${e.code}${e.syscall ? ` (${e.syscall})` : ""}`;
  return error instanceof Error ? error.message : String(error);
}

/** True if the file only grew since it was read, so reading can resume. */
function isAppend(file: SessionFile, known: FileState): boolean {
  if (known.ino !== file.ino || file.size < known.end || !known.indexed) return false;
  // v1 and v2 files are rewritten whole by Pi when it opens them.
  if (known.header.version < 3) return false;
  try {
    return tailHash(file.path, known.end) === known.tailHash;
  } catch {
    return false;
  }
}

interface Plan {
  changed: SessionFile[];
  /** Changed files that must be read whole even if they only grew. */
  rereadWhole: Set<string>;
  removed: string[];
  unchanged: number;
}

function plan(files: SessionFile[], state: SyncState, unreadable: ReadonlySet<string>): Plan {
  const result: Plan = { changed: [], rereadWhole: new Set(), removed: [], unchanged: 0 };
  const present = new Set<string>();
  for (const file of files) {
    present.add(file.path);
    if (sameSignature(file, state.files[file.path])) result.unchanged++;
    else result.changed.push(file);
  }
  // A file that exists but could not be looked at is not gone: what was indexed of it stays.
  for (const path of Object.keys(state.files)) if (!present.has(path) && !unreadable.has(path)) result.removed.push(path);
  // A fork's copied history is indexed only with its parent: when the parent appears or goes,
  // the fork is read again in full.
  const added = result.changed.filter((f) => !state.files[f.path]).map((f) => basename(f.path));
  const appearedOrGone = new Set([...added, ...result.removed.map((p) => basename(p))]);
  if (appearedOrGone.size > 0) {
    for (const file of files) {
      const parent = state.files[file.path]?.header.parent;
      if (!parent || !appearedOrGone.has(basename(parent))) continue;
      result.rereadWhole.add(file.path);
      if (!result.changed.includes(file)) {
        result.changed.push(file);
        result.unchanged--;
      }
    }
  }
  return result;
}

/** The parent of a fork as a file we can read: its recorded path, or a file of that name here. */
function parentFile(parent: string | undefined, files: Map<string, SessionFile>): string | undefined {
  if (!parent) return undefined;
  if (files.has(parent) || existsSync(parent)) return parent;
  const name = basename(parent);
  for (const path of files.keys()) if (basename(path) === name) return path;
  return undefined;
}

/**
 * Syncs the session files, then applies tag edits the index has not seen yet (see apply-tags.ts).
 * When nothing changed since the last sync (see fingerprint.ts) it costs one stat per file.
 */
export async function syncIndex(store: IndexStore, options: SyncOptions = {}): Promise<SyncReport> {
  const discovery = discoverSessionFiles(store.locations);
  const seen: Fingerprint = { stamp: "", files: discoveryDigest(discovery), tags: tagDataSignature(store) };
  if (!options.rebuild) {
    const last = loadFingerprint(store);
    const unchanged = last && last.files === seen.files && last.tags === seen.tags && last.stamp === store.native.stats().stamp;
    // The state file is what names sessions by id: a deleted one is rebuilt now, not later.
    if (unchanged && existsSync(store.statePath)) {
      return { ...emptyReport(discovery), unchanged: discovery.files.length };
    }
  }
  const { report, state, readFailures } = await syncFiles(store, discovery, options);
  if (!report.busy) report.busy = (await syncTags(store, { lockTimeoutMs: options.lockTimeoutMs, state })).busy;
  report.notices.push(...takeTagNotices(store));
  // A file that could not be read is tried again by the next sync, so it is not recorded as seen.
  if (!report.busy && readFailures === 0) saveFingerprint(store, { ...seen, stamp: store.native.stats().stamp });
  return report;
}

function emptyReport(discovery: Discovery): SyncReport {
  return {
    discovered: discovery.files.length,
    indexed: 0,
    appended: 0,
    removed: 0,
    unchanged: 0,
    failed: [...discovery.failures],
    malformedLines: 0,
    rebuilt: false,
    busy: false,
    notices: [],
  };
}

interface FilesSynced {
  report: SyncReport;
  /** The sync state as this sync left it (or found it). */
  state: SyncState;
  readFailures: number;
}

async function syncFiles(store: IndexStore, discovery: Discovery, options: SyncOptions): Promise<FilesSynced> {
  const report = emptyReport(discovery);
  const unreadable = new Set(discovery.failures.map((f) => f.path));
  const quick = loadState(store.statePath);
  const consistent = quick.stamp === store.native.stats().stamp;
  const quickPlan = plan(discovery.files, quick, unreadable);
  if (!options.rebuild && consistent && quickPlan.changed.length === 0 && quickPlan.removed.length === 0) {
    report.unchanged = quickPlan.unchanged;
    return { report, state: quick, readFailures: 0 };
  }

  // A first index or a large batch gets two writer threads; an append, one (fewer segments to
  // write and flush per commit).
  const heavy = !consistent || options.rebuild === true || quickPlan.changed.reduce((sum, f) => sum + f.size, 0) > HEAVY_SYNC_BYTES;
  if (!(await lockIndex(store, options.lockTimeoutMs ?? 5000, heavy))) {
    report.busy = true;
    return { report, state: quick, readFailures: 0 };
  }
  let state: SyncState;
  let readFailures = 0;
  try {
    // Another process may have synced while this one waited for the lock.
    store.native.reload();
    state = loadState(store.statePath);
    if (options.rebuild || state.stamp !== store.native.stats().stamp) {
      store.native.clear();
      state = emptyState();
      report.rebuilt = true;
    }
    const work = plan(discovery.files, state, unreadable);
    report.unchanged = work.unchanged;
    const filesByPath = new Map(discovery.files.map((f) => [f.path, f]));

    let batch = { removePaths: [] as string[], sessions: [] as unknown[] };
    let batchChars = 0;
    const flush = async () => {
      if (batch.removePaths.length === 0 && batch.sessions.length === 0) return;
      const payload = JSON.stringify(batch);
      batch = { removePaths: [], sessions: [] };
      batchChars = 0;
      await native(() => store.native.apply(payload));
    };

    for (const path of work.removed) {
      batch.removePaths.push(path);
      delete state.files[path];
      report.removed++;
    }

    const progress: SyncProgress = {
      filesDone: 0,
      filesTotal: work.changed.length,
      bytesDone: 0,
      bytesTotal: work.changed.reduce((sum, f) => sum + f.size, 0),
    };
    const parentKeys = new Map<string, Set<string>>();
    // Someone who never tagged anything gets no tag database created by a sync.
    const tagsOf = options.tagsOf ?? (hasTagData(store) ? (id: string) => tagsFor(store).merged(id) : () => []);
    for (const file of work.changed) {
      const known = state.files[file.path];
      const append = known !== undefined && !work.rereadWhole.has(file.path) && isAppend(file, known);
      let read: SessionRead;
      try {
        // Entries a fork copied from its parent are indexed with the parent only.
        const copiesFromParent = (parent: string | undefined) => {
          const source = parentFile(parent, filesByPath);
          if (!source || source === file.path) return undefined;
          if (!parentKeys.has(source)) parentKeys.set(source, readCopyKeys(source));
          return parentKeys.get(source);
        };
        if (append) {
          const resume = { header: known.header, checkpoint: known.checkpoint };
          read = readSessionForIndex(file.path, { resume, skipCopies: copiesFromParent(known.header.parent) });
        } else {
          // Only the header says whether this is a fork; most files are read once.
          const first = readSessionForIndex(file.path);
          const copies = copiesFromParent(first.header.parent);
          read = copies ? readSessionForIndex(file.path, { skipCopies: copies }) : first;
        }
      } catch (error) {
        report.failed.push({ path: file.path, reason: errorReason(error) });
        readFailures++;
        continue;
      }
      report.malformedLines += read.malformedLines;
      const tags = tagsOf(read.header.id);
      const indexed = read.messageCount > 0 || read.messages.length > 0 || (append && known.indexed);
      if (indexed) {
        batch.sessions.push({
          session: {
            id: read.header.id,
            path: file.path,
            cwd: read.header.cwd,
            name: read.name ?? null,
            created: read.header.created,
            modified: read.modified,
            messageCount: read.messageCount,
            firstMessage: read.firstMessage,
            parent: read.header.parent ?? null,
            tags,
          },
          messages: read.messages,
          replaceFrom: append ? known.checkpoint.nextIndex : null,
        });
        batchChars += read.messages.reduce((sum, m) => sum + m.text.length, 0);
      } else if (known?.indexed) {
        batch.removePaths.push(file.path);
      }
      state.files[file.path] = {
        size: file.size,
        mtimeMs: file.mtimeMs,
        ino: file.ino,
        end: read.end,
        tailHash: tailHash(file.path, read.end),
        header: read.header,
        checkpoint: read.checkpoint,
        indexed,
      };
      if (append) report.appended++;
      else report.indexed++;
      progress.filesDone++;
      progress.bytesDone += file.size;
      options.onProgress?.(progress);
      if (batchChars >= BATCH_TEXT_CHARS) await flush();
    }
    await flush();
    await commitIndex(store, state);
  } finally {
    await unlockIndex(store);
  }
  return { report, state, readFailures };
}
