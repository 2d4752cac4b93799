/**
 * The conversation a context is chosen from (context.ts), read as the choice needs it rather than
 * held whole: every message in order a part at a time (to score them), then only the messages
 * picked, by their index. A session of hundreds of megabytes is chosen from in memory that grows
 * with its number of entries, as `read` reads it (session-tree.ts), not with its text.
 */
import { readSessionTree } from "../sessions/session-tree.js";
import { listTranscript, readListed, type TranscriptItem } from "../sessions/transcript.js";

export interface ContextMessages {
  /** Messages in the conversation. */
  count: number;
  /** The text of every message in order, in parts of about PART_TEXT_CHARS characters. */
  textsInParts(): Iterable<string[]>;
  /** The messages at these indexes, each read when the iteration reaches it. */
  read(indexes: Iterable<number>): Iterable<TranscriptItem>;
}

/** Text of the messages of one part: what is held at once while scoring. */
const PART_TEXT_CHARS = 4 << 20;

/** Messages already in memory. */
export function heldMessages(items: readonly TranscriptItem[]): ContextMessages {
  return {
    count: items.length,
    textsInParts: () => [items.map((item) => item.text)],
    *read(indexes) {
      for (const index of indexes) yield items[index]!;
    },
  };
}

/**
 * The conversation of a session file (its active branch, or every branch), read from the file as
 * needed.
 */
export function fileMessages(path: string, allBranches: boolean): ContextMessages {
  const tree = readSessionTree(path);
  const listed = listTranscript(tree, { mode: "conversation", allBranches });
  return {
    count: listed.length,
    *textsInParts() {
      let part: string[] = [];
      let chars = 0;
      for (const { text } of readListed(tree, listed, "conversation")) {
        part.push(text);
        chars += text.length;
        if (chars < PART_TEXT_CHARS) continue;
        yield part;
        part = [];
        chars = 0;
      }
      if (part.length > 0) yield part;
    },
    read(indexes) {
      return readListed(tree, listedAt(indexes), "conversation");
    },
  };

  function* listedAt(indexes: Iterable<number>) {
    for (const index of indexes) yield listed[index]!;
  }
}
