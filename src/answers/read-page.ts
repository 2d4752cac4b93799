/**
 * A page of a session's messages, as the library answers it for a session on this machine and for
 * one in a team archive alike.
 */
import type { TranscriptMode } from "../sessions/transcript.js";

export interface ReadMessage {
  type: "message";
  /** Position in the session's listing (same mode and branches), from 0. */
  index: number;
  /** The entry's id in the file (`L<line>` for legacy v1 entries): what search hits name. */
  entryId: string;
  role: string;
  /** ISO 8601 */
  timestamp: string;
  text: string;
  /** Only with all branches. */
  branch?: "active" | "abandoned";
  toolName?: string;
  isError?: boolean;
  /** Only on a message split across pages: where this piece starts in its text… */
  textOffset?: number;
  /** …and the length of the whole text. */
  textLength?: number;
}

export interface ReadPage {
  type: "page";
  id: string;
  path: string;
  cwd: string;
  name: string | null;
  mode: TranscriptMode;
  allBranches: boolean;
  /** Messages in the whole listing. */
  total: number;
  /** Index of the first message on this page; null for an empty page. */
  from: number | null;
  /** Messages (or pieces of one) on this page. */
  count: number;
  /** Characters of message text on this page. */
  chars: number;
  /** Pass to `--cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}
