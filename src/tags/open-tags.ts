/**
 * The tag store that goes with an opened index: `<dataDir>/tags.db`, opened on first use and
 * then shared by everything that works on that index (sync, search, the tag commands). Opening
 * it imports the earlier pi-recall extension's tags, once; the notice saying so waits for
 * `takeTagNotices` (a sync hands it on in its report).
 */
import { closeSync, existsSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { RecallError } from "../errors.js";
import type { IndexStore } from "../store.js";
import { importLegacyTags, legacyTagsFile } from "./legacy-import.js";
import { TAGS_DB_FILE, TagStore } from "./tag-store.js";

const opened = new WeakMap<IndexStore, Promise<TagStore>>();
const notices = new WeakMap<IndexStore, string[]>();

export function tagsFor(store: IndexStore): Promise<TagStore> {
  let tags = opened.get(store);
  if (!tags) {
    tags = openTags(store);
    opened.set(store, tags);
    // A database that could not be opened is tried again next time.
    tags.catch(() => opened.delete(store));
  }
  return tags;
}

async function openTags(store: IndexStore): Promise<TagStore> {
  const tags = TagStore.open(join(store.locations.dataDir, TAGS_DB_FILE));
  const notice = await importLegacyTags(tags, legacyTagsFile(store.locations.piRecallDir));
  notices.set(store, notice ? [notice] : []);
  return tags;
}

/**
 * The error a damaged tag database gives, if it is damaged; none when there is no tag data. Tag
 * edits and `#tag` filters stop on it; plain word searches answer from the index as it is.
 */
export async function damagedTagStore(store: IndexStore): Promise<RecallError | undefined> {
  if (!hasTagData(store)) return undefined;
  try {
    await tagsFor(store);
    return undefined;
  } catch (error) {
    if (error instanceof RecallError && error.code === "CORRUPT") return error;
    throw error;
  }
}

/** What every SQLite database file starts with. */
const SQLITE_HEADER = Buffer.from("SQLite format 3\0", "latin1");

/**
 * `damagedTagStore` for a `#tag` search, without opening the database when this process has not:
 * loading SQLite would cost the search several milliseconds, and the index holds the tags it
 * filters by. A file that does not even start as a database is damaged; one that does is left to
 * the tag operations and syncs, which open it.
 */
export async function garbledTagStore(store: IndexStore): Promise<RecallError | undefined> {
  if (opened.has(store)) return damagedTagStore(store);
  const path = join(store.locations.dataDir, TAGS_DB_FILE);
  const head = Buffer.alloc(SQLITE_HEADER.length);
  let read: number;
  try {
    const fd = openSync(path, "r");
    try {
      read = readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  // An empty file is a database emptied by a crash: the next sync restores it (restore-tags.ts).
  if (read === 0 || head.equals(SQLITE_HEADER)) return undefined;
  return new RecallError("CORRUPT", `the tag database ${path} is damaged (file is not a database); restore it from a backup or move it aside`);
}

/**
 * Whether there are tags to read: a tag database, or a pi-recall file to import into one. Lets a
 * sync of someone who never tagged anything skip opening (and creating) the database.
 */
export function hasTagData(store: IndexStore): boolean {
  return (
    opened.has(store) ||
    existsSync(join(store.locations.dataDir, TAGS_DB_FILE)) ||
    existsSync(legacyTagsFile(store.locations.piRecallDir))
  );
}

/** A notice for the user about the tag store (tags restored, say), handed out with the others. */
export function addTagNotice(store: IndexStore, notice: string): void {
  notices.set(store, [...(notices.get(store) ?? []), notice]);
}

/** Notices from opening the store (a legacy import), each handed out once. */
export function takeTagNotices(store: IndexStore): string[] {
  return notices.get(store)?.splice(0) ?? [];
}
