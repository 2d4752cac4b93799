/**
 * Reading one named session for a model: focused context for a question, or the conversation a
 * page at a time, each through the library's guarded reads (the file is checked before and after,
 * and must still be the file the reference was made with).
 */
import type { Origin, ReadMessage, ReadPage } from "../index.js";
import { oneLine } from "../output/plain-text.js";
import type { McpSessions } from "./sessions.js";
import { DEFAULT_CONTEXT_CHARS, DEFAULT_READ_CHARS } from "./schemas.js";
import { HISTORICAL } from "./results.js";
import { invalidCursor } from "./tool-error.js";
import type { Tokens } from "./tokens.js";

type Mode = "conversation" | "raw";

export interface ReadArgs {
  session_ref: string;
  cursor?: string;
  max_chars?: number;
  mode?: Mode;
}

export interface ContextArgs {
  session_ref: string;
  question: string;
  max_chars?: number;
  mode?: Mode;
}

const CONTEXT_RAW_NOTE =
  'focused context is chosen from the conversation only; use pi_session_read with mode: "raw" for tool calls and output';

export class SessionReader {
  constructor(
    private readonly sessions: McpSessions,
    private readonly tokens: Tokens,
  ) {}

  async read(args: ReadArgs): Promise<{ structured: Record<string, unknown>; text: string }> {
    const mode = args.mode ?? "conversation";
    const maxChars = args.max_chars ?? DEFAULT_READ_CHARS;
    const call = { session_ref: args.session_ref, mode, max_chars: maxChars };
    const inner = this.tokens.readCursor("pi_session_read", call, args.cursor);
    if (inner === "invalid") throw invalidCursor();
    const { messages, page, origin } = await this.page(
      args.session_ref,
      inner === undefined ? { mode, maxChars } : { maxChars, cursor: inner },
    );
    const nextCursor =
      page.nextCursor === null
        ? null
        : this.tokens.cursor("pi_session_read", call, page.nextCursor);
    const nextCall =
      nextCursor === null
        ? null
        : {
            tool: "pi_session_read" as const,
            arguments: {
              session_ref: args.session_ref,
              cursor: nextCursor,
              mode,
              max_chars: maxChars,
            },
          };
    const structured = {
      session_ref: args.session_ref,
      mode,
      total_messages: page.total,
      from: page.from,
      count: page.count,
      chars: page.chars,
      messages: messages.map((m) => ({
        index: m.index,
        role: m.role,
        timestamp: m.timestamp,
        text: m.text,
        ...(m.textOffset === undefined
          ? {}
          : { text_offset: m.textOffset, text_length: m.textLength }),
      })),
      has_more: nextCursor !== null,
      next_cursor: nextCursor,
      next_call: nextCall,
      next_action: nextCall
        ? `call pi_session_read with ${JSON.stringify(nextCall.arguments)}`
        : "this is the end of the session",
      ...(origin ? { origin } : {}),
    };
    const body = structured.messages.map(
      (m) =>
        `[${m.index}] ${m.role} ${m.timestamp}${m.text_offset === undefined ? "" : ` (part from character ${m.text_offset} of ${m.text_length})`}\n${m.text}`,
    );
    const text = [
      `${HISTORICAL}`,
      `messages ${page.from ?? "-"}..${page.from === null ? "-" : page.from + page.count - 1} of ${page.total} ${origin ? `as pushed to remote ${origin.remote} from machine ${oneLine(origin.machine)} by user ${oneLine(origin.user)}` : "on the active branch"} (${mode})`,
      ...body,
      `has_more: ${structured.has_more}`,
      `next_cursor: ${nextCursor ?? "null"}`,
      `next_action: ${structured.next_action}`,
    ].join("\n\n");
    return { structured, text };
  }

  /**
   * A page of the session a reference names: an archived one through the archive, a local one
   * through a guarded read.
   */
  private async page(
    ref: string,
    options: { mode?: Mode; maxChars: number; cursor?: string },
  ): Promise<{ messages: ReadMessage[]; page: ReadPage; origin?: Origin }> {
    const archived = this.sessions.archived(ref);
    if (archived) return this.sessions.recall.archive.read(archived.remote, archived.id, options);
    const { session, file } = await this.sessions.named(ref);
    return this.sessions.recall.readGuarded(session, options, file);
  }

  async context(args: ContextArgs): Promise<{ structured: Record<string, unknown>; text: string }> {
    const maxChars = args.max_chars ?? DEFAULT_CONTEXT_CHARS;
    const { session, file } = await this.sessions.named(args.session_ref);
    const { messages, summary } = await this.sessions.recall.contextGuarded(
      session,
      args.question,
      { maxChars },
      file,
    );
    const structured = {
      session_ref: args.session_ref,
      question: args.question,
      terms: summary.terms,
      matched_messages: summary.matched,
      total_messages: summary.total,
      chars: summary.chars,
      max_chars: maxChars,
      messages: messages.map((m) => ({
        index: m.index,
        role: m.role,
        timestamp: m.timestamp,
        text: m.text,
        score: m.score,
        clipped: m.clipped,
      })),
      next_action:
        summary.matched === 0
          ? "no message matches these words; try other words, or read the session with pi_session_read"
          : "if this is not enough, read around these message indexes with pi_session_read",
      ...(args.mode === "raw" ? { note: CONTEXT_RAW_NOTE } : {}),
    };
    const body = structured.messages.map(
      (m) => `[${m.index}] ${m.role} ${m.timestamp}${m.clipped ? " (clipped)" : ""}\n${m.text}`,
    );
    const text = [
      HISTORICAL,
      `${summary.matched} of ${summary.total} messages match (${summary.terms.join(", ") || "no words"}); ${summary.chars} characters shown`,
      ...(structured.note ? [`note: ${structured.note}`] : []),
      ...body,
      `next_action: ${structured.next_action}`,
    ].join("\n\n");
    return { structured, text };
  }
}
