/**
 * The lock a watcher (`Recall.watch`) holds beside the index while it runs
 * (native/src/fs/lock_file.rs), and the word it writes in it once the index has caught up with the
 * session files. A search that finds the lock held and ready skips its own freshness check.
 */
import { join } from "node:path";
import { RecallError, fromNative } from "../errors.js";
import type { LockFile } from "../native/addon.js";
import { nativeModule } from "../native/binding.js";
import type { Locations } from "../locations.js";
import type { IndexStore } from "../store.js";

const READY = "ready";

export function watchLockPath(locations: Pick<Locations, "cacheDir">): string {
  return join(locations.cacheDir, "watch.lock");
}

export interface WatchLock {
  /** Says whether the index has caught up with every change the watcher was told of. */
  setReady(ready: boolean): void;
  /**
   * False once the lock file was deleted (the cache folder removed by hand): searches no longer see
   * it.
   */
  stillInPlace(): boolean;
  release(): void;
}

/** Takes the watch lock; fails with LOCKED while another watcher runs. */
export function holdWatchLock(store: IndexStore): WatchLock {
  let lock: LockFile;
  try {
    lock = nativeModule().LockFile.hold(watchLockPath(store.locations));
  } catch (raw) {
    const error = fromNative(raw);
    if (error instanceof RecallError && error.code === "LOCKED") {
      throw new RecallError(
        "LOCKED",
        `another watcher is already keeping the index of ${store.locations.sessionsDir} up to date`,
      );
    }
    throw error;
  }
  return {
    setReady: (ready) => lock.setText(ready ? READY : ""),
    stillInPlace: () => lock.isInPlace(),
    release: () => {
      // Not needed for searches, which trust the word only while the lock is held; but a file
      // that still says ready after the watcher is gone misleads whoever reads it.
      try {
        lock.setText("");
      } catch {
        // The file is gone or unwritable: there is nothing to mislead.
      }
      lock.release();
    },
  };
}

/** True while a running watcher says the index in `locations` is up to date. */
export function watcherKeepsFresh(locations: Pick<Locations, "cacheDir">): boolean {
  try {
    return nativeModule().textOfHeldLock(watchLockPath(locations)) === READY;
  } catch {
    // An unreadable lock file only means the search checks for itself.
    return false;
  }
}
