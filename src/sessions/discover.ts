/**
 * Finds session files the way Pi does, in the native core (rules in native/src/scan.rs): in the
 * default layout, `*.jsonl` files one folder below the sessions directory (symlinked folders
 * included); in a custom directory, `*.jsonl` files directly inside it.
 */
import { native } from "../errors.js";
import type { Locations } from "../locations.js";
import { nativeModule, type NativeScan, type NativeSessionFile } from "../native/binding.js";
import type { IndexStore } from "../store.js";

export type SessionFile = NativeSessionFile;

export interface Discovery {
  files: SessionFile[];
  /** Folders or files that could not be read, with the reason. */
  failures: { path: string; reason: string }[];
}

/** Every session file with its signature, sorted by path. */
export async function discoverSessionFiles(locations: Pick<Locations, "sessionsDir" | "layout">): Promise<Discovery> {
  const found = await native(() => nativeModule().listSessionFiles(locations.sessionsDir, locations.layout === "flat"));
  return { files: found.changed, failures: found.failures };
}

/** The project folders of a sessions directory in Pi's layout, by the same rules (for watching). */
export function projectFolders(sessionsDir: string): string[] {
  return nativeModule().listProjectFolders(sessionsDir);
}

/**
 * The session files that differ from what the index recorded of them (all of them when
 * `compare` is false), after picking up other processes' commits.
 */
export function scanSessionFiles(store: IndexStore, compare: boolean): Promise<NativeScan> {
  const { sessionsDir, layout } = store.locations;
  return native(() => store.native.scan(sessionsDir, layout === "flat", compare));
}
