/**
 * The stages of a sync after the scan, for any consumer (changes.ts): plan which files to read
 * and from where, by the consumer's marks; read each file (only its appended part when it only
 * grew since the mark); emit each change to the consumer. A broken file is reported and skipped;
 * a file deleted while the sync runs is gone, not broken.
 */
import { basename } from "node:path";
import type { Locations } from "../locations.js";
import type { SessionFile } from "../sessions/discover.js";
import type { MalformedLine } from "../sessions/lines.js";
import { readHeader } from "../sessions/entries.js";
import {
  readCopyKeys,
  readSessionInParts,
  type ReadOptions,
  type SessionRead,
} from "../sessions/session-index-reader.js";
import type { ChangeSink, SessionChange } from "./changes.js";
import { parentFinder, type ParentFinder } from "./fork-parent.js";
import { sameSignature, tailHash, type FileState, type KnownFile } from "./state.js";

export interface SyncFailure {
  path: string;
  reason: string;
}

export interface MalformedFile {
  path: string;
  /** How many lines of the file were skipped in this sync (more than `lines` may hold). */
  count: number;
  lines: MalformedLine[];
}

export interface SyncProgress {
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
}

/** The session files that differ from the consumer's marks, and the marked ones that are gone. */
export interface FoundChanges {
  changed: SessionFile[];
  removed: string[];
  /**
   * Of `changed`, the files to read whole though their marks say they are as marked (the consumer
   * needs them again).
   */
  again?: ReadonlySet<string>;
}

export interface StreamOptions {
  /** Where the sessions are: a fork's parent is looked for there when its recorded path is gone. */
  locations: Pick<Locations, "sessionsDir" | "layout">;
  /** Read every file whole, whatever the consumer's marks (it was emptied). */
  rebuild?: boolean;
  onProgress?: (progress: SyncProgress) => void;
  /** Stops reading files: what was emitted stays emitted, the rest is left for the next sync. */
  signal?: AbortSignal;
  /**
   * How the files are read: the index keeps each session's opening (the default); the archive
   * reads tool calls and output whole instead, to redact them before it cuts them.
   */
  reading?: Pick<ReadOptions, "opening" | "whole">;
}

/** What the stream did, counted as a SyncReport counts it. */
export interface StreamCounts {
  /** Files read whole. */
  indexed: number;
  /** Files of which only the appended part was read. */
  appended: number;
  removed: number;
  failed: SyncFailure[];
  malformedLines: number;
  malformed: MalformedFile[];
  /** True when the signal stopped the stream before every file was read. */
  stopped: boolean;
  /** Files the plan had to read (the others had not changed since the consumer's marks). */
  planned: number;
}

interface Planned {
  file: SessionFile;
  known: KnownFile | undefined;
  /** Read whole even if it only grew: a fork whose parent appeared or went. */
  whole: boolean;
}

/** Plans, reads and emits the changes `found` to `sink`, one file at a time. */
export async function streamChanges(
  sink: ChangeSink,
  found: FoundChanges,
  options: StreamOptions,
): Promise<StreamCounts> {
  const counts: StreamCounts = {
    indexed: 0,
    appended: 0,
    removed: 0,
    failed: [],
    malformedLines: 0,
    malformed: [],
    stopped: false,
    planned: 0,
  };
  const plan = await planChanges(sink, found, options.rebuild === true);
  const reading = options.reading ?? { opening: true };
  counts.planned = plan.length;
  for (const path of found.removed) {
    await sink.emit({ kind: "removed", path });
    counts.removed++;
  }
  const progress: SyncProgress = {
    filesDone: 0,
    filesTotal: plan.length,
    bytesDone: 0,
    bytesTotal: plan.reduce((sum, p) => sum + p.file.size, 0),
  };
  const copiesFromParent = copiesFinder(
    parentFinder(
      options.locations,
      sink,
      plan.map((p) => p.file.path),
    ),
  );
  for (const planned of plan) {
    if (options.signal?.aborted) {
      counts.stopped = true;
      break;
    }
    let change: SessionChange | undefined;
    try {
      change = await readChange(planned, reading, copiesFromParent, (part) => sink.emit(part));
    } catch (error) {
      if (!isGone(error, planned.file.path)) {
        counts.failed.push({ path: planned.file.path, reason: errorReason(error) });
        continue;
      }
      // Deleted since the scan (Pi deletes sessions): what the consumer had of it goes now.
      change = planned.known ? { kind: "removed", path: planned.file.path } : undefined;
    }
    if (change) await sink.emit(change);
    if (change?.kind === "removed") counts.removed++;
    else if (change) {
      if (change.kind === "appended") counts.appended++;
      else counts.indexed++;
      counts.malformedLines += change.read.malformedLines;
      if (change.read.malformedLines > 0)
        counts.malformed.push({
          path: change.file.path,
          count: change.read.malformedLines,
          lines: change.read.malformedAt,
        });
    }
    progress.filesDone++;
    progress.bytesDone += planned.file.size;
    options.onProgress?.(progress);
  }
  return counts;
}

/**
 * What is left to do by the consumer's marks, read now (another process may have synced some of
 * the scanned changes meanwhile). A fork's copied history is indexed only with its parent: when
 * the parent appears or goes, the fork is read again in full.
 */
async function planChanges(
  sink: ChangeSink,
  found: FoundChanges,
  rebuild: boolean,
): Promise<Planned[]> {
  const known = rebuild
    ? new Map<string, KnownFile>()
    : await sink.marks(found.changed.map((f) => f.path));
  const plan: Planned[] = [];
  for (const file of found.changed) {
    const mark = known.get(file.path);
    const again = found.again?.has(file.path) === true;
    if (again || !sameSignature(file, mark)) plan.push({ file, known: mark, whole: again });
  }
  const appearedOrGone = [
    ...plan.filter((p) => !p.known).map((p) => basename(p.file.path)),
    ...found.removed.map((p) => basename(p)),
  ];
  if (rebuild || appearedOrGone.length === 0) return plan;
  const reading = new Map(plan.map((p) => [p.file.path, p]));
  const removed = new Set(found.removed);
  for (const fork of await sink.forksOf([...new Set(appearedOrGone)])) {
    if (removed.has(fork.path)) continue;
    const listed = reading.get(fork.path);
    if (listed) listed.whole = true;
    // An unchanged fork: its mark's signature is the file's.
    else
      plan.push({
        file: { path: fork.path, size: fork.size, mtimeMs: fork.mtimeMs, ino: fork.ino },
        known: fork,
        whole: true,
      });
  }
  return plan;
}

type CopiesFinder = (
  path: string,
  parent: string | undefined,
) => Promise<ReadonlySet<string> | undefined>;

/**
 * Text of the messages of one part of a large file's read: a file is read in bounded memory, its
 * messages handed to the consumer a part at a time (see SessionChange "part").
 */
export const PART_TEXT_CHARS = 2 << 20;

/**
 * The change one planned file makes: its appended part, or all of it; the messages of a large
 * read go to `emitPart` a part at a time first, each awaited, in order.
 */
async function readChange(
  { file, known, whole }: Planned,
  reading: StreamOptions["reading"],
  copiesFromParent: CopiesFinder,
  emitPart: (part: SessionChange) => Promise<void>,
): Promise<SessionChange> {
  const append = known && !whole && isAppend(file, known) ? known : undefined;
  const resume = append && { header: append.state.header, checkpoint: append.state.checkpoint };
  // A fork's copied history is read with its parent; only the header says whether this is a fork.
  const skipCopies = await copiesFromParent(
    file.path,
    append ? append.state.header.parent : readHeader(file.path).parent,
  );
  const from = append?.state.checkpoint.nextIndex;
  const parts = readSessionInParts(file.path, { ...reading, resume, skipCopies }, PART_TEXT_CHARS);
  let continued = false;
  for (;;) {
    const next = parts.next();
    if (next.done) {
      const read = next.value;
      const mark = markOf(file, read, continued || (append?.state.indexed ?? false));
      if (append)
        return {
          kind: "appended",
          file,
          read,
          mark,
          from: append.state.checkpoint.nextIndex,
          before: append,
          continued,
        };
      return { kind: "written", file, read, mark, before: known, continued };
    }
    await emitPart({ kind: "part", file, read: next.value, first: !continued, from });
    continued = true;
  }
}

/**
 * Where a read of `file` ended, for the next one to go on from; `indexed`: the index has messages
 * of the file already.
 */
function markOf(file: SessionFile, read: SessionRead, indexed: boolean): FileState {
  return {
    end: read.end,
    tailHash: tailHash(file.path, read.end),
    header: read.header,
    checkpoint: read.checkpoint,
    // False for a file with no message (header only): the index has nothing of it.
    indexed: read.messageCount > 0 || read.messages.length > 0 || indexed,
  };
}

/** True if the file only grew since it was read, so reading can resume. */
function isAppend(file: SessionFile, known: KnownFile): boolean {
  const { state } = known;
  if (known.ino !== file.ino || file.size < state.end || !state.indexed) return false;
  // v1 and v2 files are rewritten whole by Pi when it opens them.
  if (state.header.version < 3) return false;
  try {
    return tailHash(file.path, state.end) === state.tailHash;
  } catch {
    return false;
  }
}

/**
 * The entries a fork copied from its parent (they are read with the parent only), read once per
 * parent.
 */
function copiesFinder(findParent: ParentFinder): CopiesFinder {
  const parentKeys = new Map<string, Set<string>>();
  return async (path, parent) => {
    const source = await findParent(parent, path);
    if (!source || source === path) return undefined;
    if (!parentKeys.has(source)) parentKeys.set(source, readCopyKeys(source));
    return parentKeys.get(source);
  };
}

/** Whether `error` says the file at `path` itself no longer exists (not its fork parent, say). */
function isGone(error: unknown, path: string): boolean {
  const e = error as NodeJS.ErrnoException;
  return e?.code === "ENOENT" && e.path === path;
}

function errorReason(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  if (e && typeof e.code === "string") return `${e.code}${e.syscall ? ` (${e.syscall})` : ""}`;
  return error instanceof Error ? error.message : String(error);
}
