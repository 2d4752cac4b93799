/**
 * What a session sends to an archive: one document per indexed message (the units of the local
 * index: joined same-role messages, and thinking, calls and output as their own kinds), of the
 * kinds the remote takes, redacted unless the remote says not to. Ids are stable — the session id
 * and the entry id, plus the kind and its place in the entry for other kinds — so a second push
 * of the same message, from this machine or another, overwrites it.
 *
 * Every string of a document is redacted, not a list of fields: its text, the session's name,
 * folder, project and tags, the tool's name, and the rest. The read is whole (`ReadOptions.whole`):
 * a call's arguments and an output are redacted first and cut after, as the index cuts them, so a
 * cut never leaves part of a secret that the rules would no longer recognize.
 */
import { callTextOf, cappedOutput } from "../sessions/other-text.js";
import type { IndexedMessage, SessionRead } from "../sessions/session-index-reader.js";
import { projectOf } from "../sessions/project-identity.js";
import { redactTexts, type Redacted } from "./redact.js";
import type { PushedContent, Remote } from "./remotes.js";

export interface ArchiveDocument {
  session_id: string;
  entry_id: string;
  position: number;
  role: string;
  kind: PushedContent;
  tool?: string;
  text: string;
  session_name?: string;
  /** The session's tags on this machine when pushed (manual and automatic). */
  tags: string[];
  project: string;
  folder: string;
  machine: string;
  user: string;
  timestamp: number;
  session_created: number;
  /** Secrets removed from this document, in any of its fields. */
  redactions: number;
}

/** Secrets removed, by where they were (`Place`) and what they were. */
export type Redactions = Record<string, Record<string, number>>;

/**
 * Where a secret was: the text of a message of each kind, or the document's field it was in
 * (`session-name`, `folder`, `project`, `tags`, `tool`, …); `kept-file` for a kept session file.
 */
export type Place = "message" | "thinking" | "tool-call" | "tool-output" | "kept-file" | string;

export interface IdentifiedDocument {
  id: string;
  document: ArchiveDocument;
  /**
   * Secrets removed, by what they were: from this document's own fields, and, in the first
   * document of a read, from the session's (its name, folder, project, tags), counted once.
   */
  redacted: Record<string, number>;
  /** The same secrets by where they were. */
  places: Redactions;
}

const CONTENT_OF = { thinking: "thinking", call: "calls", output: "outputs" } as const;
const TEXT_PLACE = {
  conversation: "message",
  thinking: "thinking",
  calls: "tool-call",
  outputs: "tool-output",
} as const;
/** Fields every document of a session carries alike. */
const SESSION_FIELDS = new Set([
  "session_id",
  "session_name",
  "tags",
  "project",
  "folder",
  "machine",
  "user",
]);

function contentOf(message: IndexedMessage): PushedContent {
  return message.kind ? CONTENT_OF[message.kind] : "conversation";
}

/**
 * The place of a document's field: its text's by the message's kind, others by name (`session_name`
 * → `session-name`).
 */
function placeOf(field: string, kind: PushedContent): Place {
  return field === "text" ? TEXT_PLACE[kind] : field.replace(/_/g, "-");
}

/**
 * A message's text as the index cuts it, from its whole text (or, for a call, its whole argument
 * values).
 */
function cutText(
  message: IndexedMessage,
  tool: string | undefined,
  text: string,
  values: readonly string[] | undefined,
): string {
  if (message.kind === "call" && values) return callTextOf(tool ?? message.tool ?? "", values);
  if (message.kind === "output") return cappedOutput(text);
  return text;
}

/**
 * Redacts every string of `documents` at once: each string once (a session's fields repeat in all
 * its documents), each secret counted where it was.
 */
async function redactDocuments(
  drafts: Draft[],
  sessionCounted: boolean,
): Promise<IdentifiedDocument[]> {
  const strings = new Map<string, number>();
  const add = (text: string) => {
    if (!strings.has(text)) strings.set(text, strings.size);
  };
  // A project is named from its folder (project-identity.ts), in a way that may change a secret's
  // shape (`//` becomes `/`): a folder that holds a secret names its project once redacted.
  const folders = [...new Set(drafts.map((d) => d.document.folder))];
  const cleanFolders = new Map((await redactTexts(folders)).map((r, i) => [folders[i]!, r]));
  for (const draft of drafts) {
    const folder = cleanFolders.get(draft.document.folder)!;
    if (folder.total > 0) draft.document.project = projectOf(folder.text);
  }
  for (const draft of drafts) {
    for (const value of Object.values(draft.document)) {
      if (typeof value === "string") add(value);
      else if (Array.isArray(value)) for (const item of value) add(item as string);
    }
    for (const value of draft.values ?? []) add(value);
  }
  const cleaned = await redactTexts([...strings.keys()]);
  const clean = (text: string): Redacted => cleaned[strings.get(text)!]!;
  return drafts.map((draft, index) => {
    const places: Redactions = {};
    const redacted: Record<string, number> = {};
    let total = 0;
    const count = (field: string, result: Redacted) => {
      total += result.total;
      // A session's fields are counted in the first document of the read only (of its first part).
      if (result.total === 0 || ((index > 0 || sessionCounted) && SESSION_FIELDS.has(field)))
        return;
      const place = (places[placeOf(field, draft.document.kind)] ??= {});
      for (const [kind, n] of Object.entries(result.counts)) {
        place[kind] = (place[kind] ?? 0) + n;
        redacted[kind] = (redacted[kind] ?? 0) + n;
      }
    };
    const document = { ...draft.document };
    const fields = document as unknown as Record<string, unknown>;
    for (const [field, value] of Object.entries(document)) {
      if (field === "text") continue;
      if (typeof value === "string") {
        const result = clean(value);
        count(field, result);
        fields[field] = result.text;
      } else if (Array.isArray(value)) {
        const results = (value as string[]).map(clean);
        for (const result of results) count(field, result);
        fields[field] = results.map((r) => r.text);
      }
    }
    if (draft.values) {
      const results = draft.values.map(clean);
      for (const result of results) count("text", result);
      document.text = cutText(
        draft.message,
        document.tool,
        "",
        results.map((r) => r.text),
      );
    } else {
      const result = clean(draft.document.text);
      count("text", result);
      document.text = cutText(draft.message, document.tool, result.text, undefined);
    }
    document.redactions = total;
    return { id: draft.id, document, redacted, places };
  });
}

interface Draft {
  id: string;
  message: IndexedMessage;
  /** The document before redaction and cutting: its text whole. */
  document: ArchiveDocument;
  values: readonly string[] | undefined;
}

/**
 * The documents of the messages of one read of a session file (read with `whole`), carrying the
 * session's tags; `sessionCounted`: the secrets in the session's own fields were counted with an
 * earlier part of the same read. A call or output's place among its entry's (its id) is counted
 * within the read: an entry's units are never split between parts.
 */
export async function sessionDocuments(
  read: SessionRead,
  remote: Remote,
  tags: readonly string[],
  sessionCounted = false,
): Promise<IdentifiedDocument[]> {
  const drafts: Draft[] = [];
  const ordinals = new Map<string, number>();
  for (const message of read.messages) {
    const kind = contentOf(message);
    let id = `${read.header.id}:${message.entryId}`;
    if (message.kind) {
      // One entry can hold several calls (or outputs): each gets its place among them.
      const key = `${message.entryId}:${message.kind}`;
      const ordinal = ordinals.get(key) ?? 0;
      ordinals.set(key, ordinal + 1);
      id += `:${message.kind}:${ordinal}`;
    }
    if (!remote.content.includes(kind)) continue;
    drafts.push({
      id,
      message,
      values: message.values,
      document: {
        session_id: read.header.id,
        entry_id: message.entryId,
        position: message.index,
        role: message.role,
        kind,
        ...(message.tool ? { tool: message.tool } : {}),
        text: message.text,
        ...(read.name ? { session_name: read.name } : {}),
        tags: [...tags],
        project: projectOf(read.header.cwd),
        folder: read.header.cwd,
        machine: remote.machine,
        user: remote.user,
        timestamp: message.timestamp,
        session_created: read.header.created,
        redactions: 0,
      },
    });
  }
  if (remote.redact) return redactDocuments(drafts, sessionCounted);
  return drafts.map(({ id, message, document, values }) => ({
    id,
    redacted: {},
    places: {},
    document: { ...document, text: cutText(message, document.tool, document.text, values) },
  }));
}
