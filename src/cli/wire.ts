/**
 * The JSON Lines the CLI prints with `--json`: the documented wire format (README, "JSON output"
 * and each command's section), kept apart from the library's types. Each record is built field by
 * field from the library's objects, so a field added to a library type never reaches the output
 * by accident, and a field here is a promise: fields may be added, none removed or changed in
 * meaning.
 */
import type { AskResult, AutoTagResult, DoctorCheck, ContextMessage, ContextSummary, ReadMessage, ReadPage, SearchHit, SessionSummary, SessionTags, TagCount } from "../index.js";
import { doctorFixWords } from "./error-words.js";

// Each record names its fields: a type picks them from the library's, and the function below it
// copies exactly those. A field the library adds reaches the output only once it is named here.

/** A session, as `list` prints it (and the first fields of a search hit). */
export type SessionRecord = Pick<SessionSummary, "id" | "path" | "cwd" | "name" | "created" | "modified" | "messageCount" | "firstMessage" | "parent" | "tags">;

/** A search hit: the session, then how it matched. */
export type SearchHitRecord = SessionRecord & Pick<SearchHit, "score" | "snippet" | "spans" | "calls"> & {
  message: { kind: string; tool?: string; role: string; index: number; entryId: string; timestamp: string } | null;
};

/** A message, as `read --json` prints it. */
export type MessageRecord = Pick<ReadMessage, "type" | "index" | "entryId" | "role" | "timestamp" | "text" | "branch" | "toolName" | "isError" | "textOffset" | "textLength">;

/** The line that ends a page of `read --json`. */
export type PageRecord = Pick<ReadPage, "type" | "id" | "path" | "cwd" | "name" | "mode" | "allBranches" | "total" | "from" | "count" | "chars" | "nextCursor">;

/** A message, as `context --json` prints it. */
export type ContextMessageRecord = MessageRecord & Pick<ContextMessage, "score" | "clipped">;

/** The line that ends `context --json`. */
export type ContextRecord = Pick<ContextSummary, "type" | "id" | "path" | "question" | "terms" | "matched" | "total" | "chars" | "maxChars">;

/** `tag`, `untag` and `tags <session>` with `--json`. */
export type SessionTagsRecord = Pick<SessionTags, "id" | "path" | "tags" | "manual" | "auto" | "suppressed">;

/** `tags --json` without sessions. */
export type TagCountRecord = Pick<TagCount, "tag" | "sessions">;

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
    message: m
      ? { kind: m.kind, ...(m.tool === null ? {} : { tool: m.tool }), role: m.role, index: m.index, entryId: m.entryId, timestamp: m.timestamp }
      : null,
    snippet: hit.snippet,
    spans: hit.spans.map(([start, end]) => [start, end]),
    ...(hit.calls === undefined ? {} : { calls: hit.calls.map((c) => ({ tool: c.tool, path: c.path, entryId: c.entryId })) }),
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
  /** The messages the answer cites. */
  messages: { index: number; entryId: string; role: string; timestamp: string }[];
  /** How many messages were sent. */
  sent: number;
  /** Whether the start and end of the session were sent, no message holding a word of the question. */
  sampled: boolean;
}

export function askRecord(r: AskResult): AskRecord {
  return {
    answer: r.answer,
    model: r.model,
    messages: r.messages.map((m) => ({ index: m.index, entryId: m.entryId, role: m.role, timestamp: m.timestamp })),
    sent: r.sent,
    sampled: r.sampled,
  };
}

/** `recall doctor --json`: one per check (then a summary the command writes). */
export type DoctorCheckRecord = { type: "check" } & Pick<DoctorCheck, "name" | "ok" | "message"> & { fix: string | null };

export function doctorCheckRecord(c: DoctorCheck): DoctorCheckRecord {
  return { type: "check", name: c.name, ok: c.ok, message: c.message, fix: c.fix && doctorFixWords(c.fix) };
}
