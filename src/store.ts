/**
 * The on-disk index of one sessions directory, in the cache folder: the native Tantivy index,
 * which also holds the sync's records of the session files (see sync/state.ts). Opening never
 * fails on a bad cache: an index that is corrupt or was written by another schema version is
 * replaced (native/src/replace.rs) and rebuilt from the session files, with a one-line notice.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { RecallError } from "./errors.js";
import type { Locations } from "./locations.js";
import { IndexHandle } from "./native/index-handle.js";

export interface IndexStore {
  locations: Locations;
  native: IndexHandle;
  /** One-line notices for the user (a rebuilt cache, for example). */
  notices: string[];
}

export function openStore(locations: Locations): IndexStore {
  const indexDir = join(locations.cacheDir, "index");
  const notices: string[] = [];
  try {
    mkdirSync(locations.cacheDir, { recursive: true });
  } catch (error) {
    throw new RecallError("IO", `cannot create the cache folder ${locations.cacheDir}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
  const native = IndexHandle.open(indexDir);
  const replacedBecause = native.replacedBecause();
  if (replacedBecause !== null) {
    notices.push(`the index in ${indexDir} could not be used (${replacedBecause}); rebuilding it from the session files`);
    // Where recall kept its sync state before the index held it.
    for (const old of ["state.json", "fingerprint.json"]) rmSync(join(locations.cacheDir, old), { force: true });
  }
  return { locations, native, notices };
}

/**
 * `store`, or a store opened anew when its index folder was deleted or replaced since `store` was
 * opened (the cache folder removed by hand while Pi runs, say). An index whose folder is gone can
 * still be searched, but it no longer changes, and nothing written to it would be kept; the new
 * one is rebuilt from the session files by the next sync.
 */
export function storeInPlace(store: IndexStore): IndexStore {
  return store.native.isInPlace() ? store : openStore(store.locations);
}
