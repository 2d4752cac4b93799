/**
 * What a session sends to an archive: one document per indexed message (the units of the local
 * index: joined same-role messages, and thinking, calls and output as their own kinds), of the
 * kinds the remote takes, redacted unless the remote says not to. Ids are stable — the session id
 * and the entry id, plus the kind and its place in the entry for other kinds — so a second push
 * of the same message, from this machine or another, overwrites it.
 */
import type { IndexedMessage, SessionRead } from "../sessions/session-index-reader.js";
import { redact } from "./redact.js";
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
  /** Secrets removed from `text`. */
  redactions: number;
}

export interface IdentifiedDocument {
  id: string;
  document: ArchiveDocument;
  /** Secrets removed, by what they were. */
  redacted: Record<string, number>;
}

const CONTENT_OF = { thinking: "thinking", call: "calls", output: "outputs" } as const;

function contentOf(message: IndexedMessage): PushedContent {
  return message.kind ? CONTENT_OF[message.kind] : "conversation";
}

/** The documents of the messages of one read of a session file, carrying the session's tags. */
export function sessionDocuments(read: SessionRead, remote: Remote, tags: readonly string[]): IdentifiedDocument[] {
  const documents: IdentifiedDocument[] = [];
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
    const cleaned = remote.redact ? redact(message.text) : { text: message.text, counts: {}, total: 0 };
    documents.push({
      id,
      redacted: cleaned.counts,
      document: {
        session_id: read.header.id,
        entry_id: message.entryId,
        position: message.index,
        role: message.role,
        kind,
        ...(message.tool ? { tool: message.tool } : {}),
        text: cleaned.text,
        ...(read.name ? { session_name: read.name } : {}),
        tags: [...tags],
        project: read.header.cwd,
        folder: read.header.cwd,
        machine: remote.machine,
        user: remote.user,
        timestamp: message.timestamp,
        session_created: read.header.created,
        redactions: cleaned.total,
      },
    });
  }
  return documents;
}
