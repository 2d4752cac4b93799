/**
 * The tag store that goes with an opened index: `<dataDir>/tags.db`, opened on first use and
 * then shared by everything that works on that index (sync, search, the tag commands). Opening
 * it imports the earlier pi-recall extension's tags, once; the notice saying so waits for
 * `takeTagNotices` (a sync hands it on in its report).
 */
import { closeSync, existsSync, fstatSync, openSync, readSync } from "node:fs";
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
  const path = join(store.locations.dataDir, TAGS_DB_FILE);
  const look = lookAtFile(path);
  if (look instanceof RecallError) throw look;
  const tags = TagStore.open(path);
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
/** The bytes of a database file's header (https://www.sqlite.org/fileformat.html). */
const HEADER_BYTES = 100;

/**
 * What the tag database's file says of itself, without SQLite: there is none, it is empty (a
 * database emptied by a crash, which the next sync restores: restore-tags.ts), a database, one
 * cut short (its header counts more pages than the file holds), or, as an error, no database at
 * all (a folder, garbage).
 */
function lookAtFile(path: string): "missing" | "empty" | "database" | "cut-short" | RecallError {
  const damaged = (why: string) =>
    new RecallError(
      "CORRUPT",
      `the tag database ${path} is damaged (${why}); restore it from a backup or move it aside`,
    );
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    // Anything else (no permission, say) is for SQLite to report when it opens the file.
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "missing" : "database";
  }
  const head = Buffer.alloc(HEADER_BYTES);
  let size: number;
  let read: number;
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return damaged(stat.isDirectory() ? "a folder, not a file" : "not a file");
    size = stat.size;
    read = readSync(fd, head, 0, HEADER_BYTES, 0);
  } finally {
    closeSync(fd);
  }
  if (read === 0) return "empty";
  if (read < SQLITE_HEADER.length || !head.subarray(0, SQLITE_HEADER.length).equals(SQLITE_HEADER))
    return damaged("file is not a database");
  if (read < HEADER_BYTES) return "cut-short";
  const rawPageSize = head.readUInt16BE(16);
  const pageSize = rawPageSize === 1 ? 65_536 : rawPageSize;
  const pages = head.readUInt32BE(28);
  // The page count is valid only where the file's change counter says so (the same rule as
  // SQLite's).
  const countValid = pages > 0 && head.readUInt32BE(24) === head.readUInt32BE(92);
  return countValid && pages * pageSize > size ? "cut-short" : "database";
}

/**
 * `damagedTagStore` for a `#tag` search, without opening the database when this process has not:
 * loading SQLite would cost the search several milliseconds, and the index holds the tags it
 * filters by. A file that is not a database is damaged; one cut short is confirmed by SQLite
 * (which reads the file under its lock, where this look could catch a write half done); one that
 * looks whole is left to the tag operations and syncs, which open it.
 */
export async function garbledTagStore(store: IndexStore): Promise<RecallError | undefined> {
  if (opened.has(store)) return damagedTagStore(store);
  const look = lookAtFile(join(store.locations.dataDir, TAGS_DB_FILE));
  if (look instanceof RecallError) return look;
  return look === "cut-short" ? damagedTagStore(store) : undefined;
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
