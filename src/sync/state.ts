/**
 * What the last sync knew about each session file: its signature (to tell unchanged, appended
 * and rewritten files apart with one stat) and where a resumed read continues. Kept in the cache
 * folder beside the index and tied to it by a stamp that both record at each commit: if they
 * differ (a crash between the two writes, a deleted index), the index is rebuilt.
 */
import { closeSync, mkdirSync, openSync, readFileSync, readSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { sha1 } from "../hash.js";
import type { ReadCheckpoint, SessionHeaderInfo } from "../sessions/session-index-reader.js";

export const STATE_VERSION = 1;

export interface FileState {
  size: number;
  mtimeMs: number;
  ino: number;
  /** Bytes of complete lines read. */
  end: number;
  /** Hash of the bytes just before `end`: an append leaves them as they were. */
  tailHash: string;
  header: SessionHeaderInfo;
  checkpoint: ReadCheckpoint;
  /** False for a file with no message (header only): nothing of it is in the index. */
  indexed: boolean;
}

export interface SyncState {
  version: number;
  stamp: string;
  files: Record<string, FileState>;
  /**
   * The tag store edits the index has applied: the store's id and its last revision (see
   * tags/tag-store.ts). Absent after a rebuild, which read every session's tags from the store.
   */
  tags?: { store: string; seq: number };
}

export function emptyState(): SyncState {
  return { version: STATE_VERSION, stamp: "", files: {} };
}

export function loadState(path: string): SyncState {
  try {
    const state = JSON.parse(readFileSync(path, "utf8")) as SyncState;
    if (state.version !== STATE_VERSION || typeof state.files !== "object" || state.files === null) return emptyState();
    return state;
  } catch {
    return emptyState();
  }
}

/**
 * Written to a temporary file, then renamed over the old one: never half-written. Not flushed to
 * disk: it is a cache, and a state lost in a crash no longer matches the index's stamp, which
 * makes the next sync rebuild (flushing a multi-megabyte file cost more than the append it
 * recorded).
 */
export function saveState(path: string, state: SyncState): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(state));
  renameSync(temporary, path);
}

const TAIL_BYTES = 64;

export function tailHash(path: string, end: number): string {
  const length = Math.min(TAIL_BYTES, end);
  const buffer = Buffer.alloc(length);
  const fd = openSync(path, "r");
  try {
    readSync(fd, buffer, 0, length, end - length);
  } finally {
    closeSync(fd);
  }
  return sha1(buffer);
}
