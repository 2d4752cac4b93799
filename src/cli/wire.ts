/**
 * The JSON Lines the CLI prints with `--json`: the documented wire format (README, "JSON output"
 * and each command's section), kept apart from the library's types. Each record is built field by
 * field from the library's objects, so a field added to a library type never reaches the output
 * by accident, and a field here is a promise: fields may be added, none removed or changed in
 * meaning.
 */
import type { AskResult, AutoTagResult, ContextMessage, ContextSummary, ReadMessage, ReadPage, SearchHit, SessionSummary, SessionTags, TagCount } from "../index.js";

/** A session, as `list` prints it (and the first fields of a search hit). */
export interface SessionRecord {
  id: string;
  path: string;
  cwd: string;
  name: string | null;
  created: string;
  modified: string;
  messageCount: number;
  firstMessage: string;
  parent: string | null;
  tags: string[];
}

/** A search hit: the session, then how it matched. */
export interface SearchHitRecord extends SessionRecord {
  score: number;
  message: { role: string; index: number; entryId: string; timestamp: string } | null;
  snippet: string;
  spans: [number, number][];
}

export interface MessageRecord {
  type: "message";
  index: number;
  entryId: string;
  role: string;
  timestamp: string;
  text: string;
  branch?: "active" | "abandoned";
  toolName?: string;
  isError?: boolean;
  textOffset?: number;
  textLength?: number;
}

export interface PageRecord {
  type: "page";
  id: string;
  path: string;
  cwd: string;
  name: string | null;
  mode: string;
  allBranches: boolean;
  total: number;
  from: number | null;
  count: number;
  chars: number;
  nextCursor: string | null;
}

export interface ContextMessageRecord extends MessageRecord {
  score: number;
  clipped: boolean;
}

export interface ContextRecord {
  type: "context";
  id: string;
  path: string;
  question: string;
  terms: string[];
  matched: number;
  total: number;
  chars: number;
  maxChars: number;
}

export interface SessionTagsRecord {
  id: string;
  path: string;
  tags: string[];
  manual: string[];
  auto: string[];
  suppressed: string[];
}

export interface TagCountRecord {
  tag: string;
  sessions: number;
}

export function sessionRecord(s: SessionSummary): SessionRecord {
  return {
    id: s.id,
    path: s.path,
    cwd: s.cwd,
    name: s.name,
    created: s.created,
    modified: s.modified,
    messageCount: s.messageCount,
    firstMessage: s.firstMessage,
    parent: s.parent,
    tags: [...s.tags],
  };
}

export function searchHitRecord(hit: SearchHit): SearchHitRecord {
  const m = hit.message;
  return {
    ...sessionRecord(hit),
    score: hit.score,
    message: m ? { role: m.role, index: m.index, entryId: m.entryId, timestamp: m.timestamp } : null,
    snippet: hit.snippet,
    spans: hit.spans.map(([start, end]) => [start, end]),
  };
}

export function messageRecord(m: ReadMessage | ContextMessage): MessageRecord {
  return {
    type: "message",
    index: m.index,
    entryId: m.entryId,
    role: m.role,
    timestamp: m.timestamp,
    text: m.text,
    ...(m.branch === undefined ? {} : { branch: m.branch }),
    ...("toolName" in m && m.toolName !== undefined ? { toolName: m.toolName } : {}),
    ...("isError" in m && m.isError !== undefined ? { isError: m.isError } : {}),
    ...("textOffset" in m && m.textOffset !== undefined ? { textOffset: m.textOffset } : {}),
    ...("textLength" in m && m.textLength !== undefined ? { textLength: m.textLength } : {}),
  };
}

export function pageRecord(p: ReadPage): PageRecord {
  return {
    type: "page",
    id: p.id,
    path: p.path,
    cwd: p.cwd,
    name: p.name,
    mode: p.mode,
    allBranches: p.allBranches,
    total: p.total,
    from: p.from,
    count: p.count,
    chars: p.chars,
    nextCursor: p.nextCursor,
  };
}

export function contextMessageRecord(m: ContextMessage): ContextMessageRecord {
  return { ...messageRecord(m), score: m.score, clipped: m.clipped };
}

export function contextRecord(c: ContextSummary): ContextRecord {
  return {
    type: "context",
    id: c.id,
    path: c.path,
    question: c.question,
    terms: [...c.terms],
    matched: c.matched,
    total: c.total,
    chars: c.chars,
    maxChars: c.maxChars,
  };
}

export function sessionTagsRecord(t: SessionTags): SessionTagsRecord {
  return { id: t.id, path: t.path, tags: [...t.tags], manual: [...t.manual], auto: [...t.auto], suppressed: [...t.suppressed] };
}

export function tagCountRecord(c: TagCount): TagCountRecord {
  return { tag: c.tag, sessions: c.sessions };
}

/** `recall autotag --json`: one per session. */
export type AutoTagRecord =
  | { type: "tagged"; id: string; path: string; tags: string[]; saved: boolean }
  | { type: "failed" | "skipped"; id: string; path: string; reason: string };

export function autoTagRecord(r: AutoTagResult): AutoTagRecord {
  return r.type === "tagged" ? { type: "tagged", id: r.id, path: r.path, tags: [...r.tags], saved: r.saved } : { type: r.type, id: r.id, path: r.path, reason: r.reason };
}

/** `recall ask --json`. */
export interface AskRecord {
  answer: string;
  model: string | null;
  messages: { index: number; entryId: string; role: string; timestamp: string }[];
}

export function askRecord(r: AskResult): AskRecord {
  return { answer: r.answer, model: r.model, messages: r.messages.map((m) => ({ index: m.index, entryId: m.entryId, role: m.role, timestamp: m.timestamp })) };
}
