/**
 * The user's tags: one SQLite database, `<dataDir>/tags.db`, outside the rebuildable cache.
 *
 * Each (session id, tag) pair has one row and one kind: `manual` (the user added it), `auto`
 * (a generator proposed it) or `suppressed` (the user removed it, so no generator may bring it
 * back). One row per pair is what makes the rules hold by construction: manual wins because
 * tagging overwrites the kind, an auto tag cannot displace a manual or suppressed row, and
 * tagging again lifts a suppression.
 *
 * Why SQLite: several processes (CLIs, a Pi session, an autotag run) edit tags at once. Every
 * write is one `BEGIN IMMEDIATE` transaction, so writers queue on SQLite's lock instead of
 * overwriting each other's read-modify-write; the lock is a kernel file lock, so a process that
 * crashes while holding it leaves nothing stale behind; and a commit is journaled and fsynced
 * (`synchronous = FULL`), so a crash at any point leaves either the old or the new state.
 *
 * Every edit also gives its session a new revision number. The search index records the last
 * revision it has applied (see sync/apply-tags.ts), so edits it has not seen yet, because a
 * process crashed between the two writes or the index was busy, are caught up later.
 */
import { mkdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { RecallError } from "../errors.js";
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
const SCHEMA_VERSION = 1;
/** How long a write waits for another process's transaction before giving up. */
const BUSY_TIMEOUT_MS = 15_000;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS tags (
    session_id TEXT NOT NULL,
    tag TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('manual', 'auto', 'suppressed')),
    PRIMARY KEY (session_id, tag)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS tags_by_tag ON tags (tag);
  CREATE TABLE IF NOT EXISTS revisions (
    session_id TEXT PRIMARY KEY,
    seq INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS revisions_by_seq ON revisions (seq);
  CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) WITHOUT ROWID;
`;

type Database = BetterSqlite3.Database;
let sqlite: typeof BetterSqlite3 | undefined;

/** better-sqlite3 is loaded on first use, so a broken build fails with a message, not at import. */
function openDatabase(path: string): Database {
  try {
    sqlite ??= createRequire(import.meta.url)("better-sqlite3") as typeof BetterSqlite3;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new RecallError("INTERNAL", `cannot load better-sqlite3 (${reason}); run \`npm install\` in the recall package`);
  }
  return new sqlite(path, { timeout: BUSY_TIMEOUT_MS });
}

/**
 * The meta key a database made in place of an empty (0-byte) file carries until the tags the index
 * still holds are copied back into it (see restore-tags.ts).
 */
const RESTORE_KEY = "restore-from-index";

/** Whether `path` is there but holds nothing: a file a crash, a full disk or a bad copy emptied. */
function isEmptyFile(path: string): boolean {
  try {
    return statSync(path).size === 0;
  } catch {
    return false;
  }
}

/** Sets the database up (creating it if new) and returns its id. */
function prepareSchema(db: Database, path: string, emptied: boolean): string {
  db.pragma("synchronous = FULL");
  const version = db.pragma("user_version", { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw new RecallError("INCOMPATIBLE", `the tag database ${path} was written by a newer recall (schema ${version}); upgrade recall`);
  }
  // Only a new database takes the write lock here. Processes creating it at once queue, and each
  // statement does nothing for all but the first.
  if (version < SCHEMA_VERSION) {
    db.transaction(() => {
      db.exec(SCHEMA);
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
      db.prepare("INSERT INTO meta (key, value) VALUES ('id', ?) ON CONFLICT DO NOTHING").run(randomId());
      if (emptied) db.prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT DO NOTHING").run(RESTORE_KEY, new Date().toISOString());
    }).immediate();
  }
  return db.prepare("SELECT value FROM meta WHERE key = 'id'").pluck().get() as string;
}

/** The folder that holds the database; a file in its place (or in place of a parent) is a user's mistake to name. */
function makeDataFolder(folder: string): void {
  try {
    mkdirSync(folder, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EEXIST" && code !== "ENOTDIR") throw error;
    const file = firstFileOnTheWay(folder);
    throw new RecallError("BAD_INPUT", `${file} is a file, not a folder; recall keeps its tags in ${folder} (move the file aside, or set RECALL_DATA_DIR to a folder)`);
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

function storeError(path: string, error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== "string" || !code.startsWith("SQLITE_")) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) {
    return new RecallError("LOCKED", `another recall process kept the tag database ${path} busy for over ${BUSY_TIMEOUT_MS / 1000} s; try again`);
  }
  if (code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB") {
    return new RecallError("CORRUPT", `the tag database ${path} is damaged (${message}); restore it from a backup or move it aside`);
  }
  return new RecallError("IO", `cannot use the tag database ${path}: ${message}`);
}

export class TagStore {
  private constructor(
    readonly path: string,
    /** Random, made with the database: tells the index a replaced database from an edited one. */
    readonly id: string,
    private readonly db: Database,
  ) {}

  static open(path: string): TagStore {
    let db: Database | undefined;
    try {
      makeDataFolder(dirname(path));
      const emptied = isEmptyFile(path);
      db = openDatabase(path);
      return new TagStore(path, prepareSchema(db, path, emptied), db);
    } catch (error) {
      db?.close();
      throw storeError(path, error);
    }
  }

  close(): void {
    this.db.close();
  }

  /** Manual, automatic and suppressed tags of a session, each in name order. */
  sets(sessionId: string): TagSets {
    const rows = this.read(() =>
      this.db.prepare("SELECT tag, kind FROM tags WHERE session_id = ? ORDER BY tag").all(sessionId),
    ) as { tag: string; kind: TagKind }[];
    const sets: TagSets = { manual: [], auto: [], suppressed: [] };
    for (const row of rows) sets[row.kind].push(row.tag);
    return sets;
  }

  /** What a session is tagged with: manual tags, then automatic ones. */
  merged(sessionId: string): string[] {
    return this.read(() => this.mergedQuery().all(sessionId)) as string[];
  }

  /** Adds manual tags (already normalized); a tag that was automatic or suppressed becomes manual. */
  addManual(sessionId: string, tags: readonly string[]): void {
    this.write(() => {
      const upsert = this.db.prepare("INSERT INTO tags (session_id, tag, kind) VALUES (?, ?, 'manual') ON CONFLICT DO UPDATE SET kind = 'manual'");
      for (const tag of tags) upsert.run(sessionId, tag);
      this.bump(sessionId);
    });
  }

  /** Removes tags (already normalized) and suppresses them, whether or not the session had them. */
  suppress(sessionId: string, tags: readonly string[]): void {
    this.write(() => {
      const upsert = this.db.prepare("INSERT INTO tags (session_id, tag, kind) VALUES (?, ?, 'suppressed') ON CONFLICT DO UPDATE SET kind = 'suppressed'");
      for (const tag of tags) upsert.run(sessionId, tag);
      this.bump(sessionId);
    });
  }

  /**
   * Replaces a session's automatic tags with a generator's proposal. Proposals are normalized
   * here (a model's output is not a user's typing: a bad one is skipped, not an error); those
   * that are already manual or were suppressed are dropped.
   */
  setAuto(sessionId: string, proposed: readonly string[]): void {
    this.write(() => {
      this.db.prepare("DELETE FROM tags WHERE session_id = ? AND kind = 'auto'").run(sessionId);
      const insert = this.db.prepare("INSERT INTO tags (session_id, tag, kind) VALUES (?, ?, 'auto') ON CONFLICT DO NOTHING");
      for (const tag of proposed.map(normalizeTag)) if (tag) insert.run(sessionId, tag);
      this.bump(sessionId);
    });
  }

  /** Every tag in use with its number of sessions, most used first. */
  counts(): TagCount[] {
    return this.read(() =>
      this.db.prepare("SELECT tag, COUNT(*) AS sessions FROM tags WHERE kind != 'suppressed' GROUP BY tag ORDER BY sessions DESC, tag").all(),
    ) as TagCount[];
  }

  /** The sessions edited after revision `seq`, with their current tags, read as one snapshot. */
  changesSince(seq: number): TagChanges {
    return this.read(() =>
      this.db.transaction(() => {
        const ids = this.db.prepare("SELECT session_id FROM revisions WHERE seq > ? ORDER BY seq").pluck().all(seq) as string[];
        const newest = this.db.prepare("SELECT COALESCE(MAX(seq), 0) FROM revisions").pluck().get() as number;
        const merged = this.mergedQuery();
        return { seq: newest, sessions: ids.map((sessionId) => ({ sessionId, tags: merged.all(sessionId) as string[] })) };
      })(),
    );
  }

  /** Whether `importOnce` ran with this marker. */
  imported(marker: string): boolean {
    return this.read(() => this.db.prepare("SELECT 1 FROM meta WHERE key = ?").get(marker)) !== undefined;
  }

  /**
   * Adds tags from another source once: if `marker` was recorded before, does nothing and returns
   * undefined. Rows already here win; within a session of the source, manual beats suppressed
   * beats automatic. Returns how many sessions gained a tag.
   */
  importOnce(marker: string, sessions: ReadonlyMap<string, TagSets>): number | undefined {
    return this.write(() => {
      if (this.db.prepare("SELECT 1 FROM meta WHERE key = ?").get(marker)) return undefined;
      const insert = this.db.prepare("INSERT INTO tags (session_id, tag, kind) VALUES (?, ?, ?) ON CONFLICT DO NOTHING");
      let changed = 0;
      for (const [sessionId, sets] of sessions) {
        let added = 0;
        for (const kind of ["manual", "suppressed", "auto"] as const) {
          for (const tag of sets[kind]) added += insert.run(sessionId, tag, kind).changes;
        }
        if (added > 0) {
          this.bump(sessionId);
          changed++;
        }
      }
      this.db.prepare("INSERT INTO meta (key, value) VALUES (?, ?)").run(marker, new Date().toISOString());
      return changed;
    });
  }

  /** Whether this database was made in place of an empty file and still waits for the index's tags. */
  needsRestore(): boolean {
    return this.read(() => this.db.prepare("SELECT 1 FROM meta WHERE key = ?").get(RESTORE_KEY)) !== undefined;
  }

  /**
   * Takes the tags the index held as manual tags (the index does not know which were automatic),
   * once: returns how many sessions got tags back, or undefined if another process already did it.
   */
  restore(sessions: ReadonlyMap<string, readonly string[]>): number | undefined {
    return this.write(() => {
      if (this.db.prepare("DELETE FROM meta WHERE key = ?").run(RESTORE_KEY).changes === 0) return undefined;
      const insert = this.db.prepare("INSERT INTO tags (session_id, tag, kind) VALUES (?, ?, 'manual') ON CONFLICT DO NOTHING");
      let restored = 0;
      for (const [sessionId, tags] of sessions) {
        let added = 0;
        for (const tag of tags) added += insert.run(sessionId, tag).changes;
        if (added > 0) {
          this.bump(sessionId);
          restored++;
        }
      }
      return restored;
    });
  }

  private mergedQuery(): BetterSqlite3.Statement<[string], string> {
    return this.db
      .prepare<[string], string>("SELECT tag FROM tags WHERE session_id = ? AND kind != 'suppressed' ORDER BY kind = 'auto', tag")
      .pluck();
  }

  /** Gives the session the next revision number (the caller holds the write transaction). */
  private bump(sessionId: string): void {
    this.db
      .prepare(
        `INSERT INTO revisions (session_id, seq) VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM revisions))
         ON CONFLICT DO UPDATE SET seq = excluded.seq`,
      )
      .run(sessionId);
  }

  private read<T>(query: () => T): T {
    try {
      return query();
    } catch (error) {
      throw storeError(this.path, error);
    }
  }

  /** One `BEGIN IMMEDIATE` transaction: takes the write lock first, so no two writers interleave. */
  private write<T>(change: () => T): T {
    try {
      return this.db.transaction(change).immediate();
    } catch (error) {
      throw storeError(this.path, error);
    }
  }
}
