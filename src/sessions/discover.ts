/**
 * Finds session files the way Pi does, in the native core (rules in native/src/index/scan.rs): in
 * the default layout, `*.jsonl` files one folder below the sessions directory (symlinked folders
 * included); in a custom directory, `*.jsonl` files directly inside it.
 */
import { join } from "node:path";
import { native } from "../errors.js";
import type { Locations } from "../locations.js";
import type {
  EarlyLook as NativeEarlyLook,
  NativeScan,
  NativeSessionFile,
} from "../native/addon.js";
import { nativeModule } from "../native/binding.js";
import type { IndexStore } from "../store.js";

export type SessionFile = NativeSessionFile;
export type EarlyLook = NativeEarlyLook;

export interface Discovery {
  files: SessionFile[];
  /** Folders or files that could not be read, with the reason. */
  failures: { path: string; reason: string }[];
}

/** Every session file with its signature, sorted by path. */
export async function discoverSessionFiles(
  locations: Pick<Locations, "sessionsDir" | "layout">,
): Promise<Discovery> {
  const found = await native(() =>
    nativeModule().listSessionFiles(locations.sessionsDir, locations.layout === "flat"),
  );
  return { files: found.changed, failures: found.failures };
}

/** The project folders of a sessions directory in Pi's layout, by the same rules (for watching). */
export function projectFolders(sessionsDir: string): string[] {
  return nativeModule().listProjectFolders(sessionsDir);
}

/**
 * Where the scan remembers the listings of project folders, so that it reads again only those
 * that changed (native/src/index/listing.rs).
 */
function listingsFile(locations: Pick<Locations, "cacheDir">): string {
  return join(locations.cacheDir, "folder-listings");
}

/**
 * Starts looking at the session files on threads of their own, for the scan that follows to take
 * (see scanSessionFiles): `recall search` starts one before its CLI is loaded (early-look.ts), so
 * the stats overlap the rest of its start.
 */
export function startEarlyLook(
  locations: Pick<Locations, "sessionsDir" | "layout" | "cacheDir">,
): EarlyLook {
  return nativeModule().EarlyLook.start(
    locations.sessionsDir,
    locations.layout === "flat",
    listingsFile(locations),
  );
}

/**
 * The session files that differ from what the index recorded of them (all of them when
 * `compare` is false), after picking up other processes' commits. `early` stands for the look at
 * the files if it was of the same folder; it is used up either way.
 */
export function scanSessionFiles(
  store: IndexStore,
  compare: boolean,
  early?: EarlyLook,
): Promise<NativeScan> {
  const { sessionsDir, layout } = store.locations;
  return store.native.scan(
    sessionsDir,
    layout === "flat",
    compare,
    listingsFile(store.locations),
    early,
  );
}
