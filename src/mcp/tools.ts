/**
 * The tools, their arguments, limits, output shapes and annotations; each handler is one call into
 * this folder.
 */
import type { McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";
import {
  parseTags,
  SESSION_TOOL_TEXT,
  sessionFindQuery,
  sessionListQuery,
  sessionSearchQuery,
} from "../index.js";
import type { McpConfig } from "./config.js";
import { parseTime } from "../output/time.js";
import { published } from "./arguments.js";
import { guarded, toolResult } from "./results.js";
import {
  contextOutput,
  cursorArg,
  DEFAULT_CONTEXT_CHARS,
  DEFAULT_READ_CHARS,
  fileArg,
  limitArg,
  modeArg,
  matchArg,
  pageCharsArg,
  queryArg,
  questionArg,
  READ_ONLY,
  readOutput,
  relatedOutput,
  scopeArg,
  searchScopeArg,
  sessionRefArg,
  sessionsOutput,
  tagOutput,
} from "./schemas.js";
import type { SessionPages } from "./session-pages.js";
import type { SessionReader } from "./session-reader.js";
import type { McpSessions } from "./sessions.js";
import { ToolError } from "./tool-error.js";

export interface Tools {
  config: McpConfig;
  pages: SessionPages;
  reader: SessionReader;
  sessions: McpSessions;
}

const REFS = " Returns session_ref values for pi_session_context and pi_session_read.";

const searchArgs = z.strictObject({
  query: queryArg,
  limit: limitArg,
  cursor: cursorArg,
  mode: modeArg,
  scope: searchScopeArg,
  file: fileArg,
  match: matchArg,
});
const findArgs = z.strictObject({
  session_id: z.string().max(100).describe(SESSION_TOOL_TEXT.sessionId),
  limit: limitArg,
  cursor: cursorArg,
  scope: scopeArg,
});
const listArgs = z.strictObject({
  scope: scopeArg,
  limit: limitArg,
  cursor: cursorArg,
  since: z.string().max(40).optional().describe(SESSION_TOOL_TEXT.since),
});
const contextArgs = z.strictObject({
  session_ref: sessionRefArg,
  question: questionArg,
  max_chars: pageCharsArg(DEFAULT_CONTEXT_CHARS),
  mode: modeArg,
});
const readArgs = z.strictObject({
  session_ref: sessionRefArg,
  cursor: cursorArg,
  max_chars: pageCharsArg(DEFAULT_READ_CHARS),
  mode: modeArg,
});
const relatedArgs = z.strictObject({
  session_ref: sessionRefArg,
  limit: limitArg,
  scope: scopeArg,
});
const tagArgs = z.strictObject({
  session_ref: sessionRefArg,
  add: z.array(z.string().max(100)).max(20).optional(),
  remove: z.array(z.string().max(100)).max(20).optional(),
});

export function registerTools(server: McpServer, { config, pages, reader, sessions }: Tools): void {
  server.registerTool(
    "pi_session_search",
    {
      title: "Search Pi sessions",
      description: SESSION_TOOL_TEXT.search + REFS,
      inputSchema: published(searchArgs),
      outputSchema: sessionsOutput,
      annotations: { title: "Search Pi sessions", ...READ_ONLY },
    },
    guarded("pi_session_search", searchArgs, async (args, ctx) => {
      if (args.scope === "remote") return pages.archived(args);
      const call = {
        query: args.query,
        mode: args.mode ?? "conversation",
        ...(args.file === undefined ? {} : { file: args.file }),
        ...(args.match === undefined ? {} : { match: args.match }),
      };
      return pages.page(
        {
          tool: "pi_session_search",
          query: sessionSearchQuery(args),
          call,
          scope: args.scope,
          limit: args.limit,
          cursor: args.cursor,
        },
        ctx,
      );
    }),
  );

  server.registerTool(
    "pi_session_find",
    {
      title: "Find a Pi session by id",
      description: SESSION_TOOL_TEXT.find + REFS,
      inputSchema: published(findArgs),
      outputSchema: sessionsOutput,
      annotations: { title: "Find a Pi session by id", ...READ_ONLY },
    },
    guarded("pi_session_find", findArgs, async (args, ctx) =>
      pages.page(
        {
          tool: "pi_session_find",
          query: sessionFindQuery(args.session_id),
          call: { session_id: args.session_id.trim() },
          scope: args.scope,
          limit: args.limit,
          cursor: args.cursor,
        },
        ctx,
      ),
    ),
  );

  server.registerTool(
    "pi_session_list",
    {
      title: "List recent Pi sessions",
      description: SESSION_TOOL_TEXT.list + REFS,
      inputSchema: published(listArgs),
      outputSchema: sessionsOutput,
      annotations: { title: "List recent Pi sessions", ...READ_ONLY },
    },
    guarded("pi_session_list", listArgs, async (args, ctx) => {
      let since: number | undefined;
      try {
        since = args.since === undefined ? undefined : parseTime(args.since);
      } catch {
        throw new ToolError(
          "INVALID_ARGUMENT",
          "since is not a time",
          "use 7d, 24h, 2w, today, yesterday or an ISO date such as 2026-11-01",
        );
      }
      return pages.page(
        {
          tool: "pi_session_list",
          query: sessionListQuery(since),
          call: { since: since ?? null },
          scope: args.scope,
          limit: args.limit,
          cursor: args.cursor,
        },
        ctx,
      );
    }),
  );

  server.registerTool(
    "pi_session_context",
    {
      title: "Focused context from a Pi session",
      description: SESSION_TOOL_TEXT.context,
      inputSchema: published(contextArgs),
      outputSchema: contextOutput,
      annotations: { title: "Focused context from a Pi session", ...READ_ONLY },
    },
    guarded("pi_session_context", contextArgs, async (args) => {
      const { structured, text } = await reader.context(args);
      return toolResult(structured, text);
    }),
  );

  server.registerTool(
    "pi_session_related",
    {
      title: "Sessions related to a Pi session",
      description: SESSION_TOOL_TEXT.related + REFS,
      inputSchema: published(relatedArgs),
      outputSchema: relatedOutput,
      annotations: { title: "Sessions related to a Pi session", ...READ_ONLY },
    },
    guarded("pi_session_related", relatedArgs, async (args, ctx) => pages.related(args, ctx)),
  );

  server.registerTool(
    "pi_session_read",
    {
      title: "Read a Pi session",
      description: SESSION_TOOL_TEXT.read,
      inputSchema: published(readArgs),
      outputSchema: readOutput,
      annotations: { title: "Read a Pi session", ...READ_ONLY },
    },
    guarded("pi_session_read", readArgs, async (args) => {
      const { structured, text } = await reader.read(args);
      return toolResult(structured, text);
    }),
  );

  if (!config.allowTagging) return;
  server.registerTool(
    "pi_session_tag",
    {
      title: "Tag a Pi session",
      description:
        "Adds or removes recall's tags on a session (recall's own data; the session file is never written).",
      inputSchema: published(tagArgs),
      outputSchema: tagOutput,
      annotations: {
        title: "Tag a Pi session",
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    guarded("pi_session_tag", tagArgs, async (args) => {
      const { session } = await sessions.named(args.session_ref);
      let add: string[];
      let remove: string[];
      try {
        add = args.add?.length ? parseTags(args.add) : [];
        remove = args.remove?.length ? parseTags(args.remove) : [];
      } catch {
        throw new ToolError(
          "INVALID_ARGUMENT",
          "a tag normalizes to nothing",
          "use letters, digits, _ or -",
        );
      }
      let busy = false;
      if (add.length) busy = (await sessions.recall.tags.add([session], add)).indexBusy || busy;
      if (remove.length)
        busy = (await sessions.recall.tags.remove([session], remove)).indexBusy || busy;
      const tags = (await sessions.recall.tags.of(session)).tags;
      return toolResult(
        { session_ref: args.session_ref, tags, index_busy: busy },
        `tags: ${tags.map((t) => `#${t}`).join(" ") || "(none)"}`,
      );
    }),
  );
}
