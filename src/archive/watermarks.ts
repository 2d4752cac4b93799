/**
 * What each remote has acknowledged of each session file: its signature, where to resume reading
 * it (as the local sync does), and the ids of the documents of its last message, which an append
 * may extend under another id. Kept in `<cache>/archive/<remote>.json`, written whole and renamed
 * after every acknowledged batch; losing it only costs a push that sends everything again.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FastHash } from "../hash.js";
import type { Locations } from "../locations.js";
import type { SessionHeader } from "../sessions/entries.js";
import type { ReadCheckpoint } from "../sessions/session-index-reader.js";
import type { Remote } from "./remotes.js";

export interface FileWatermark {
  ino: number;
  size: number;
  mtimeMs: number;
  /** Bytes of complete lines pushed, and the hash of their last bytes. */
  end: number;
  tailHash: string;
  header: SessionHeader;
  checkpoint: ReadCheckpoint;
  /** The ids of the documents from the checkpoint on. */
  tailIds: string[];
  /** The session's tags its documents carry. */
  tags?: string[];
  /** The file, as far as `end`, is kept in the archive too (`keepFiles`, kept-files.ts). */
  kept?: boolean;
}

export type Watermarks = Map<string, FileWatermark>;

const FORMAT = 1;

/** The file of one remote: a new URL or index is another archive, so it starts afresh. */
export function watermarkFile(locations: Pick<Locations, "cacheDir">, remote: Remote): string {
  const archive = new FastHash().update(`${remote.url}\n${remote.index}`).digest();
  return join(locations.cacheDir, "archive", `${remote.name}-${archive}.json`);
}

export function loadWatermarks(path: string): Watermarks {
  try {
    const saved = JSON.parse(readFileSync(path, "utf8")) as { format?: number; files?: Record<string, FileWatermark> };
    if (saved.format === FORMAT && saved.files) return new Map(Object.entries(saved.files));
  } catch {
    // Missing or unreadable: everything is pushed again, which overwrites documents with themselves.
  }
  return new Map();
}

export function saveWatermarks(path: string, watermarks: Watermarks): void {
  mkdirSync(join(path, ".."), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify({ format: FORMAT, files: Object.fromEntries(watermarks) }));
  renameSync(temporary, path);
}
