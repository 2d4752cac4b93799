/**
 * The compiled search core (native/recall.node, built by scripts/build-native.mjs) and the types
 * of its N-API surface. Only src/ modules import this; adapters go through the library.
 */
import { fileURLToPath } from "node:url";
import { RecallError } from "../errors.js";

export interface NativeSession {
  id: string;
  path: string;
  cwd: string;
  name?: string | null;
  /** ms since epoch */
  created: number;
  /** ms since epoch: the last message */
  modified: number;
  messageCount: number;
  firstMessage: string;
  parent?: string | null;
  tags: string[];
}

export interface NativeMessageRef {
  index: number;
  role: string;
  entryId: string;
  timestamp: number;
}

export interface NativeHit {
  session: NativeSession;
  score: number;
  message?: NativeMessageRef | null;
  snippet: string;
  /** UTF-8 byte offsets into `snippet` */
  spans: { start: number; end: number }[];
}

export interface NativeFilters {
  cwds?: string[];
  sessionIds?: string[];
  excludeSessionIds?: string[];
  since?: number;
  until?: number;
  /** Tags a session must all carry / must carry none of (normalized), as the index holds them. */
  tagsAll?: string[];
  tagsNone?: string[];
}

export interface NativeSearchRequest {
  query: string;
  limit: number;
  prefix?: boolean;
  filters?: NativeFilters;
  now?: number;
  recencyWeight?: number;
  coordination?: number;
  snippetChars?: number;
}

export interface NativeStats {
  documents: number;
  sessions: number;
  stamp: string;
  /** The state given to the last commit; empty for a new index. */
  state: string;
}

export interface NativeApplyCounts {
  removedPaths: number;
  sessions: number;
  messages: number;
  tagUpdates: number;
  files: number;
}

/** A session file on disk and its signature. */
export interface NativeSessionFile {
  path: string;
  size: number;
  mtimeMs: number;
  /** Inode: a replaced file gets a new one. */
  ino: number;
}

export interface NativeScan {
  filesTotal: number;
  unchanged: number;
  /** New files and files whose signature differs from their record, sorted by path. */
  changed: NativeSessionFile[];
  /** Recorded files that are gone. */
  removed: string[];
  /** Folders or files that could not be looked at (`EACCES (scandir)`). */
  failures: { path: string; reason: string }[];
}

/** Which file records to read: one of the fields, or none for all of them. */
export interface NativeRecordSelector {
  paths?: string[];
  /** Forks of these parent file names. */
  parentNames?: string[];
  sessionIdPrefix?: string;
}

/** What the last sync recorded of a file, in the index (native/src/files.rs). */
export interface NativeFileRecord extends NativeSessionFile {
  sessionId: string;
  /** The sync's own data about the file, as it gave it. */
  state: string;
}

export interface NativeIndex {
  /** Why opening replaced an unusable index (corrupt, another schema) with an empty one, or null. */
  replacedBecause(): string | null;
  /** Whether the index's folder is still the one it was opened in (not deleted or replaced). */
  isInPlace(): boolean;
  stats(): NativeStats;
  reload(): void;
  lock(timeoutMs: number, heavy?: boolean): Promise<void>;
  apply(changesJson: string): Promise<NativeApplyCounts>;
  clear(): void;
  commit(stamp: string, state: string): Promise<void>;
  unlock(): Promise<void>;
  search(request: NativeSearchRequest, signal?: AbortSignal): Promise<NativeHit[]>;
  list(request: { limit: number; filters?: NativeFilters }): Promise<NativeSession[]>;
  /**
   * Folder listings are remembered in `listingsFile` (none: every folder is read). `early` stands
   * for the look at the files if it is of the same folder; it is used up either way.
   */
  scan(sessionsDir: string, flat: boolean, compare: boolean, listingsFile: string | null, early?: NativeEarlyLook): Promise<NativeScan>;
  fileRecords(selector: NativeRecordSelector): Promise<NativeFileRecord[]>;
  /** The segment files that fail their checksum (native/src/integrity.rs). */
  damagedFiles(): Promise<string[]>;
}

/** A lock file this process holds (native/src/lock_file.rs). */
export interface NativeLockFile {
  setText(text: string): void;
  /** Whether its path still names the locked file (it may have been deleted, or made again). */
  isInPlace(): boolean;
  release(): void;
}

declare const opaque: unique symbol;

/** A look at the session files under way on a thread of its own, for a scan to take (scan.rs). */
export interface NativeEarlyLook {
  readonly [opaque]: "EarlyLook";
}

interface NativeModule {
  /** `openVerified` checks every segment file's checksum; `open`, those changed since the last commit. */
  NativeIndex: { open(dir: string): NativeIndex; openVerified(dir: string): NativeIndex };
  EarlyLook: { start(sessionsDir: string, flat: boolean, listingsFile: string | null): NativeEarlyLook };
  LockFile: { hold(path: string): NativeLockFile };
  /** The text of a lock file while another process holds it; null when none does. */
  textOfHeldLock(path: string): string | null;
  /** The project folders of a sessions directory in Pi's layout (symlinked ones included). */
  listProjectFolders(sessionsDir: string): string[];
  /** Every session file with its signature, as `changed`; needs no index. */
  listSessionFiles(sessionsDir: string, flat: boolean): Promise<NativeScan>;
  /** Whether a file descriptor is a terminal (isatty). */
  isTerminal(fd: number): boolean;
}

/**
 * Where the loaded addon is kept: on the global object, because the CLI is two bundles, each with
 * a copy of this module (dist/bundle/early-look.cjs, then cli.cjs; see bin/recall.cjs). The second
 * finds the addon the first loaded, so a look the first started is an object its addon knows.
 */
const LOADED = Symbol.for("recall.nativeModule");

export function nativeModule(): NativeModule {
  const global = globalThis as { [LOADED]?: NativeModule };
  const loaded = global[LOADED];
  if (loaded) return loaded;
  const addonPath = fileURLToPath(new URL("../../native/recall.node", import.meta.url));
  try {
    // process.dlopen, not require: no module resolution (package.json lookups) on every start.
    const addon = { exports: {} as NativeModule };
    process.dlopen(addon, addonPath);
    global[LOADED] = addon.exports;
    return addon.exports;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new RecallError("INTERNAL", `cannot load the search core ${addonPath} (${reason}); run \`npm install\` in the recall package to build it`);
  }
}
