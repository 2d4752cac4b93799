/**
 * A consumer of the session files' changes other than the index (the archive's push), with marks
 * of its own: it is told, per session file, what changed since ITS last run (appended messages, a
 * session written anew, a file gone), whatever the index has synced meanwhile. Where the index
 * finds its changes with the native scan of its records, such a consumer's are found by comparing
 * the listing of the session files with every mark it holds.
 */
import { sep } from "node:path";
import type { Locations } from "../locations.js";
import { discoverSessionFiles, type SessionFile } from "../sessions/discover.js";
import { streamChanges, type StreamCounts, type StreamOptions } from "./change-stream.js";
import type { ChangeSink } from "./changes.js";
import { sameSignature, type KnownFile } from "./state.js";

/** A consumer that keeps its own marks: it can list them all. */
export interface MarkedSink extends ChangeSink {
  /** Every mark it holds. */
  allMarks(): Promise<KnownFile[]>;
}

/** Emits to `sink` what changed in the session files since its marks. */
export interface ConsumerOptions extends Omit<StreamOptions, "locations" | "rebuild"> {
  /** The session files as listed for this sync, when the consumer listed them already. */
  listed?: Awaited<ReturnType<typeof discoverSessionFiles>>;
  /** Files to read whole though they are as the consumer marked them (it needs them again). */
  again?: (file: SessionFile, mark: KnownFile | undefined) => boolean;
}

export async function syncConsumer(
  locations: Pick<Locations, "sessionsDir" | "layout">,
  sink: MarkedSink,
  options: ConsumerOptions = {},
): Promise<StreamCounts> {
  const { listed, again: readAgain, ...streamOptions } = options;
  const { files, failures } = listed ?? (await discoverSessionFiles(locations));
  const marks = new Map((await sink.allMarks()).map((mark) => [mark.path, mark]));
  const onDisk = new Set(files.map((f) => f.path));
  // A file or folder that could not be looked at is not gone: what the consumer has of it stays.
  const unseen = (path: string) =>
    failures.some((f) => path === f.path || path.startsWith(f.path + sep));
  const again = new Set(
    readAgain
      ? files.filter((file) => readAgain(file, marks.get(file.path))).map((file) => file.path)
      : [],
  );
  const changed = files.filter(
    (file) => again.has(file.path) || !sameSignature(file, marks.get(file.path)),
  );
  const removed = [...marks.keys()].filter((path) => !onDisk.has(path) && !unseen(path)).sort();
  const counts = await streamChanges(
    sink,
    { changed, removed, again },
    { ...streamOptions, locations },
  );
  counts.failed.unshift(...failures);
  return counts;
}
