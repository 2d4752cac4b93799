/**
 * The entries of a Pi session file as both readers see them — the one for indexing
 * (session-index-reader.ts) and the one for reading (session-tree.ts) — so that they agree on the
 * header, on entry ids and on migrations, and a search hit's `entryId` names the entry `read`
 * shows.
 *
 * - The header is the first `session` line; a file without one gets its id from its name.
 * - Entry ids: Pi's, or `L<lineNo>` for v1 entries, which have none: stable across reads, where
 *   Pi's migration makes random ones.
 * - The v2 → v3 rename of the message role `hookMessage` to `custom`.
 */
import { basename } from "node:path";
import { closeSync } from "node:fs";
import {
  JsonLines,
  lineObjectOf,
  openSessionFile,
  readLineObjectAt,
  type JsonLine,
  type LineStats,
} from "./lines.js";
import { toMillis } from "./text.js";

export interface SessionHeader {
  id: string;
  cwd: string;
  /** ms since epoch: the header's time, else the time in the file name. */
  created: number;
  /** 1 for legacy files without a version field. */
  version: number;
  /** `parentSession`, or the pre-0.31 `branchedFrom`. */
  parent?: string;
  /** False when the file has no header line and the id comes from the file name. */
  hasHeader: boolean;
}

export interface SessionEntry {
  /** Pi's id, or `L<lineNo>` for an entry without one. */
  id: string;
  /** The entry as migrated to the current format (the file's own object is left as it was). */
  value: Record<string, unknown>;
  /** The line it is on. */
  line: JsonLine;
}

/** `2026-11-30T05-54-44-201Z_<id>.jsonl` → `<id>`; any other name → the name without `.jsonl`. */
export function idFromFileName(path: string): string {
  const name = basename(path, ".jsonl");
  const underscore = name.indexOf("_");
  return underscore > 0 && /^\d{4}-\d{2}-\d{2}T/.test(name) ? name.slice(underscore + 1) : name;
}

function fileNameTime(path: string): number | undefined {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z_/.exec(basename(path));
  return match
    ? toMillis(`${match[1]}T${match[2]}:${match[3]}:${match[4]}.${match[5]}Z`)
    : undefined;
}

function parseHeader(value: Record<string, unknown>, path: string): SessionHeader {
  return {
    id: typeof value.id === "string" && value.id ? value.id : idFromFileName(path),
    cwd: typeof value.cwd === "string" ? value.cwd : "",
    created: toMillis(value.timestamp) ?? fileNameTime(path) ?? 0,
    version: typeof value.version === "number" ? value.version : 1,
    parent:
      typeof value.parentSession === "string"
        ? value.parentSession
        : typeof value.branchedFrom === "string"
          ? value.branchedFrom
          : undefined,
    hasHeader: true,
  };
}

/** The header of a file that has none (or none before its first entry, whose time may stand in). */
export function headerless(path: string, firstEntry?: Record<string, unknown>): SessionHeader {
  return {
    id: idFromFileName(path),
    cwd: "",
    created: fileNameTime(path) ?? toMillis(firstEntry?.timestamp) ?? 0,
    version: 3,
    hasHeader: false,
  };
}

function migrate(value: Record<string, unknown>): Record<string, unknown> {
  const message = value.message as Record<string, unknown> | undefined;
  if (
    value.type === "message" &&
    message &&
    typeof message === "object" &&
    message.role === "hookMessage"
  ) {
    return { ...value, message: { ...message, role: "custom" } };
  }
  return value;
}

export interface EntryReading {
  /** Start here (a resumed read: where an earlier read stopped, with the header it found). */
  from?: { offset: number; lineNo: number; header: SessionHeader };
  /**
   * Every header line, the first one (the header) included: a v1 `firstKeptEntryIndex` counts them.
   */
  onHeaderLine?: (line: JsonLine) => void;
  /** Lines rejected from their first bytes, unparsed (see readJsonLines). */
  skip?: (head: string) => boolean;
}

/**
 * The entries of a file from its start (or `from`), one at a time (see JsonLines). `header` is
 * the one `from` gave, the file's, or one made from the file name: known from the first entry
 * on, and once the iteration ended.
 */
export class SessionEntries implements Iterable<SessionEntry> {
  private readonly lines: JsonLines;
  private found: SessionHeader | undefined;

  constructor(
    private readonly path: string,
    private readonly reading: EntryReading = {},
  ) {
    this.lines = new JsonLines(
      path,
      reading.from?.offset ?? 0,
      reading.from?.lineNo ?? 1,
      reading.skip,
    );
    this.found = reading.from?.header;
  }

  get header(): SessionHeader {
    return this.found ?? headerless(this.path);
  }

  get stats(): LineStats {
    return this.lines.stats;
  }

  *[Symbol.iterator](): Generator<SessionEntry> {
    for (const line of this.lines) {
      const value = line.value;
      if (value.type === "session") {
        this.found ??= parseHeader(value, this.path);
        this.reading.onHeaderLine?.(line);
        continue;
      }
      const header = (this.found ??= headerless(this.path, value));
      const id = header.version < 2 || typeof value.id !== "string" ? `L${line.lineNo}` : value.id;
      yield { id, value: migrate(value), line };
    }
  }
}

/**
 * Calls `onEntry` for each entry from the start of the file (or `from`), until it returns false;
 * returns the header with the line statistics (see SessionEntries).
 */
export function readEntries(
  path: string,
  onEntry: (entry: SessionEntry, header: SessionHeader) => boolean | void,
  reading: EntryReading = {},
): LineStats & { header: SessionHeader } {
  const entries = new SessionEntries(path, reading);
  for (const entry of entries) if (onEntry(entry, entries.header) === false) break;
  return { ...entries.stats, header: entries.header };
}

/** The header alone, read no further than the first entry. */
export function readHeader(path: string): SessionHeader {
  return readEntries(path, () => false).header;
}

/** Where an entry is in its file: its line's bytes. */
export interface EntryPlace {
  start: number;
  length: number;
}

export function placeOf(entry: SessionEntry): EntryPlace {
  return { start: entry.line.start, length: entry.line.length };
}

/**
 * The entry a line's bytes hold, migrated as readEntries gives it (the bytes of a line it gave:
 * the same value again); undefined if they hold none.
 */
export function entryOfBytes(bytes: Buffer): Record<string, unknown> | undefined {
  const value = lineObjectOf(bytes);
  return typeof value === "string" ? undefined : migrate(value);
}

/**
 * A session file open to read entries again where a first read found them, one line each, so a
 * reader can keep the places of all entries and the values of only those it shows.
 */
export class EntryFile {
  private readonly fd: number;

  constructor(readonly path: string) {
    this.fd = openSessionFile(path);
  }

  /**
   * The entry at `place`, migrated as readEntries gives it; undefined if the file no longer holds
   * it there.
   */
  read(place: EntryPlace): Record<string, unknown> | undefined {
    const value = readLineObjectAt(this.fd, place.start, place.length);
    return typeof value === "string" ? undefined : migrate(value);
  }

  close(): void {
    closeSync(this.fd);
  }
}
