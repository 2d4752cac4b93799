/**
 * A search hit, as the library answers it for this machine's index and for a team archive alike:
 * the session's summary, the message that matched and where, and which ranking found it.
 */
import type { TextKind } from "../sessions/content-scope.js";
import type { SessionSummary } from "./session-summary.js";

/**
 * What a search matches by: the words, the meaning, or both, their rankings fused (the default
 * where the model is installed; else the words).
 */
export const MATCH_MODES = ["words", "meaning", "both"] as const;
export type Match = (typeof MATCH_MODES)[number];

export interface FileCall {
  /** `read`, `edit`, `write` or `bash`. */
  tool: string;
  /** The file, absolute. */
  path: string;
  /** The entry the call is in (an assistant message, or a `!` command). */
  entryId: string;
}

export interface MatchedMessage {
  /** The kind of text that matched: what was said, or thinking, a tool call, a tool's output. */
  kind: TextKind;
  /** The tool of a `call` or `output`; null otherwise. */
  tool: string | null;
  role: string;
  /** Position among the session's indexed messages, from 0. */
  index: number;
  entryId: string;
  /** ISO 8601 */
  timestamp: string;
}

export interface SearchHit extends SessionSummary {
  score: number;
  /** The best matching message; null when only the session's tags matched. */
  message: MatchedMessage | null;
  /** About 200 characters around the match. */
  snippet: string;
  /** Matched words in `snippet` as [start, end) UTF-8 byte offsets. */
  spans: [number, number][];
  /** With `file`: the calls that touched it, in session order. */
  calls?: FileCall[];
  /**
   * With `match` meaning or both: which ranking found the session. A session only the meaning
   * found has the passage that matched as its snippet, with no marked words.
   */
  matchedBy?: Match;
}
