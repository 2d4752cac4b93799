/**
 * The cheapest answer to "can the tag store hold anything the index has not applied?": the
 * signature (size, mtime, inode) of the tag database and of the pi-recall file it imports from,
 * recorded with the index stamp it was last synced at. When both still match, a sync never opens
 * the tag database (loading SQLite costs more than the rest of a search).
 */
import { readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { IndexStore } from "../store.js";
import { legacyTagsFile } from "../tags/legacy-import.js";
import { TAGS_DB_FILE } from "../tags/tag-store.js";

export interface TagFingerprint {
  /** The index stamp the tag data below was synced at. */
  stamp: string;
  tags: string;
}

function signature(path: string): string {
  try {
    const stat = statSync(path);
    return `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
  } catch {
    return "-";
  }
}

/** The tag database and the pi-recall file it imports from, as they are on disk. */
export function tagDataSignature(store: IndexStore): string {
  return `${signature(join(store.locations.dataDir, TAGS_DB_FILE))}|${signature(legacyTagsFile(store.locations.piRecallDir))}`;
}

function fingerprintPath(store: IndexStore): string {
  return join(store.locations.cacheDir, "tag-fingerprint.json");
}

export function loadTagFingerprint(store: IndexStore): TagFingerprint | undefined {
  try {
    return JSON.parse(readFileSync(fingerprintPath(store), "utf8")) as TagFingerprint;
  } catch {
    return undefined;
  }
}

/** Not flushed to disk: a lost or torn fingerprint only means one look at the tag store. */
export function saveTagFingerprint(store: IndexStore, fingerprint: TagFingerprint): void {
  const path = fingerprintPath(store);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(fingerprint));
  renameSync(temporary, path);
}
