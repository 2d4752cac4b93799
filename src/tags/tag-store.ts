/**
 * The user's tags: one SQLite database, `<dataDir>/tags.db`, outside the rebuildable cache.
 *
 * Each (session id, tag) pair has one row and one kind: `manual` (the user added it), `auto`
 * (a generator proposed it) or `suppressed` (the user removed it, so no generator may bring it
 * back). One row per pair is what makes the rules hold by construction: manual wins because
 * tagging overwrites the kind, an auto tag cannot displace a manual or suppressed row, and
 * tagging again lifts a suppression.
 *
 * The rows are kept by the native core (native/src/tags/store.rs, SQLite bundled into the
 * addon): every write is one `BEGIN IMMEDIATE` transaction, so writers in several processes
 * queue instead of overwriting each other, and every commit is fsynced (`synchronous = FULL`).
 * Writes wait for the lock on the native thread pool, off the JavaScript thread.
 *
 * Every edit also gives its session a new revision number. The search index records the last
 * revision it has applied (see sync/apply-tags.ts), so edits it has not seen yet, because a
 * process crashed between the two writes or the index was busy, are caught up later.
 */
import { mkdirSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { RecallError } from "../errors.js";
import { TagHandle } from "../native/tag-handle.js";
import { normalizeTag } from "./normalize.js";
import { randomId } from "../hash.js";

export type TagKind = "manual" | "auto" | "suppressed";

export interface TagSets {
  manual: string[];
  auto: string[];
  suppressed: string[];
}

export interface TagCount {
  tag: string;
  /** Sessions carrying it, manually or automatically. */
  sessions: number;
}

export interface SessionTagsUpdate {
  sessionId: string;
  /** Merged tags: manual first, then automatic, each in name order. */
  tags: string[];
}

/** The sessions whose tags changed after a revision, and the newest revision among them. */
export interface TagChanges {
  seq: number;
  sessions: SessionTagsUpdate[];
}

export const TAGS_DB_FILE = "tags.db";

/**
 * The folder that holds the database; a file in its place (or in place of a parent) is a user's
 * mistake to name.
 */
function makeDataFolder(folder: string): void {
  try {
    mkdirSync(folder, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EEXIST" && code !== "ENOTDIR") throw error;
    const file = firstFileOnTheWay(folder);
    throw new RecallError(
      "BAD_INPUT",
      `${file} is a file, not a folder; recall keeps its tags in ${folder} (move the file aside, or set RECALL_DATA_DIR to a folder)`,
    );
  }
}

/** The first ancestor of `folder` (or `folder` itself) that exists and is not a folder. */
function firstFileOnTheWay(folder: string): string {
  for (let path = folder; ; path = dirname(path)) {
    if (dirname(path) === path) return folder;
    const parent = dirname(path);
    if (isFolder(parent) && !isFolder(path)) return path;
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export class TagStore {
  private constructor(
    readonly path: string,
    /** Random, made with the database: tells the index a replaced database from an edited one. */
    readonly id: string,
    private readonly db: TagHandle,
  ) {}

  static open(path: string): TagStore {
    makeDataFolder(dirname(path));
    const db = TagHandle.open(path, randomId());
    try {
      return new TagStore(path, db.id(), db);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  close(): void {
    this.db.close();
  }

  /** Manual, automatic and suppressed tags of a session, each in name order. */
  sets(sessionId: string): TagSets {
    return this.db.sets(sessionId);
  }

  /** What a session is tagged with: manual tags, then automatic ones. */
  merged(sessionId: string): string[] {
    return this.db.merged(sessionId);
  }

  /**
   * Adds manual tags (already normalized); a tag that was automatic or suppressed becomes manual.
   */
  addManual(sessionId: string, tags: readonly string[]): Promise<void> {
    return this.db.addManual(sessionId, [...tags]);
  }

  /** Removes tags (already normalized) and suppresses them, whether or not the session had them. */
  suppress(sessionId: string, tags: readonly string[]): Promise<void> {
    return this.db.suppress(sessionId, [...tags]);
  }

  /**
   * Replaces a session's automatic tags with a generator's proposal. Proposals are normalized
   * here (a model's output is not a user's typing: a bad one is skipped, not an error); those
   * that are already manual or were suppressed are dropped.
   */
  setAuto(sessionId: string, proposed: readonly string[]): Promise<void> {
    const tags = proposed.map(normalizeTag).filter((tag): tag is string => Boolean(tag));
    return this.db.setAuto(sessionId, [...new Set(tags)]);
  }

  /** Every tag in use with its number of sessions, most used first. */
  counts(): TagCount[] {
    return this.db.counts();
  }

  /** The sessions edited after revision `seq`, with their current tags, read as one snapshot. */
  changesSince(seq: number): Promise<TagChanges> {
    return this.db.changesSince(seq);
  }

  /** Whether `importOnce` ran with this marker. */
  imported(marker: string): boolean {
    return this.db.hasMeta(marker);
  }

  /**
   * Adds tags from another source once: if `marker` was recorded before, does nothing and returns
   * undefined. Rows already here win; within a session of the source, manual beats suppressed
   * beats automatic. Returns how many sessions gained a tag.
   */
  async importOnce(
    marker: string,
    sessions: ReadonlyMap<string, TagSets>,
  ): Promise<number | undefined> {
    const rows = [...sessions].map(([sessionId, sets]) => ({ sessionId, ...sets }));
    return (await this.db.importOnce(marker, rows)) ?? undefined;
  }

  /**
   * Whether this database was made in place of an empty file and still waits for the index's tags.
   */
  needsRestore(): boolean {
    return this.db.needsRestore();
  }

  /**
   * Takes the tags the index held as manual tags (the index does not know which were automatic),
   * once: returns how many sessions got tags back, or undefined if another process already did it.
   */
  async restore(sessions: ReadonlyMap<string, readonly string[]>): Promise<number | undefined> {
    const rows = [...sessions].map(([sessionId, tags]) => ({ sessionId, tags: [...tags] }));
    return (await this.db.restore(rows)) ?? undefined;
  }
}
