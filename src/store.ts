/**
 * The on-disk index of one sessions directory, in the cache folder: the native Tantivy index,
 * which also holds the sync's records of the session files (see sync/state.ts). Opening never fails on a bad cache: an index that is corrupt
 * or was written by another schema version is moved aside and rebuilt from the session files,
 * with a one-line notice.
 */
import { mkdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { RecallError, fromNative } from "./errors.js";
import type { Locations } from "./locations.js";
import { nativeModule, type NativeIndex } from "./native/binding.js";

export interface IndexStore {
  locations: Locations;
  native: NativeIndex;
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
  const { NativeIndex } = nativeModule();
  let native: NativeIndex;
  try {
    native = NativeIndex.open(indexDir);
  } catch (raw) {
    const error = fromNative(raw);
    if (!(error instanceof RecallError) || (error.code !== "INCOMPATIBLE" && error.code !== "CORRUPT")) throw error;
    notices.push(`the index in ${indexDir} could not be used (${error.message}); rebuilding it from the session files`);
    const aside = `${indexDir}.unusable-${process.pid}`;
    renameSync(indexDir, aside);
    rmSync(aside, { recursive: true, force: true });
    // Where recall kept its sync state before the index held it.
    for (const old of ["state.json", "fingerprint.json"]) rmSync(join(locations.cacheDir, old), { force: true });
    native = NativeIndex.open(indexDir);
  }
  return { locations, native, notices };
}
