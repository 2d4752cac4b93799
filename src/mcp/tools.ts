/** The tools, their arguments, limits, output shapes and annotations; each handler is one call into this folder. */
import type { McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";
import { Recall } from "../index.js";
import type { McpConfig } from "./config.js";
import { parseTime } from "../output/time.js";
import { guarded, toolResult } from "./results.js";
import {
  contextOutput,
  cursorArg,
  DEFAULT_CONTEXT_CHARS,
  DEFAULT_READ_CHARS,
  fileArg,
  limitArg,
  MAX_QUERY_CHARS,
  modeArg,
  pageCharsArg,
  READ_ONLY,
  readOutput,
  scopeArg,
  sessionRefArg,
  sessionsOutput,
  tagOutput,
} from "./schemas.js";
import type { SessionPages } from "./session-pages.js";
import type { SessionReader } from "./session-reader.js";
import type { McpSessions } from "./sessions.js";
import { ToolError } from "./tool-error.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Tools {
  config: McpConfig;
  pages: SessionPages;
  reader: SessionReader;
  sessions: McpSessions;
}

export function registerTools(server: McpServer, { config, pages, reader, sessions }: Tools): void {
  server.registerTool(
    "pi_session_search",
    {
      title: "Search Pi sessions",
      description:
        'Ranked full-text search of past Pi sessions: words, "exact phrases", #tags (-#tag excludes). A complete session UUID is looked up as pi_session_find does. Returns session_ref values for pi_session_context and pi_session_read.',
      inputSchema: z.object({
        query: z.string().min(1).max(MAX_QUERY_CHARS).describe(`Words, "phrases" or #tags (at most ${MAX_QUERY_CHARS} characters)`),
        limit: limitArg,
        cursor: cursorArg,
        mode: modeArg,
        scope: scopeArg,
        file: fileArg,
      }),
      outputSchema: sessionsOutput,
      annotations: { title: "Search Pi sessions", ...READ_ONLY },
    },
    guarded("pi_session_search", async (args, ctx) => {
      const query = args.query.trim();
      const byId = UUID.test(query);
      const mode = args.mode ?? "conversation";
      // "raw" searches every kind of text: thinking, tool calls and tool output too.
      const widened = { ...(mode === "raw" ? { content: ["all" as const] } : {}), ...(args.file === undefined ? {} : { file: args.file }) };
      return pages.page(
        {
          tool: "pi_session_search",
          search: byId ? { query: "", sessionIds: [query.toLowerCase()], ...widened } : { query, ...widened },
          call: args.file === undefined ? { query, mode } : { query, mode, file: args.file },
          scope: args.scope,
          limit: args.limit,
          cursor: args.cursor,
          note: byId ? "the query is a complete session id: looked up as pi_session_find does" : undefined,
        },
        ctx,
      );
    }),
  );

  server.registerTool(
    "pi_session_find",
    {
      title: "Find a Pi session by id",
      description: "Exact lookup of a session by its complete UUID (as in its file name).",
      inputSchema: z.object({ session_id: z.string().max(100).describe("The session's complete UUID"), limit: limitArg, cursor: cursorArg, scope: scopeArg }),
      outputSchema: sessionsOutput,
      annotations: { title: "Find a Pi session by id", ...READ_ONLY },
    },
    guarded("pi_session_find", async (args, ctx) => {
      const id = args.session_id.trim();
      if (!UUID.test(id)) throw new ToolError("INVALID_ARGUMENT", "session_id must be a complete session UUID", "pass the full UUID, or use pi_session_search for words");
      return pages.page({ tool: "pi_session_find", search: { query: "", sessionIds: [id.toLowerCase()] }, call: { session_id: id }, scope: args.scope, limit: args.limit, cursor: args.cursor }, ctx);
    }),
  );

  server.registerTool(
    "pi_session_list",
    {
      title: "List recent Pi sessions",
      description: "The latest sessions, most recently active first; since: 7d, 24h, 2w, today, yesterday or an ISO date.",
      inputSchema: z.object({ scope: scopeArg, limit: limitArg, cursor: cursorArg, since: z.string().max(40).optional().describe("Only sessions active from this time on") }),
      outputSchema: sessionsOutput,
      annotations: { title: "List recent Pi sessions", ...READ_ONLY },
    },
    guarded("pi_session_list", async (args, ctx) => {
      let since: number | undefined;
      try {
        since = args.since === undefined ? undefined : parseTime(args.since);
      } catch {
        throw new ToolError("INVALID_ARGUMENT", "since is not a time", "use 7d, 24h, 2w, today, yesterday or an ISO date such as 2026-11-01");
      }
      return pages.page({ tool: "pi_session_list", search: { query: "", since }, call: { since: since ?? null }, scope: args.scope, limit: args.limit, cursor: args.cursor }, ctx);
    }),
  );

  server.registerTool(
    "pi_session_context",
    {
      title: "Focused context from a Pi session",
      description: "The messages of one session that bear on a question, within a budget; deterministic, no model involved.",
      inputSchema: z.object({
        session_ref: sessionRefArg,
        question: z.string().min(1).max(MAX_QUERY_CHARS).describe(`What to look for (at most ${MAX_QUERY_CHARS} characters)`),
        max_chars: pageCharsArg(DEFAULT_CONTEXT_CHARS),
        mode: modeArg,
      }),
      outputSchema: contextOutput,
      annotations: { title: "Focused context from a Pi session", ...READ_ONLY },
    },
    guarded("pi_session_context", async (args) => {
      const { structured, text } = await reader.context(args);
      return toolResult(structured, text);
    }),
  );

  server.registerTool(
    "pi_session_read",
    {
      title: "Read a Pi session",
      description: "A session's active branch, a page at a time; call again with next_cursor until has_more is false.",
      inputSchema: z.object({ session_ref: sessionRefArg, cursor: cursorArg, max_chars: pageCharsArg(DEFAULT_READ_CHARS), mode: modeArg }),
      outputSchema: readOutput,
      annotations: { title: "Read a Pi session", ...READ_ONLY },
    },
    guarded("pi_session_read", async (args) => {
      const { structured, text } = await reader.read(args);
      return toolResult(structured, text);
    }),
  );

  if (!config.allowTagging) return;
  server.registerTool(
    "pi_session_tag",
    {
      title: "Tag a Pi session",
      description: "Adds or removes recall's tags on a session (recall's own data; the session file is never written).",
      inputSchema: z.object({
        session_ref: sessionRefArg,
        add: z.array(z.string().max(100)).max(20).optional(),
        remove: z.array(z.string().max(100)).max(20).optional(),
      }),
      outputSchema: tagOutput,
      annotations: { title: "Tag a Pi session", readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    guarded("pi_session_tag", async (args) => {
      const { session } = await sessions.named(args.session_ref);
      let add: string[];
      let remove: string[];
      try {
        add = args.add?.length ? Recall.parseTags(args.add) : [];
        remove = args.remove?.length ? Recall.parseTags(args.remove) : [];
      } catch {
        throw new ToolError("INVALID_ARGUMENT", "a tag normalizes to nothing", "use letters, digits, _ or -");
      }
      let busy = false;
      if (add.length) busy = (await sessions.recall.addTags([session], add)).indexBusy || busy;
      if (remove.length) busy = (await sessions.recall.removeTags([session], remove)).indexBusy || busy;
      const tags = (await sessions.recall.tagsOf(session)).tags;
      return toolResult({ session_ref: args.session_ref, tags, index_busy: busy }, `tags: ${tags.map((t) => `#${t}`).join(" ") || "(none)"}`);
    }),
  );
}
