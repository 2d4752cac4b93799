/**
 * A session as a person reads it: the entries of its tree turned into a list of messages.
 *
 * `conversation` keeps what was said: user and assistant text, custom messages that Pi
 * displayed, and compaction and branch summaries where they happened. `raw` adds what the model
 * did: thinking, tool calls, tool output, shell commands run with `!` and provider errors.
 * Images become a `[image <type>]` placeholder. System prompts and entries that hold no text
 * (model changes, labels, extension state, unknown types) are never shown.
 *
 * By default only the active branch is listed; with `allBranches`, every entry of the tree,
 * depth first, each abandoned branch right after the entry it left from.
 */
import { RecallError } from "../errors.js";
import { EntryFile } from "./entries.js";
import { renderEntry, type TranscriptMode } from "./entry-text.js";
import { activeBranch, depthFirst, type SessionTree, type TreeEntry } from "./session-tree.js";

export { TRANSCRIPT_MODES, type TranscriptMode } from "./entry-text.js";

export interface TranscriptItem {
  /** Position in this transcript, from 0. */
  index: number;
  entryId: string;
  /**
   * Pi's role (`user`, `assistant`, `custom`, `toolResult`, `bashExecution`) or the entry type
   * (`compaction`, `branch_summary`).
   */
  role: string;
  /** ms since epoch */
  timestamp: number;
  text: string;
  /** Whether the entry is on the active branch. */
  branch: "active" | "abandoned";
  /** Tool results: the tool that produced them. */
  toolName?: string;
  /** Tool results and shell commands that failed. */
  isError?: boolean;
}

/** An item of the transcript before its text is read. */
export interface ListedEntry {
  index: number;
  entry: TreeEntry;
  branch: "active" | "abandoned";
}

export interface TranscriptOptions {
  mode: TranscriptMode;
  allBranches: boolean;
}

/** The whole transcript, every text read. */
export function transcript(tree: SessionTree, options: TranscriptOptions): TranscriptItem[] {
  return [...readListed(tree, listTranscript(tree, options), options.mode)];
}

/** Which entries the transcript lists, in order, without reading their text. */
export function listTranscript(tree: SessionTree, options: TranscriptOptions): ListedEntry[] {
  const active = activeBranch(tree);
  const onActive = new Set(active);
  const listed: ListedEntry[] = [];
  for (const entry of options.allBranches ? depthFirst(tree) : active) {
    if (entry.shownAs[options.mode] === undefined) continue;
    listed.push({
      index: listed.length,
      entry,
      branch: onActive.has(entry) ? "active" : "abandoned",
    });
  }
  return listed;
}

/**
 * The items of `listed`, each read from the file when it is reached: a caller that stops early
 * (a page that is full) has read only what it showed.
 */
export function* readListed(
  tree: SessionTree,
  listed: Iterable<ListedEntry>,
  mode: TranscriptMode,
): Generator<TranscriptItem> {
  const file = new EntryFile(tree.path);
  try {
    for (const { index, entry, branch } of listed) {
      const value = file.read(entry.place);
      const rendered = value && renderEntry(entry.type, value, mode);
      if (
        !rendered ||
        rendered.role !== entry.shownAs[mode] ||
        (typeof value.id === "string" && tree.header.version >= 2 && value.id !== entry.id)
      ) {
        throw new RecallError(
          "SESSION_REPLACED",
          `${tree.path} was rewritten while it was read; read it again`,
        );
      }
      yield { index, entryId: entry.id, timestamp: entry.timestamp, branch, ...rendered };
    }
  } finally {
    file.close();
  }
}
