/**
 * Reading one session: its messages along the active branch (or all branches), in conversation
 * or raw form, one page at a time. A page holds at most `maxChars` characters of message text;
 * a message longer than a whole page is split across pages. Each page ends with a cursor for the
 * next one, tied to the file's content (see read-cursor.ts). Only the messages of the page are
 * read in full: a page of a huge session takes the memory of the page, not of the session.
 */
import { RecallError } from "../errors.js";
import { readSessionTree } from "../sessions/session-tree.js";
import {
  listTranscript,
  readListed,
  type TranscriptItem,
  type TranscriptMode,
} from "../sessions/transcript.js";
import {
  decodeCursor,
  encodeCursor,
  fingerprint,
  START_AGAIN,
  type ReadCursor,
} from "./read-cursor.js";
import type { SessionRef } from "./resolve-session.js";
import { iso } from "../answers/session-summary.js";
import { checkedPageChars, DEFAULT_PAGE_CHARS } from "../answers/limits.js";
import type { ReadMessage, ReadPage } from "../answers/read-page.js";

export interface ReadOptions {
  /** Default `conversation`, or the cursor's mode. */
  mode?: TranscriptMode;
  /** Also list abandoned branches. Default false, or the cursor's choice. */
  allBranches?: boolean;
  /** Start with the latest N messages (ignored with a cursor, which knows where to go on). */
  limit?: number;
  /** Characters of message text per page (default 100,000). */
  maxChars?: number;
  /** Continue where the page that printed this cursor stopped. */
  cursor?: string;
}

export interface ReadResult {
  messages: ReadMessage[];
  page: ReadPage;
}

interface Position {
  item: number;
  char: number;
}

interface Piece {
  item: TranscriptItem;
  start: number;
  end: number;
}

export function readSession(session: SessionRef, options: ReadOptions = {}): ReadResult {
  const maxChars = checkedPageChars(options.maxChars ?? DEFAULT_PAGE_CHARS);
  // Taken before the file is parsed: if Pi appends in between, the cursor describes the older
  // content and is refused next time, which is safe.
  const file = fingerprint(session.path);
  const cursor =
    options.cursor === undefined
      ? undefined
      : checkCursor(decodeCursor(options.cursor), session, file.size, file.sha1, options);
  const mode = cursor?.mode ?? options.mode ?? "conversation";
  const allBranches = cursor?.allBranches ?? options.allBranches ?? false;

  const tree = readSessionTree(session.path);
  const listed = listTranscript(tree, { mode, allBranches });
  const start: Position = cursor ?? {
    item: options.limit === undefined ? 0 : Math.max(0, listed.length - options.limit),
    char: 0,
  };
  if (start.item > listed.length) throw stale();
  const { pieces, next } = paginate(
    readListed(tree, listed.slice(start.item), mode),
    start.char,
    maxChars,
  );

  const messages = pieces.map((piece) => toMessage(piece, allBranches));
  const page: ReadPage = {
    type: "page",
    id: session.id,
    path: session.path,
    cwd: session.cwd,
    name: tree.name,
    mode,
    allBranches,
    total: listed.length,
    from: pieces[0]?.item.index ?? null,
    count: pieces.length,
    chars: pieces.reduce((sum, p) => sum + p.end - p.start, 0),
    nextCursor: next
      ? encodeCursor({ sessionId: session.id, mode, allBranches, ...next, ...file })
      : null,
  };
  return { messages, page };
}

function stale(): RecallError {
  return new RecallError("STALE_CURSOR", "session changed since this cursor was made", {
    field: "cursor",
    hint: START_AGAIN,
  });
}

function checkCursor(
  cursor: ReadCursor,
  session: SessionRef,
  size: number,
  sha1: string,
  options: ReadOptions,
): ReadCursor {
  if (cursor.sessionId !== session.id) {
    throw new RecallError(
      "CURSOR_MISMATCH",
      `this cursor belongs to session ${cursor.sessionId}, not ${session.id}`,
      { field: "cursor" },
    );
  }
  if (cursor.size !== size || cursor.sha1 !== sha1) throw stale();
  if (options.mode !== undefined && options.mode !== cursor.mode) {
    throw new RecallError("CURSOR_MISMATCH", `this cursor continues a ${cursor.mode} listing`, {
      field: "mode",
      value: cursor.mode,
      hint: START_AGAIN,
    });
  }
  if (options.allBranches !== undefined && options.allBranches !== cursor.allBranches) {
    throw new RecallError(
      "CURSOR_MISMATCH",
      `this cursor continues a listing ${cursor.allBranches ? "with" : "without"} abandoned branches`,
      { field: "allBranches", value: String(cursor.allBranches), hint: START_AGAIN },
    );
  }
  return cursor;
}

/**
 * Fills a page with `items`, the first from character `char` on; a message too long for a whole
 * page is split across pages. Stops reading items once the page is full.
 */
function paginate(
  items: Iterable<TranscriptItem>,
  char: number,
  maxChars: number,
): { pieces: Piece[]; next: Position | null } {
  const pieces: Piece[] = [];
  let budget = maxChars;
  for (const current of items) {
    const rest = current.text.length - char;
    if (rest <= budget) {
      pieces.push({ item: current, start: char, end: current.text.length });
      budget -= rest;
      char = 0;
      continue;
    }
    if (pieces.length > 0) return { pieces, next: { item: current.index, char: 0 } };
    const end = splitPoint(current.text, char, budget);
    pieces.push({ item: current, start: char, end });
    return { pieces, next: { item: current.index, char: end } };
  }
  return { pieces, next: null };
}

/**
 * Where to cut `text` after at most `max` characters from `from`: at a space if one is near, never
 * inside a surrogate pair.
 */
function splitPoint(text: string, from: number, max: number): number {
  let end = from + max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  const floor = Math.max(from + Math.floor(max / 2), end - 200);
  for (let i = end; i > floor; i--) if (/\s/.test(text[i - 1]!)) return i;
  return end;
}

function toMessage(piece: Piece, allBranches: boolean): ReadMessage {
  const { item } = piece;
  const split = piece.start > 0 || piece.end < item.text.length;
  return {
    type: "message",
    index: item.index,
    entryId: item.entryId,
    role: item.role,
    timestamp: iso(item.timestamp),
    text: split ? item.text.slice(piece.start, piece.end) : item.text,
    ...(allBranches ? { branch: item.branch } : {}),
    ...(item.toolName === undefined ? {} : { toolName: item.toolName }),
    ...(item.isError === undefined ? {} : { isError: item.isError }),
    ...(split ? { textOffset: piece.start, textLength: item.text.length } : {}),
  };
}
