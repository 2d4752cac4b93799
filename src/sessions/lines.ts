/**
 * Reads a JSONL file as parsed JSON objects with their byte positions, in bounded memory, from
 * any byte offset. Tolerant the way a user's history needs: a malformed line is skipped and
 * counted, with why. A line holding several objects run together (`{…}{…}`, seen in real Pi
 * files) is one of them: Pi drops such a line, so recall does not read into it what Pi never
 * shows.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { RecallError } from "../errors.js";

export interface JsonLine {
  value: Record<string, unknown>;
  /** Byte offset where the line starts. */
  start: number;
  /** Bytes of the line, without its newline. */
  length: number;
  /** 1-based line number in the file. */
  lineNo: number;
  /**
   * The line's bytes, without its newline: valid only until the iteration goes on (the buffer they
   * are read into is read into again).
   */
  bytes: Buffer;
}

/** A line that was skipped, and why. */
export interface MalformedLine {
  /** 1-based line number in the file. */
  line: number;
  reason: string;
}

export interface LineStats {
  malformed: number;
  /** The first MAX_MALFORMED_DETAILS of the malformed lines (a garbage file has millions). */
  malformedAt: MalformedLine[];
  /** Offset just past the last complete (newline-terminated) line. */
  end: number;
  /** Line number of the next line after `end`. */
  nextLineNo: number;
}

const CHUNK_BYTES = 1 << 20;
/** A line longer than this is not a message anyone wrote (it is an image or a dump): skipped. */
export const MAX_LINE_BYTES = 64 << 20;
const NEWLINE = 0x0a;
export const MAX_MALFORMED_DETAILS = 100;

/** Splits a line holding several top-level JSON objects; returns undefined if it is not one. */
export function splitConcatenated(line: string): Record<string, unknown>[] | undefined {
  const out: Record<string, unknown>[] = [];
  let depth = 0;
  let inString = false;
  let escaped = false;
  let start = -1;
  for (let i = 0; i < line.length; i++) {
    const ch = line.charCodeAt(i);
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === 0x5c) escaped = true;
      else if (ch === 0x22) inString = false;
      continue;
    }
    if (ch === 0x22) inString = true;
    else if (ch === 0x7b) {
      if (depth === 0) start = i;
      depth++;
    } else if (ch === 0x7d) {
      depth--;
      if (depth < 0) return undefined;
      if (depth === 0) {
        try {
          const value: unknown = JSON.parse(line.slice(start, i + 1));
          if (!isObject(value)) return undefined;
          out.push(value);
        } catch {
          return undefined;
        }
      }
    } else if (depth === 0 && ch !== 0x20 && ch !== 0x09 && ch !== 0x0d) {
      return undefined;
    }
  }
  return depth === 0 && out.length > 1 ? out : undefined;
}

/** The object of one line's text, or why it holds none. */
function lineObject(text: string): Record<string, unknown> | string {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : "not a JSON object";
  } catch {
    return splitConcatenated(text) ? "several JSON objects on one line" : "not JSON";
  }
}

/** The object of a line's bytes (as JsonLines reads them), or why they hold none. */
export function lineObjectOf(bytes: Buffer): Record<string, unknown> | string {
  return lineObject(bytes.toString("utf8").trim());
}

/**
 * The object of the line at `start` (`length` bytes, as readJsonLines found it), read again
 * from an open file without reading anything else; a string when the bytes there are no longer
 * such a line.
 */
export function readLineObjectAt(
  fd: number,
  start: number,
  length: number,
): Record<string, unknown> | string {
  const bytes = Buffer.allocUnsafe(length);
  for (let got = 0; got < length;) {
    const read = readSync(fd, bytes, got, length - got, start + got);
    if (read === 0) return "cut short";
    got += read;
  }
  return lineObjectOf(bytes);
}

/** A JSON object: not null, not an array. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Opens a session file for reading without updating its access time where the system allows it
 * (Linux, for the file's owner): `recall watch` hears of an access time change like of any other,
 * and would sync once more after every file it read. Anything but a regular file is refused at
 * once: opened without blocking (a FIFO would wait for a writer) and never read (a FIFO or
 * /dev/zero would be read forever).
 */
export function openSessionFile(path: string): number {
  const fd = openNoAtime(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw notASessionFile(path, stat);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}

function openNoAtime(path: string, flags: number): number {
  if (constants.O_NOATIME) {
    try {
      return openSync(path, flags | constants.O_NOATIME);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EPERM") throw error;
    }
  }
  return openSync(path, flags);
}

function notASessionFile(path: string, stat: Stats): RecallError {
  if (stat.isDirectory())
    return new RecallError("BAD_INPUT", `${path} is a folder, not a session file`);
  const kind = stat.isFIFO()
    ? "a FIFO"
    : stat.isCharacterDevice()
      ? "a character device"
      : stat.isBlockDevice()
        ? "a block device"
        : stat.isSocket()
          ? "a socket"
          : "not a plain file";
  return new RecallError(
    "BAD_INPUT",
    `${path} is not a regular file (${kind}); a session is a .jsonl file`,
  );
}

/**
 * The objects of a JSONL file from byte `from` on, one at a time: a caller that stops early has
 * read no further (the file is closed when the iteration ends, early or not). `skip(prefix)` may
 * reject a line from its first bytes without parsing it (large tool output the caller does not
 * index). A final line without a newline is read too, but `stats.end` stays before it: Pi may
 * still be writing it. `stats` counts what was read so far.
 */
export class JsonLines implements Iterable<JsonLine> {
  readonly stats: LineStats;

  constructor(
    private readonly path: string,
    private readonly from: number,
    private readonly firstLineNo: number,
    private readonly skip?: (head: string) => boolean,
  ) {
    this.stats = { malformed: 0, malformedAt: [], end: from, nextLineNo: firstLineNo };
  }

  *[Symbol.iterator](): Generator<JsonLine> {
    const { stats, skip } = this;
    const skipMalformed = (line: number, reason: string) => {
      stats.malformed++;
      if (stats.malformedAt.length < MAX_MALFORMED_DETAILS)
        stats.malformedAt.push({ line, reason });
    };
    const fd = openSessionFile(this.path);
    try {
      const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      let oversized = false;
      let position = this.from;
      let lineStart = this.from;
      let lineNo = this.firstLineNo;

      /** The object of the line just ended, if it holds one. */
      const finishLine = (parts: Buffer[], complete: boolean): JsonLine | undefined => {
        const thisStart = lineStart;
        const thisLineNo = lineNo;
        if (complete) {
          lineNo++;
          stats.nextLineNo = lineNo;
        }
        if (oversized) {
          skipMalformed(thisLineNo, `longer than ${MAX_LINE_BYTES >> 20} MiB`);
          return undefined;
        }
        const bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
        if (bytes.length === 0) return undefined;
        if (skip && skip(bytes.subarray(0, 256).toString("utf8"))) return undefined;
        const text = bytes.toString("utf8").trim();
        if (!text) return undefined;
        const value = lineObject(text);
        if (typeof value === "string") {
          skipMalformed(thisLineNo, value);
          return undefined;
        }
        return { value, start: thisStart, length: bytes.length, lineNo: thisLineNo, bytes };
      };

      for (;;) {
        const read = readSync(fd, chunk, 0, CHUNK_BYTES, position);
        if (read === 0) break;
        let cursor = 0;
        while (cursor < read) {
          const newline = chunk.indexOf(NEWLINE, cursor);
          const stop = newline === -1 || newline >= read ? read : newline;
          const piece = chunk.subarray(cursor, stop);
          if (!oversized) {
            if (pendingBytes + piece.length > MAX_LINE_BYTES) {
              oversized = true;
              pending = [];
            } else {
              // The chunk buffer is reused: keep a copy of a piece that waits for its line end.
              pending.push(stop === read ? Buffer.from(piece) : piece);
            }
          }
          pendingBytes += piece.length;
          if (stop === read) break;
          const line = finishLine(pending, true);
          lineStart += pendingBytes + 1;
          stats.end = lineStart;
          pending = [];
          pendingBytes = 0;
          oversized = false;
          cursor = newline + 1;
          // The line's bytes are parsed by now: the chunk may be read into again after this.
          if (line) yield line;
        }
        position += read;
      }
      if (pendingBytes > 0) {
        const line = finishLine(pending, false);
        if (line) yield line;
      }
    } finally {
      closeSync(fd);
    }
  }
}

/** Calls `onLine` for each object from byte `from` on, until it returns false (see JsonLines). */
export function readJsonLines(
  path: string,
  from: number,
  firstLineNo: number,
  onLine: (line: JsonLine) => boolean | void,
  skip?: (head: string) => boolean,
): LineStats {
  const lines = new JsonLines(path, from, firstLineNo, skip);
  for (const line of lines) if (onLine(line) === false) break;
  return lines.stats;
}

/**
 * What a line read on its own is read in: the first piece holds most lines (a tool result's line
 * is a few KB, and a search reads one per hit in tool output), and each further piece is four
 * times the last, up to LAST_PIECE_BYTES.
 */
const FIRST_PIECE_BYTES = 16 << 10;
const LAST_PIECE_BYTES = 1 << 20;

/**
 * The object of the one line that starts at byte `offset`; none when the file is gone, the line
 * is not a JSON object or longer than MAX_LINE_BYTES.
 */
export function readJsonLineAt(path: string, offset: number): Record<string, unknown> | undefined {
  let fd: number;
  try {
    fd = openSessionFile(path);
  } catch {
    return undefined;
  }
  const pieces: Buffer[] = [];
  let bytes = 0;
  try {
    for (let size = FIRST_PIECE_BYTES; ; size = Math.min(size * 4, LAST_PIECE_BYTES)) {
      const piece = Buffer.allocUnsafe(size);
      const read = readSync(fd, piece, 0, size, offset + bytes);
      const newline = piece.subarray(0, read).indexOf(NEWLINE);
      pieces.push(piece.subarray(0, newline === -1 ? read : newline));
      bytes += read;
      if (newline !== -1 || read < size) break;
      if (bytes > MAX_LINE_BYTES) return undefined;
    }
  } finally {
    closeSync(fd);
  }
  const line = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
  const value = lineObject(line.toString("utf8").trim());
  return typeof value === "string" ? undefined : value;
}
