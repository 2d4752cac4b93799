/**
 * Argument limits and the output shapes the tools declare (outputSchema) and return
 * (structuredContent).
 */
import * as z from "zod";
import { ERROR_CODES } from "./tool-error.js";
import { SCOPES, SEARCH_SCOPES } from "./config.js";
import {
  MATCH_MODES,
  SESSION_TOOL_LIMITS,
  SESSION_TOOL_MODES,
  SESSION_TOOL_TEXT,
} from "../index.js";

export const MAX_QUERY_CHARS = SESSION_TOOL_LIMITS.maxQueryChars;
export const MAX_RESULTS = SESSION_TOOL_LIMITS.maxResults;
export const MAX_PAGE_CHARS = SESSION_TOOL_LIMITS.maxPageChars;
export const MIN_PAGE_CHARS = SESSION_TOOL_LIMITS.minPageChars;
export const DEFAULT_READ_CHARS = SESSION_TOOL_LIMITS.defaultReadChars;
export const DEFAULT_CONTEXT_CHARS = SESSION_TOOL_LIMITS.defaultContextChars;
/**
 * What the conversation resource shows in all, before it sends the reader on to pi_session_read.
 */
export const RESOURCE_CHARS = 24_000;

export const queryArg = z.string().max(MAX_QUERY_CHARS).describe(SESSION_TOOL_TEXT.query);
export const questionArg = z
  .string()
  .min(1)
  .max(MAX_QUERY_CHARS)
  .describe(SESSION_TOOL_TEXT.question);
export const limitArg = z
  .number()
  .int()
  .min(1)
  .max(MAX_RESULTS)
  .optional()
  .describe(SESSION_TOOL_TEXT.limit);
export const cursorArg = z.string().max(4096).optional().describe(SESSION_TOOL_TEXT.cursor);
export const scopeArg = z
  .enum(SCOPES)
  .optional()
  .describe(
    '"project" (the configured project folder) or "all" (every project); default: the server\'s',
  );
export const searchScopeArg = z
  .enum(SEARCH_SCOPES)
  .optional()
  .describe(
    '"project" (the configured project folder), "all" (every project on this machine), or "remote" (the shared archive of every machine, when the server was started with --remote); default: the server\'s',
  );
export const fileArg = z.string().min(1).max(4096).optional().describe(SESSION_TOOL_TEXT.file);
export const modeArg = z.enum(SESSION_TOOL_MODES).optional().describe(SESSION_TOOL_TEXT.mode);
export const matchArg = z.enum(MATCH_MODES).optional().describe(SESSION_TOOL_TEXT.match);
export const sessionRefArg = z
  .string()
  .max(2048)
  .describe("The exact session_ref (sref_…) a search, find or list returned");
export const pageCharsArg = (fallback: number) =>
  z
    .number()
    .int()
    .min(MIN_PAGE_CHARS)
    .max(MAX_PAGE_CHARS)
    .optional()
    .describe(SESSION_TOOL_TEXT.maxChars(fallback));

/**
 * A value or null, published as `anyOf` single-type branches: zod spells .nullable() as a `type`
 * array (`["number","null"]`), which the Inspector's --strict check flags as less portable. A
 * described branch is one zod does not merge into such an array.
 */
const orNull = <T extends z.ZodType>(schema: T) => z.union([schema, z.null().describe("none")]);

const errorShape = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  recovery: z.string(),
});

/**
 * A tool's output: its answer, or an error result (`isError`, only `error`). The error is a branch
 * of the schema because some clients (the MCP Inspector) validate error results against it too.
 */
const orError = <T extends z.ZodObject>(answer: T) =>
  z.union([answer, z.object({ error: errorShape })]);

export const sessionResult = z.object({
  session_ref: z.string(),
  session_id: z.string(),
  session_date: z.string().describe("When the session started (ISO 8601)"),
  last_activity: z.string(),
  project_id: z.string().describe("An opaque hash of the session's project folder"),
  title: z.string().describe("The session's name, or its first message"),
  message_count: z
    .number()
    .describe(
      "User and assistant messages in the session file, on every branch (pi_session_read's total_messages counts the active branch only)",
    ),
  tags: z.array(z.string()),
  snippet: z.string(),
  matched_words: z.array(z.string()),
  message_index: orNull(z.number()),
  message_role: orNull(z.string()),
  message_timestamp: orNull(z.string()),
  message_kind: orNull(z.enum(["conversation", "thinking", "call", "output"])).describe(
    "Which kind of text matched",
  ),
  message_tool: orNull(z.string()).describe("The tool of a matched call or output"),
  matched_by: z
    .enum(MATCH_MODES)
    .optional()
    .describe(
      'With match "meaning" or "both": which found the session: "words", "meaning" (its snippet is the passage nearest the query, with no matched words) or "both"',
    ),
  file_calls: z
    .array(z.object({ tool: z.string(), entry_id: z.string() }))
    .optional()
    .describe("With file: the tool calls that touched it (tool, and the entry it is in)"),
  resource_uri: z.string(),
  origin: z
    .object({ remote: z.string(), machine: z.string(), user: z.string() })
    .optional()
    .describe(
      "scope remote: where the session lives (the remote's name, the machine and user that pushed it); it is not on this machine",
    ),
});

export const sessionsOutput = orError(
  z.object({
    results: z.array(sessionResult),
    has_more: z.boolean(),
    next_cursor: orNull(z.string()),
    scope: z.enum(SEARCH_SCOPES),
    scanned_sessions: z.number(),
    skipped_sessions: z
      .number()
      .describe("Matches left out: files over 64 MiB or failing the safety checks"),
    index_complete: z
      .boolean()
      .describe(
        "false while the server's first index is still being built, or while the meaning index (searched with match meaning or both) lacks more than 1 in 100 messages: the results hold only what is indexed so far (note says how far)",
      ),
    meaning_coverage: z
      .object({ embedded: z.number(), messages: z.number() })
      .optional()
      .describe(
        "With match meaning or both: how many of the messages searched the meaning index holds (it is built in the background; a search uses what is there)",
      ),
    next_action: z.string(),
    note: z
      .string()
      .optional()
      .describe(
        "How the query was read: a complete session id looked up, words read as others one typo away",
      ),
  }),
);

export const relatedOutput = orError(
  z.object({
    session_ref: z.string(),
    words: z
      .array(z.string())
      .describe(
        "The session's distinctive words, most distinctive first: what the related sessions were looked up by",
      ),
    results: z.array(
      sessionResult.extend({
        shared_words: z
          .array(z.string())
          .describe("The distinctive words this session shares, most distinctive first"),
      }),
    ),
    scope: z.enum(SCOPES),
    skipped_sessions: z
      .number()
      .describe("Related sessions left out: files over 64 MiB or failing the safety checks"),
    meaning_coverage: z
      .object({ embedded: z.number(), messages: z.number() })
      .optional()
      .describe(
        "Where the meaning model is installed: how many messages the meaning index holds, of those searched",
      ),
    next_action: z.string(),
  }),
);

const messageShape = z.object({
  index: z.number(),
  role: z.string(),
  timestamp: z.string(),
  text: z.string(),
});

export const contextOutput = orError(
  z.object({
    session_ref: z.string(),
    question: z.string(),
    terms: z.array(z.string()),
    matched_messages: z.number(),
    total_messages: z
      .number()
      .describe(
        "Messages of the session's active branch in this mode, the ones read pages through (search's message_count counts every branch)",
      ),
    chars: z.number(),
    max_chars: z.number(),
    messages: z.array(messageShape.extend({ score: z.number(), clipped: z.boolean() })),
    next_action: z.string(),
    note: z.string().optional(),
  }),
);

export const readOutput = orError(
  z.object({
    session_ref: z.string(),
    mode: z.enum(SESSION_TOOL_MODES),
    total_messages: z
      .number()
      .describe(
        "Messages of the session's active branch in this mode, the ones read pages through (search's message_count counts every branch)",
      ),
    from: orNull(z.number()),
    count: z.number(),
    chars: z.number(),
    messages: z.array(
      messageShape.extend({
        text_offset: z.number().optional(),
        text_length: z.number().optional(),
      }),
    ),
    has_more: z.boolean(),
    next_cursor: orNull(z.string()),
    next_call: orNull(
      z.object({
        tool: z.literal("pi_session_read"),
        arguments: z.object({
          session_ref: z.string(),
          cursor: z.string(),
          mode: z.enum(SESSION_TOOL_MODES),
          max_chars: z.number(),
        }),
      }),
    ),
    next_action: z.string(),
    origin: z
      .object({ remote: z.string(), machine: z.string(), user: z.string() })
      .optional()
      .describe("An archived session: where it lives"),
  }),
);

export const tagOutput = orError(
  z.object({
    session_ref: z.string(),
    tags: z.array(z.string()),
    index_busy: z.boolean(),
  }),
);

export const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;
