/**
 * The on-disk index of one sessions directory, in the cache folder: the native Tantivy index,
 * which also holds the sync's records of the session files (see sync/state.ts). Opening never
 * fails on a bad cache: an index that is corrupt, has damaged files or was written by another
 * schema version is replaced (native/src/replace.rs), as is a file where its folder should be, and
 * rebuilt from the session files, with a one-line notice.
 */
import { lstatSync, mkdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { RecallError } from "./errors.js";
import type { Locations } from "./locations.js";
import { IndexHandle, type IndexCheck } from "./native/index-handle.js";
import { shorten } from "./quote.js";

export interface IndexStore {
  locations: Locations;
  native: IndexHandle;
  /** One-line notices for the user (a rebuilt cache, for example). */
  notices: string[];
  /** True when opening found the index unusable and put an empty one in its place. */
  replaced: boolean;
}

/**
 * Enough of the reason an index could not be used to say what it was (Tantivy's may quote a whole
 * file).
 */
const NOTICE_REASON_CHARS = 160;

export interface OpenOptions {
  /**
   * Which segment files' checksums opening reads (default: those changed since the last commit).
   */
  check?: IndexCheck;
}

export async function openStore(
  locations: Locations,
  options: OpenOptions = {},
): Promise<IndexStore> {
  const indexDir = join(locations.cacheDir, "index");
  const notices: string[] = [];
  try {
    mkdirSync(locations.cacheDir, { recursive: true });
  } catch (error) {
    throw new RecallError(
      "IO",
      `cannot create the cache folder ${locations.cacheDir}: ${(error as NodeJS.ErrnoException).code ?? error}`,
    );
  }
  // The cache is recall's own: something other than a folder where the index goes is put aside.
  const notFolder = clearNotAFolder(indexDir);
  if (notFolder)
    notices.push(
      `${indexDir} was ${notFolder}, not the index's folder; replaced it with a new index, rebuilt from the session files`,
    );
  const native = await IndexHandle.open(indexDir, options.check);
  const replacedBecause = native.replacedBecause();
  let replaced = notFolder !== undefined;
  if (replacedBecause !== null) {
    replaced = true;
    notices.push(
      `the index in ${indexDir} could not be used (${shorten(replacedBecause, NOTICE_REASON_CHARS)}); rebuilding it from the session files`,
    );
    // Where recall kept its sync state before the index held it.
    for (const old of ["state.json", "fingerprint.json"])
      rmSync(join(locations.cacheDir, old), { force: true });
  }
  return { locations, native, notices, replaced };
}

/** Removes what stands at `path` if it is not a folder (or a link to one); says what it was. */
function clearNotAFolder(path: string): string | undefined {
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    return undefined;
  }
  if (stat.isDirectory() || (stat.isSymbolicLink() && isFolder(path))) return undefined;
  const what = stat.isFile()
    ? "a file"
    : stat.isSymbolicLink()
      ? "a link to no folder"
      : "not a folder";
  try {
    rmSync(path, { force: true });
  } catch (error) {
    throw new RecallError(
      "IO",
      `${path} is ${what}, not the index's folder, and cannot be removed: ${(error as NodeJS.ErrnoException).code ?? error}`,
    );
  }
  return what;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * `store`, or a store opened anew when its index folder was deleted or replaced since `store` was
 * opened (the cache folder removed by hand while Pi runs, say). An index whose folder is gone can
 * still be searched, but it no longer changes, and nothing written to it would be kept; the new
 * one is rebuilt from the session files by the next sync.
 */
export async function storeInPlace(store: IndexStore): Promise<IndexStore> {
  return store.native.isInPlace() ? store : openStore(store.locations);
}
