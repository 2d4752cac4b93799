/**
 * The cheapest answer to "has anything changed since the last sync?": a digest of every session
 * file's signature (path, size, mtime, inode) and of the tag database's, recorded with the index
 * stamp they were synced at. When the digest, the tag signature and the stamp all match, a sync
 * has nothing to do and never reads its state file or opens the tag database.
 */
import { readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FastHash } from "../hash.js";
import type { Discovery } from "../sessions/discover.js";
import type { IndexStore } from "../store.js";
import { legacyTagsFile } from "../tags/legacy-import.js";
import { TAGS_DB_FILE } from "../tags/tag-store.js";

export interface Fingerprint {
  /** The index stamp the files and tags below were synced at. */
  stamp: string;
  files: string;
  tags: string;
}

export function discoveryDigest(discovery: Discovery): string {
  const hash = new FastHash();
  for (const f of discovery.files) hash.update(`${f.path}\0${f.size}\0${f.mtimeMs}\0${f.ino}\n`);
  for (const f of discovery.failures) hash.update(`!${f.path}\0${f.reason}\n`);
  return hash.digest();
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
  return `${signature(join(store.locations.dataDir, TAGS_DB_FILE))}|${signature(legacyTagsFile(store.locations.agentDir))}`;
}

export function fingerprintPath(store: IndexStore): string {
  return join(store.locations.cacheDir, "fingerprint.json");
}

export function loadFingerprint(store: IndexStore): Fingerprint | undefined {
  try {
    return JSON.parse(readFileSync(fingerprintPath(store), "utf8")) as Fingerprint;
  } catch {
    return undefined;
  }
}

/** Not flushed to disk: a lost or torn fingerprint only means one full check next time. */
export function saveFingerprint(store: IndexStore, fingerprint: Fingerprint): void {
  const path = fingerprintPath(store);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(fingerprint));
  renameSync(temporary, path);
}
