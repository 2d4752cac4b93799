/**
 * Keeps the index up to date as Pi writes sessions (`recall watch`). The session folders are
 * watched (inotify, through fs.watch: the sessions folder for project folders that come and go,
 * each project folder for its files) and every change is synced at once; changes that arrive
 * during a sync are picked up by one more sync after it.
 *
 * While it runs it holds the watch lock (watch-lock.ts), marked ready whenever no change it was
 * told of is waiting: searches then skip their own freshness check, which on a long history is a
 * stat of every session file. A full sync every minute catches anything the watches missed.
 * Listing a folder can update its access time, which the watches report too (session files are
 * read without touching theirs, see lines.ts): that costs one more sync, which finds nothing.
 *
 * The cache folder may be deleted by hand at any time. The watcher notices at its next sync (the
 * index folder and its lock file are gone), opens a new index there and takes the lock again; if
 * another watcher has taken it meanwhile, this one stops with that error.
 */
import { statSync } from "node:fs";
import { RecallError } from "../errors.js";
import { storeInPlace, type IndexStore } from "../store.js";
import { FolderWatch } from "./folder-watch.js";
import { syncIndex, type SyncReport } from "./sync.js";
import { holdWatchLock } from "./watch-lock.js";

export interface WatchOptions {
  /** Stops the watcher; the promise `watchSessions` returned then resolves. It rejects only when
   * the watcher cannot go on (another watcher took its place). */
  signal: AbortSignal;
  /** Each sync's report, the first one (the catch-up at the start) included. */
  onSync?: (report: SyncReport) => void;
  /** A sync that failed. The watcher goes on and tries again at the next change. */
  onError?: (error: unknown) => void;
  /** How often everything is synced regardless of what the watches said (default 60 s). */
  rescanMs?: number;
}

/** After a sync that found the writer lock busy, when to try again. */
const BUSY_RETRY_MS = 1000;

export async function watchSessions(store: IndexStore, options: WatchOptions): Promise<void> {
  const { sessionsDir } = store.locations;
  if (!isFolder(sessionsDir))
    throw new RecallError("NOT_FOUND", `there is no sessions folder at ${sessionsDir} to watch`);
  let current = store;
  let lock = holdWatchLock(current);
  // Aborted by the caller's signal, or by a failure this watcher cannot go on after.
  const stop = new AbortController();
  let failure: unknown;
  const onAbort = () => stop.abort();
  options.signal.addEventListener("abort", onAbort, { once: true });
  if (options.signal.aborted) stop.abort();
  let syncing: Promise<void> | undefined;
  let again = false;
  let retry: NodeJS.Timeout | undefined;

  /**
   * After the cache folder was deleted, or the index replaced by another process: a new index in
   * its place (storeInPlace), and the lock taken again if its file went too.
   */
  const reopenIfCacheDeleted = async (): Promise<void> => {
    current = await storeInPlace(current);
    if (lock.stillInPlace()) return;
    lock.release();
    lock = holdWatchLock(current);
  };

  const syncUntilCaughtUp = async (): Promise<void> => {
    for (;;) {
      again = false;
      try {
        await reopenIfCacheDeleted();
      } catch (error) {
        failure = error;
        stop.abort();
        return;
      }
      let report: SyncReport;
      try {
        report = await syncIndex(current);
      } catch (error) {
        // Not ready: searches check for themselves until a sync succeeds.
        lock.setReady(false);
        options.onError?.(error);
        return;
      }
      if (report.busy) {
        lock.setReady(false);
        clearTimeout(retry);
        retry = setTimeout(() => changed(false), BUSY_RETRY_MS);
      } else if (!again && !stop.signal.aborted) {
        lock.setReady(true);
      }
      options.onSync?.(report);
      if (report.busy || !again || stop.signal.aborted) return;
    }
  };

  /** A change was seen (`known`), or a sync is due anyway. */
  const changed = (known: boolean): void => {
    if (stop.signal.aborted) return;
    if (known) lock.setReady(false);
    if (syncing) {
      again = true;
      return;
    }
    syncing = syncUntilCaughtUp().finally(() => (syncing = undefined));
  };

  const folders = new FolderWatch(store.locations, {
    onChange: () => changed(true),
    onError: (error) => options.onError?.(error),
    persistent: true,
  });
  folders.refresh();
  const rescan = setInterval(() => {
    folders.refresh();
    changed(false);
  }, options.rescanMs ?? 60_000);

  try {
    changed(true);
    await new Promise<void>((resolve) => {
      if (stop.signal.aborted) resolve();
      else stop.signal.addEventListener("abort", () => resolve(), { once: true });
    });
  } finally {
    options.signal.removeEventListener("abort", onAbort);
    clearInterval(rescan);
    folders.close();
    await syncing;
    // After the last sync, which may have set it.
    clearTimeout(retry);
    lock.release();
  }
  if (failure) throw failure;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
