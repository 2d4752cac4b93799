/**
 * What a sync hands its consumers: per session file, what changed since the consumer's own mark
 * of that file (where its last read ended). The index is one consumer (index-sink.ts), keeping
 * its marks in the index itself; another (the archive's push) keeps marks of its own, so it is
 * told what changed since ITS last run, whatever the index has seen meanwhile (see consumer.ts).
 */
import type { SessionFile } from "../sessions/discover.js";
import type { SessionRead } from "../sessions/session-index-reader.js";
import type { FileState, KnownFile } from "./state.js";

export type SessionChange =
  /** The file is gone: everything the consumer has of it goes. */
  | { kind: "removed"; path: string }
  /**
   * The file was read whole (new, rewritten, or a fork whose parent appeared or went): it replaces
   * all the consumer had of it (`before`, its mark, undefined for a file it never had). When the
   * read came in parts (`continued`), the first part replaced it, and `read.messages` add to
   * theirs.
   */
  | {
      kind: "written";
      file: SessionFile;
      read: SessionRead;
      mark: FileState;
      before: KnownFile | undefined;
      continued: boolean;
    }
  /**
   * The file only grew: `read.messages` replace the consumer's messages from index `from` on (the
   * last message read before may have grown too); the metadata in `read` is the whole file's.
   * When the read came in parts (`continued`), the first part replaced them, and `read.messages`
   * add to theirs.
   */
  | {
      kind: "appended";
      file: SessionFile;
      read: SessionRead;
      mark: FileState;
      from: number;
      before: KnownFile;
      continued: boolean;
    }
  /**
   * A part of a large file's read, ahead of the file's change (written or appended), which follows
   * with the rest: `read.messages` are the part's, the rest of `read` is what was read so far. The
   * first part replaces what that change would replace (all the consumer had of the file, or its
   * messages from `from` on); later parts add to it. No mark: it comes with the change, so a file
   * whose read stopped after some parts is read again by the next sync, which replaces them.
   */
  | {
      kind: "part";
      file: SessionFile;
      read: SessionRead;
      first: boolean;
      from: number | undefined;
    };

/** A consumer of the sync's changes, with its own mark of each session file. */
export interface ChangeSink {
  /** Its marks of these files (none: the file is read whole). */
  marks(paths: readonly string[]): Promise<Map<string, KnownFile>>;
  /**
   * Its marks of the forks of sessions with these file names: they are read whole when their parent
   * appears or goes.
   */
  forksOf(parentNames: readonly string[]): Promise<KnownFile[]>;
  /** Its marks of the files whose session id starts with `id` (a fork's parent found by its id). */
  filesOfSession(id: string): Promise<KnownFile[]>;
  /**
   * Takes one change; the change's mark becomes its mark of that file, kept together with the
   * change.
   */
  emit(change: SessionChange): Promise<void>;
}
