/**
 * The part of one session that bears on a question, within a character budget, with no model
 * involved: the same session and question always give the same answer.
 *
 * Messages of the conversation (active branch by default) are scored against the question's
 * words with BM25, in the native core, whose words are the index's (native/src/words/relevance.rs):
 * a question finds here what it finds in a search. First come the matching messages, best first
 * (ties: the later message first), down to a quarter of the best score: each whole if it fits, else
 * cut to the part around its rarest matched word. Then, with the budget left and in the same order,
 * each match's neighbours, the message before and the one after, cut to at most 1,000 characters
 * (the end of the one before, the start of the one after), so an answer comes with its question.
 * The result is in conversation order. The messages are read from the file twice, to score them and
 * then only those picked (context-messages.ts), never all held at once.
 */
import { RecallError } from "../errors.js";
import type { TranscriptItem } from "../sessions/transcript.js";
import { questionTerms, scoreTextsInParts } from "../native/words.js";
import { fileMessages, heldMessages, type ContextMessages } from "./context-messages.js";
import type { SessionRef } from "./resolve-session.js";
import { iso } from "../answers/session-summary.js";
import type { ReadMessage } from "../answers/read-page.js";

export interface ContextOptions {
  /** Characters of message text in all (default 20,000). */
  maxChars?: number;
  /** Consider abandoned branches too. */
  allBranches?: boolean;
}

/** A message as `recall read` lists it (same index and fields), with how it was chosen. */
export interface ContextMessage extends Pick<
  ReadMessage,
  "type" | "index" | "entryId" | "role" | "timestamp" | "text" | "branch"
> {
  /** BM25 score against the question; 0 for a neighbour that does not match. */
  score: number;
  /** True when `text` is only part of the message (`…` marks the cuts). */
  clipped: boolean;
}

export interface ContextSummary {
  type: "context";
  id: string;
  path: string;
  question: string;
  /** The words looked for. */
  terms: string[];
  /** Messages that contain at least one of the words. */
  matched: number;
  /** Messages in the conversation. */
  total: number;
  /** Characters of message text given. */
  chars: number;
  maxChars: number;
}

export interface ContextResult {
  messages: ContextMessage[];
  summary: ContextSummary;
}

export const DEFAULT_CONTEXT_CHARS = 20_000;
const NEIGHBOUR_CHARS = 1000;
/**
 * A match scoring under this fraction of the best one mentions the question only in passing: left
 * out.
 */
const WEAK_MATCH = 0.25;
/** A piece shorter than this says too little to be worth giving. */
const MIN_PIECE_CHARS = 80;

export function sessionContext(
  session: SessionRef,
  question: string,
  options: ContextOptions = {},
): ContextResult {
  const prepared = prepare(session, question, options);
  if (prepared.terms.length === 0)
    throw new RecallError("BAD_INPUT", "the question has no words to look for");
  const { picked, matched } = selectContext(prepared.messages, prepared.terms, prepared.maxChars);
  return contextResult(session, question, prepared, picked, matched);
}

/**
 * `sessionContext`, or, when no message holds a word of the question (a general one: "summarize
 * what happened here"), a sample of the conversation within the same budget: its start and its end
 * (`sampled`). For asking a model, which can answer such a question from a sample.
 */
export function sessionContextOrSample(
  session: SessionRef,
  question: string,
  options: ContextOptions = {},
): ContextResult & { sampled: boolean } {
  const prepared = prepare(session, question, options);
  const { picked, matched } =
    prepared.terms.length > 0
      ? selectContext(prepared.messages, prepared.terms, prepared.maxChars)
      : { picked: [], matched: 0 };
  if (matched > 0)
    return { ...contextResult(session, question, prepared, picked, matched), sampled: false };
  return {
    ...contextResult(
      session,
      question,
      prepared,
      selectSample(prepared.messages, prepared.maxChars),
      0,
    ),
    sampled: true,
  };
}

interface Prepared {
  messages: ContextMessages;
  terms: string[];
  maxChars: number;
  allBranches: boolean;
}

function prepare(session: SessionRef, question: string, options: ContextOptions): Prepared {
  const maxChars = options.maxChars ?? DEFAULT_CONTEXT_CHARS;
  if (!Number.isInteger(maxChars) || maxChars < MIN_PIECE_CHARS) {
    throw new RecallError(
      "BAD_INPUT",
      `maxChars must be a whole number of at least ${MIN_PIECE_CHARS}, not ${maxChars}`,
      { field: "maxChars" },
    );
  }
  const terms = questionTerms(question);
  const allBranches = options.allBranches ?? false;
  return { messages: fileMessages(session.path, allBranches), terms, maxChars, allBranches };
}

function contextResult(
  session: SessionRef,
  question: string,
  { messages: conversation, terms, maxChars, allBranches }: Prepared,
  picked: PickedMessage[],
  matched: number,
): ContextResult {
  const messages = picked.map(({ item, text, clipped, score }) => ({
    type: "message" as const,
    index: item.index,
    entryId: item.entryId,
    role: item.role,
    timestamp: iso(item.timestamp),
    text,
    score: Math.round(score * 1000) / 1000,
    clipped,
    ...(allBranches ? { branch: item.branch } : {}),
  }));
  const summary: ContextSummary = {
    type: "context",
    id: session.id,
    path: session.path,
    question,
    terms,
    matched,
    total: conversation.count,
    chars: messages.reduce((sum, m) => sum + m.text.length, 0),
    maxChars,
  };
  return { messages, summary };
}

/**
 * A message of a sample gives at most this much (its start), so the sample shows more of the
 * session's course.
 */
const SAMPLE_MESSAGE_CHARS = 2000;

/**
 * The start and the end of the conversation within `maxChars`: half the budget from the first
 * message on, the rest from the last message back, each message whole or its start; a session
 * that fits is given whole. In conversation order.
 */
export function selectSample(messages: ContextMessages, maxChars: number): PickedMessage[] {
  const picked = new Map<number, PickedMessage>();
  let remaining = maxChars;
  const take = (order: Iterable<number>, budget: number) => {
    let left = budget;
    const cap = () => Math.min(SAMPLE_MESSAGE_CHARS, left, remaining);
    // Read only as far as the budget goes.
    function* wanted() {
      for (const index of order) {
        if (cap() < MIN_PIECE_CHARS) return;
        if (!picked.has(index)) yield index;
      }
    }
    for (const item of messages.read(wanted())) {
      const piece = clip(item.text, cap(), "start");
      picked.set(item.index, { item: listed(item), ...piece, score: 0 });
      left -= piece.text.length;
      remaining -= piece.text.length;
    }
  };
  take(indexes(0, messages.count, 1), Math.floor(maxChars / 2));
  take(indexes(messages.count - 1, -1, -1), remaining);
  return [...picked.values()].sort((a, b) => a.item.index - b.item.index);
}

function* indexes(from: number, to: number, step: 1 | -1): Generator<number> {
  for (let index = from; index !== to; index += step) yield index;
}

export interface PickedMessage {
  /** The message as listed; its text is `text`, whole or clipped. */
  item: Omit<TranscriptItem, "text">;
  text: string;
  clipped: boolean;
  score: number;
}

/** The item without its text, which a picked message holds clipped (a message can be megabytes). */
function listed({ text: _, ...item }: TranscriptItem): Omit<TranscriptItem, "text"> {
  return item;
}

/**
 * The selection itself, on a conversation already listed (or held, as a test gives it): the
 * messages picked, in conversation order, and how many matched. Every message is read once to
 * score it, then only those taken, best first, as far as the budget goes.
 */
export function selectContext(
  conversation: ContextMessages | readonly TranscriptItem[],
  terms: string[],
  maxChars: number,
): { picked: PickedMessage[]; matched: number } {
  const messages = "read" in conversation ? conversation : heldMessages(conversation);
  const scored = scoreTextsInParts(messages.textsInParts(), terms);
  const scoreOf = new Map(scored.map((s) => [s.index, s]));
  const ranked = [...scored].sort((a, b) => b.score - a.score || b.index - a.index);
  const picked = new Map<number, PickedMessage>();
  let remaining = maxChars;
  const take = (item: TranscriptItem, cap: number, focus: Focus) => {
    const piece = clip(item.text, cap, focus);
    picked.set(item.index, {
      item: listed(item),
      ...piece,
      score: scoreOf.get(item.index)?.score ?? 0,
    });
    remaining -= piece.text.length;
  };

  const cutoff = (ranked[0]?.score ?? 0) * WEAK_MATCH;
  function* matches() {
    for (const hit of ranked) {
      if (remaining < MIN_PIECE_CHARS || hit.score < cutoff) return;
      yield hit.index;
    }
  }
  for (const hit of messages.read(matches())) take(hit, remaining, scoreOf.get(hit.index)!.focus);

  const hits = [...picked.values()];
  /**
   * Which end of each neighbour to keep: the end of the one before a match, the start of the one
   * after.
   */
  const sides = new Map<number, Focus>();
  const neighbourCap = () => Math.min(NEIGHBOUR_CHARS, remaining);
  function* neighbours() {
    for (const hit of hits) {
      for (const n of [hit.item.index - 1, hit.item.index + 1]) {
        if (n < 0 || n >= messages.count || picked.has(n) || neighbourCap() < MIN_PIECE_CHARS)
          continue;
        sides.set(n, n < hit.item.index ? "end" : "start");
        yield n;
      }
    }
  }
  for (const neighbour of messages.read(neighbours()))
    take(neighbour, neighbourCap(), sides.get(neighbour.index)!);
  return {
    picked: [...picked.values()].sort((a, b) => a.item.index - b.item.index),
    matched: ranked.length,
  };
}

/** Which part of a long message to keep: its start, its end, or the text around an offset. */
type Focus = "start" | "end" | number;

/** At most `cap` characters of `text`, `…` marking each cut (and counted). */
function clip(text: string, cap: number, focus: Focus): { text: string; clipped: boolean } {
  if (text.length <= cap) return { text, clipped: false };
  if (focus === "start")
    return { text: `${text.slice(0, safeEnd(text, cap - 1))}…`, clipped: true };
  if (focus === "end")
    return { text: `…${text.slice(safeStart(text, text.length - (cap - 1)))}`, clipped: true };
  const room = cap - 2;
  // Some text before the match, most of the room after it: the match is what the reader wants.
  const start = safeStart(
    text,
    Math.min(Math.max(0, focus - Math.floor(room / 4)), text.length - room),
  );
  const end = safeEnd(text, start + room);
  return {
    text: `${start > 0 ? "…" : ""}${text.slice(start, end)}${end < text.length ? "…" : ""}`,
    clipped: true,
  };
}

/** Moves a cut forward off the second half of a surrogate pair. */
function safeStart(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff ? at + 1 : at;
}

/** Moves a cut back off the first half of a surrogate pair. */
function safeEnd(text: string, at: number): number {
  const code = text.charCodeAt(at - 1);
  return code >= 0xd800 && code <= 0xdbff ? at - 1 : at;
}
