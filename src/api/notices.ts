/**
 * What the library has to tell a user that is not an answer: a cache rebuilt, tags imported, a
 * sync that skipped files or found the index busy. One line each, in the library's terms; each
 * adapter shows them its own way (the CLI on stderr, Pi as notifications, the model's tool in its
 * text).
 */
import type { SyncReport } from "../sync/sync.js";

export type NoticeCode =
  /**
   * The index could not be used (corrupt, another version) and is rebuilt from the session files.
   */
  | "INDEX_REPLACED"
  /** Tags of the earlier pi-recall extension were imported. */
  | "TAGS_IMPORTED"
  /** Another process was writing the index: the answer may miss the newest sessions. */
  | "INDEX_BUSY"
  /**
   * The index could not be updated (a read-only or full cache): the answer comes from it as it is.
   */
  | "INDEX_STALE"
  /** Session files that could not be read were skipped. */
  | "FILES_SKIPPED"
  /**
   * The meaning model is installed but could not be loaded: a search that did not ask for meaning
   * searched by words.
   */
  | "MODEL_UNUSABLE"
  /** Anything else a sync reported. */
  | "SYNC";

export interface Notice {
  code: NoticeCode;
  message: string;
  /** What to do about it, in the library's terms, when there is something to do. */
  hint?: string;
}

/** What a sync that ran before an answer has to say: only what the user should know. */
export function syncNotices(report: SyncReport): Notice[] {
  // An unwritable cache's report carries only the notice that says so.
  const notices: Notice[] = report.notices.map((message) => ({
    code: report.unwritable ? "INDEX_STALE" : "SYNC",
    message,
  }));
  if (report.busy) {
    notices.push({
      code: "INDEX_BUSY",
      message: "another recall process is updating the index; results may miss the newest sessions",
    });
  }
  if (report.failed.length === 1) {
    const [failure] = report.failed;
    notices.push({
      code: "FILES_SKIPPED",
      message: `skipped ${failure!.path}: ${failure!.reason}`,
    });
  } else if (report.failed.length > 1) {
    notices.push({
      code: "FILES_SKIPPED",
      message: `skipped ${report.failed.length} unreadable session files`,
      hint: "a full sync's report lists them",
    });
  }
  return notices;
}
