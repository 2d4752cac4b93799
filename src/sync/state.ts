/**
 * What the sync keeps, all of it inside the index so that it is committed together with the
 * documents it describes (a crash can never leave the two out of step):
 * - a record per session file (native/src/index/files.rs): its signature, which the native scan
 *   compares with the disk, and the state below, which says where a resumed read continues;
 * - with each commit, the index state: which tag store edits the index has applied.
 */
import { basename } from "node:path";
import { closeSync, readSync } from "node:fs";
import { sha1 } from "../hash.js";
import { openSessionFile } from "../sessions/lines.js";
import type {
  NativeFileRecord,
  NativeFileRecordUpdate,
  NativeSessionFile,
} from "../native/addon.js";
import type { SessionHeader } from "../sessions/entries.js";
import type { ReadCheckpoint } from "../sessions/session-index-reader.js";
import type { IndexStore } from "../store.js";

/** The sync's own data about one file, stored in its record. */
export interface FileState {
  /** Bytes of complete lines read. */
  end: number;
  /** Hash of the bytes just before `end`: an append leaves them as they were. */
  tailHash: string;
  header: SessionHeader;
  checkpoint: ReadCheckpoint;
  /** False for a file with no message (header only): nothing of it is in the index. */
  indexed: boolean;
}

export interface KnownFile extends NativeSessionFile {
  state: FileState;
}

export interface IndexState {
  /**
   * The tag store edits the index has applied: the store's id and its last revision (see
   * tags/tag-store.ts). Absent after a rebuild, which read every session's tags from the store.
   */
  tags?: { store: string; seq: number };
}

/** What a change set sends for a file just read. */
export function recordUpdate(file: NativeSessionFile, state: FileState): NativeFileRecordUpdate {
  return {
    path: file.path,
    size: file.size,
    mtimeMs: file.mtimeMs,
    ino: file.ino,
    sessionId: state.header.id,
    parentName: state.header.parent ? basename(state.header.parent) : undefined,
    state: JSON.stringify(state),
  };
}

/**
 * A record as the sync uses it; undefined when its state is unreadable (the file is read again).
 */
export function knownFile(record: NativeFileRecord): KnownFile | undefined {
  try {
    const state = JSON.parse(record.state) as FileState;
    if (typeof state?.end !== "number" || typeof state.header?.id !== "string") return undefined;
    return {
      path: record.path,
      size: record.size,
      mtimeMs: record.mtimeMs,
      ino: record.ino,
      state,
    };
  } catch {
    return undefined;
  }
}

export async function knownFiles(
  store: IndexStore,
  paths: string[],
): Promise<Map<string, KnownFile>> {
  const known = new Map<string, KnownFile>();
  if (paths.length === 0) return known;
  for (const record of await store.native.fileRecords({ paths })) {
    const file = knownFile(record);
    if (file) known.set(file.path, file);
  }
  return known;
}

export function sameSignature(
  file: NativeSessionFile,
  known: NativeSessionFile | undefined,
): boolean {
  return (
    known !== undefined &&
    known.size === file.size &&
    known.mtimeMs === file.mtimeMs &&
    known.ino === file.ino
  );
}

/** The index state as of the last commit (read from disk, not from the reader's view). */
export async function indexState(store: IndexStore): Promise<IndexState> {
  try {
    const state = JSON.parse((await store.native.stats()).state || "{}") as IndexState;
    return typeof state === "object" && state !== null ? state : {};
  } catch {
    return {};
  }
}

const TAIL_BYTES = 64;

export function tailHash(path: string, end: number): string {
  const length = Math.min(TAIL_BYTES, end);
  const buffer = Buffer.alloc(length);
  const fd = openSessionFile(path);
  try {
    readSync(fd, buffer, 0, length, end - length);
  } finally {
    closeSync(fd);
  }
  return sha1(buffer);
}
