/**
 * What each remote has acknowledged of each session file: its signature, where to resume reading
 * it (as the local sync does), and the ids of the documents of its last message, which an append
 * may extend under another id. Kept in `<cache>/archive/<remote>.json`, written whole and renamed
 * after every acknowledged batch; losing it only costs a push that sends everything again.
 *
 * Beside it, `….signatures.json`: each file's signature, session id, tags and whether it is kept,
 * written at the end of a push and naming the watermarks file's inode, size and time, so a push
 * with nothing to send reads a fifth of the bytes (`loadSignatures`); it is believed only while
 * the watermarks file is the one it was written with.
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FastHash } from "../hash.js";
import type { Locations } from "../locations.js";
import type { SessionHeader } from "../sessions/entries.js";
import type { ReadCheckpoint } from "../sessions/session-index-reader.js";
import type { IndexIdentity } from "./index-identity.js";
import type { KeptState } from "./kept-files.js";
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
  /**
   * The file, as far as `end`, is kept in the archive too (`keepFiles`, kept-files.ts), in these
   * parts.
   */
  kept?: KeptState;
}

/**
 * Each file's watermark, and the identity of the indexes they were acknowledged by
 * (index-identity.ts).
 */
export class Watermarks extends Map<string, FileWatermark> {
  identity: IndexIdentity | undefined;
}

/**
 * 2: kept files in parts (a watermark of 1 said only that its file was kept, whole); 3: each
 * pushed session has its machine's holder record (holders.ts), and the watermarks name the
 * indexes that acknowledged them (`index`). Watermarks of another format are
 * not believed: the next push sends everything once again, as this format's pushes send it.
 */
const FORMAT = 3;

/** The file of one remote: a new URL or index is another archive, so it starts afresh. */
export function watermarkFile(locations: Pick<Locations, "cacheDir">, remote: Remote): string {
  const archive = new FastHash().update(`${remote.url}\n${remote.index}`).digest();
  return join(locations.cacheDir, "archive", `${remote.name}-${archive}.json`);
}

export function loadWatermarks(path: string): Watermarks {
  try {
    const saved = JSON.parse(readFileSync(path, "utf8")) as {
      format?: number;
      index?: IndexIdentity;
      files?: Record<string, FileWatermark>;
    };
    if (saved.format === FORMAT && saved.files) {
      const watermarks = new Watermarks(Object.entries(saved.files));
      watermarks.identity = saved.index;
      return watermarks;
    }
  } catch {
    // Missing or unreadable: everything is pushed again, which overwrites documents with
    // themselves.
  }
  return new Watermarks();
}

export function saveWatermarks(path: string, watermarks: Watermarks): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeWhole(
    path,
    JSON.stringify({
      format: FORMAT,
      index: watermarks.identity,
      files: Object.fromEntries(watermarks),
    }),
  );
}

/**
 * The signatures of `watermarks`, as saved in `path` now (after a push's last save of them, not
 * after every batch: signatures the watermarks were saved after are not believed anyway).
 */
export function saveSignatures(path: string, watermarks: Watermarks): void {
  const files = Object.fromEntries(
    [...watermarks].map(([file, mark]): [string, SavedSignature] => [
      file,
      [mark.ino, mark.size, mark.mtimeMs, mark.header.id, mark.tags ?? [], mark.kept !== undefined],
    ]),
  );
  writeWhole(
    signaturesFile(path),
    JSON.stringify({ format: FORMAT, of: fileStamp(path), index: watermarks.identity, files }),
  );
}

/** Which watermarks file this is: its inode, size and time (whole milliseconds). */
function fileStamp(path: string): [number, number, number] {
  const stats = statSync(path);
  return [stats.ino, stats.size, Math.trunc(stats.mtimeMs)];
}

function writeWhole(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}

/** What a push with nothing to send needs of a file's watermark. */
export interface Signature {
  ino: number;
  size: number;
  mtimeMs: number;
  sessionId: string;
  tags: string[];
  kept: boolean;
}

type SavedSignature = [number, number, number, string, string[], boolean];

export function signaturesFile(watermarksFile: string): string {
  return watermarksFile.replace(/\.json$/, ".signatures.json");
}

/**
 * The signatures saved with some watermarks: how many, each file's, and the watermarks' index
 * identity.
 */
export interface Signatures {
  count: number;
  identity: IndexIdentity | undefined;
  of(file: string): Signature | undefined;
}

/**
 * The signatures saved with the watermarks in `path`; undefined when there are none, or when the
 * watermarks file is not the one they were saved with (removed, or written by a push that stopped
 * before the signatures): then only the watermarks say what was pushed. Read as parsed, each
 * file's made into a `Signature` only when asked for (ten thousand objects less to make).
 */
export function loadSignatures(path: string): Signatures | undefined {
  try {
    const saved = JSON.parse(readFileSync(signaturesFile(path), "utf8")) as {
      format?: number;
      of?: number[];
      index?: IndexIdentity;
      files?: Record<string, SavedSignature>;
    };
    const current = fileStamp(path);
    if (
      saved.format !== FORMAT ||
      !saved.files ||
      !Array.isArray(saved.of) ||
      saved.of.some((part, i) => part !== current[i])
    )
      return undefined;
    const files = saved.files;
    return {
      count: Object.keys(files).length,
      identity: saved.index,
      of(file) {
        const found = Object.hasOwn(files, file) ? files[file] : undefined;
        if (!found) return undefined;
        const [ino, size, mtimeMs, sessionId, tags, kept] = found;
        return { ino, size, mtimeMs, sessionId, tags, kept };
      },
    };
  } catch {
    return undefined;
  }
}
