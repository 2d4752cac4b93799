/**
 * The tools that answer with sessions: search (ranked by the index), find (an exact id) and list
 * (latest first), a page at a time, each one library search; and related (the sessions nearest
 * one session, one page). This file maps the arguments, the scope and the cursor, and words the
 * page.
 */
import type { CallToolResult, Resource, ServerContext } from "@modelcontextprotocol/server";
import {
  sessionListQuery,
  sessionSearchQuery,
  type ArchiveHit,
  type SearchHit,
  type SessionQuery,
  type SessionSearchArgs,
} from "../index.js";
import type { McpConfig, Scope } from "./config.js";
import { HISTORICAL, toolResult } from "./results.js";
import type { McpSessions } from "./sessions.js";
import { conversationUri } from "./resource.js";
import { invalidCursor, remoteScopeUnavailable, ToolError } from "./tool-error.js";
import type { Tokens } from "./tokens.js";
import { oneLine } from "../output/plain-text.js";

/** Sessions resources/list offers. */
const RECENT_RESOURCES = 25;

export interface PageRequest {
  tool: string;
  /** What the search is (the library's reading of the tool's arguments). */
  query: SessionQuery;
  /** The call's arguments a cursor is tied to. */
  call: Record<string, unknown>;
  scope: Scope | undefined;
  limit: number | undefined;
  cursor: string | undefined;
}

export class SessionPages {
  constructor(
    private readonly config: McpConfig,
    private readonly sessions: McpSessions,
    private readonly tokens: Tokens,
  ) {}

  async page(request: PageRequest, ctx: ServerContext): Promise<CallToolResult> {
    const scope = this.scope(request.scope);
    const call = { ...request.call, scope, limit: request.limit ?? null };
    const inner = this.tokens.readCursor(request.tool, call, request.cursor);
    if (inner === "invalid") throw invalidCursor();
    const progressToken = ctx.mcpReq._meta?.progressToken;
    const progress = (filesDone: number, filesTotal: number) => {
      const params = {
        progressToken: progressToken!,
        progress: filesDone,
        total: filesTotal,
        message: `indexing session files: ${filesDone} of ${filesTotal}`,
      };
      // A notification the client can no longer take is lost with the client: nothing to do.
      ctx.mcpReq.notify({ method: "notifications/progress", params }).catch(() => undefined);
    };
    const page = await this.sessions.recall.sessionTools.page(
      {
        query: request.query,
        cwd: scope === "project" ? this.config.projectDir : undefined,
        limit: request.limit,
        cursor: inner,
        signal: ctx.mcpReq.signal,
      },
      progressToken === undefined ? undefined : (p) => progress(p.filesDone, p.filesTotal),
    );
    // An answer from a first index still under way says how far it got.
    if (progressToken !== undefined && page.indexing)
      progress(page.indexing.filesDone, page.indexing.filesTotal);
    const results = [];
    let skipped = 0;
    for (const hit of page.hits) {
      const ref = this.sessions.refFor(hit);
      if (typeof ref === "string") results.push(this.result(hit, ref));
      else skipped++;
    }
    const nextCursor =
      page.nextCursor === null ? null : this.tokens.cursor(request.tool, call, page.nextCursor);
    const note = page.notes.join("; ");
    const structured = {
      results,
      has_more: nextCursor !== null,
      next_cursor: nextCursor,
      scope,
      scanned_sessions: page.scanned,
      skipped_sessions: skipped,
      index_complete: page.complete,
      ...(page.meaningCoverage ? { meaning_coverage: page.meaningCoverage } : {}),
      next_action: nextAction(request.tool, scope, results.length, nextCursor),
      ...(note ? { note } : {}),
    };
    return toolResult(
      structured,
      pageText(structured),
      results.map((r) => ({
        type: "resource_link" as const,
        uri: r.resource_uri,
        name: r.title.slice(0, 80) || r.session_id,
        mimeType: "text/plain",
      })),
    );
  }

  /**
   * pi_session_search with scope "remote": the archive the server was started with, one page
   * (the archive's best `limit` sessions, no cursor), each with where it lives and a reference
   * that pi_session_read takes. The archive's host is never part of the answer or of an error.
   */
  async archived(
    args: SessionSearchArgs & { limit?: number; cursor?: string },
  ): Promise<CallToolResult> {
    const remote = this.config.remote;
    if (remote === undefined) throw remoteScopeUnavailable();
    if (args.file !== undefined)
      throw new ToolError(
        "INVALID_ARGUMENT",
        "file searches the tool calls of this machine's sessions, not the archive's",
        'leave file out with scope "remote", or search with scope "project" or "all"',
      );
    if (args.match !== undefined && args.match !== "words")
      throw new ToolError(
        "INVALID_ARGUMENT",
        "the archive is searched by words only",
        'leave match out (or pass "words") with scope "remote"',
      );
    if (args.cursor !== undefined && args.cursor !== "/" && args.cursor !== "start")
      throw invalidCursor();
    const { search } = sessionSearchQuery(args);
    // A complete UUID finds that session, as in this machine's scopes.
    const byId = search.sessionIds
      ? { query: "", sessionIds: search.sessionIds }
      : { query: args.query.trim() };
    const { hits } = await this.sessions.recall.archive.search(remote, {
      ...byId,
      limit: args.limit,
      ...(search.content ? { content: search.content } : {}),
    });
    const results = hits.map((hit) => ({
      ...this.result(hit, this.tokens.archivedRef({ remote, id: hit.id })),
      origin: hit.origin,
    }));
    const structured = {
      results,
      has_more: false,
      next_cursor: null,
      scope: "remote" as const,
      scanned_sessions: results.length,
      skipped_sessions: 0,
      index_complete: true,
      next_action:
        results.length === 0
          ? "nothing matched in the archive; try other words, or fewer"
          : "use pi_session_read with a session_ref, unchanged (pi_session_context reads this machine's sessions only)",
    };
    return toolResult(
      structured,
      pageText(structured),
      results.map((r) => ({
        type: "resource_link" as const,
        uri: r.resource_uri,
        name: r.title.slice(0, 80) || r.session_id,
        mimeType: "text/plain",
      })),
    );
  }

  /** pi_session_related: the sessions nearest the one a reference names, in the scope. */
  async related(
    args: { session_ref: string; limit?: number; scope?: Scope },
    ctx: ServerContext,
  ): Promise<CallToolResult> {
    const scope = this.scope(args.scope);
    const { session } = await this.sessions.named(args.session_ref);
    const cwd = scope === "project" ? this.config.projectDir : undefined;
    const page = await this.sessions.recall.related({
      session,
      limit: args.limit,
      cwd,
      signal: ctx.mcpReq.signal,
    });
    const results = [];
    for (const hit of page.hits) {
      const ref = this.sessions.refFor(hit);
      if (typeof ref === "string")
        results.push({ ...this.result(hit, ref), shared_words: hit.shared });
    }
    const structured = {
      session_ref: args.session_ref,
      words: page.words,
      results,
      scope,
      skipped_sessions: page.hits.length - results.length,
      ...(page.coverage ? { meaning_coverage: page.coverage } : {}),
      next_action: relatedAction(scope, page.words.length > 0, results.length),
    };
    return toolResult(
      structured,
      relatedText(structured),
      results.map((r) => ({
        type: "resource_link" as const,
        uri: r.resource_uri,
        name: r.title.slice(0, 80) || r.session_id,
        mimeType: "text/plain",
      })),
    );
  }

  /** The scope a call asked for, else the server's; project scope needs the configured folder. */
  private scope(asked: Scope | undefined): Scope {
    const scope = asked ?? this.config.defaultScope;
    if (scope === "project" && this.config.projectDir === undefined) {
      throw new ToolError(
        "PROJECT_SCOPE_UNAVAILABLE",
        "no project folder is configured, so project scope is unavailable",
        'retry with scope: "all", or ask the operator to start the server with --project-dir (or PI_SESSION_RECALL_PROJECT_DIR)',
      );
    }
    return scope;
  }

  /**
   * The latest sessions of the default scope as conversation resources (none without a project
   * folder for project scope).
   */
  async recent(): Promise<Resource[]> {
    const scope = this.config.defaultScope;
    if (scope === "project" && this.config.projectDir === undefined) return [];
    const page = await this.sessions.recall.sessionTools.page({
      query: sessionListQuery(undefined),
      cwd: scope === "project" ? this.config.projectDir : undefined,
      limit: RECENT_RESOURCES,
    });
    const resources: Resource[] = [];
    for (const hit of page.hits) {
      const ref = this.sessions.refFor(hit);
      if (typeof ref !== "string") continue;
      const title = oneLine(hit.name ?? hit.firstMessage).slice(0, 80) || hit.id;
      resources.push({
        uri: conversationUri(ref),
        name: title,
        title,
        description: `Pi session of ${hit.modified.slice(0, 10)}, ${hit.messageCount} messages`,
        mimeType: "text/plain",
      });
    }
    return resources;
  }

  private result(hit: SearchHit | ArchiveHit, ref: string) {
    const snippet = Buffer.from(hit.snippet, "utf8");
    return {
      session_ref: ref,
      session_id: hit.id,
      session_date: hit.created,
      last_activity: hit.modified,
      project_id: this.sessions.projectId(hit.cwd),
      title: hit.name ?? hit.firstMessage,
      message_count: hit.messageCount,
      tags: hit.tags,
      snippet: hit.snippet,
      matched_words: [
        ...new Set(hit.spans.map(([start, end]) => snippet.subarray(start, end).toString("utf8"))),
      ],
      message_index: hit.message?.index ?? null,
      message_role: hit.message?.role ?? null,
      message_timestamp: hit.message?.timestamp ?? null,
      message_kind: hit.message?.kind ?? null,
      message_tool: hit.message?.tool ?? null,
      ...("matchedBy" in hit && hit.matchedBy !== undefined ? { matched_by: hit.matchedBy } : {}),
      ...(hit.calls === undefined
        ? {}
        : { file_calls: hit.calls.map((c) => ({ tool: c.tool, entry_id: c.entryId })) }),
      resource_uri: conversationUri(ref),
    };
  }
}

function nextAction(tool: string, scope: Scope, found: number, nextCursor: string | null): string {
  if (found === 0 && scope === "project") {
    return 'nothing in this project; if the session may belong to another project, retry explicitly with scope: "all"';
  }
  if (found === 0)
    return tool === "pi_session_search"
      ? "nothing matched; try other words, or fewer"
      : "nothing found";
  const read =
    "use pi_session_context (a focused question) or pi_session_read (full reading) with a session_ref, unchanged";
  return nextCursor
    ? `${read}; for more results call ${tool} again with the same arguments and cursor: next_cursor`
    : read;
}

/**
 * One result of a page as text: its title, reference, date, project and `details`, and its match.
 */
function resultLines(i: number, r: ReturnType<SessionPages["result"]>, details: string): string[] {
  const lines = [
    "",
    `${i + 1}. ${r.title.replace(/\s+/g, " ").slice(0, 200)}`,
    `   session_ref: ${r.session_ref}`,
    `   session_date: ${r.session_date}  project_id: ${r.project_id}  ${details}${r.matched_by ? `  matched_by: ${r.matched_by}` : ""}`,
  ];
  if (r.snippet)
    lines.push(
      `   match (message ${r.message_index}, ${r.message_timestamp}): ${r.snippet.replace(/\s+/g, " ")}`,
    );
  return lines;
}

function relatedAction(scope: Scope, hasWords: boolean, found: number): string {
  if (found > 0)
    return "use pi_session_context (a focused question) or pi_session_read (full reading) with a session_ref, unchanged";
  if (!hasWords)
    return "the session has no distinctive words another session holds: nothing is related to it";
  return scope === "project"
    ? 'nothing related in this project; retry with scope: "all" to look in every project'
    : "no other session shares its distinctive words";
}

function relatedText(page: {
  session_ref: string;
  words: string[];
  results: (ReturnType<SessionPages["result"]> & { shared_words: string[] })[];
  scope: Scope;
  skipped_sessions: number;
  meaning_coverage?: { embedded: number; messages: number };
  next_action: string;
}): string {
  const coverage = page.meaning_coverage
    ? `, meaning_coverage: ${page.meaning_coverage.embedded} of ${page.meaning_coverage.messages} messages`
    : "";
  const lines = [
    `${page.results.length} related session${page.results.length === 1 ? "" : "s"} (scope: ${page.scope}, skipped_sessions: ${page.skipped_sessions}${coverage})`,
    `distinctive words: ${page.words.join(", ") || "(none)"}`,
  ];
  for (const [i, r] of page.results.entries())
    lines.push(...resultLines(i, r, `shares: ${r.shared_words.join(", ")}`));
  lines.push("", `next_action: ${page.next_action}`);
  if (page.results.length > 0) lines.push(HISTORICAL);
  return lines.join("\n");
}

function pageText(page: {
  results: (ReturnType<SessionPages["result"]> & { origin?: ArchiveHit["origin"] })[];
  scope: Scope | "remote";
  scanned_sessions: number;
  skipped_sessions: number;
  index_complete: boolean;
  meaning_coverage?: { embedded: number; messages: number };
  has_more: boolean;
  next_cursor: string | null;
  next_action: string;
  note?: string;
}): string {
  const coverage = page.meaning_coverage
    ? `, meaning_coverage: ${page.meaning_coverage.embedded} of ${page.meaning_coverage.messages} messages`
    : "";
  const lines = [
    `${page.results.length} result${page.results.length === 1 ? "" : "s"} (scope: ${page.scope}, scanned_sessions: ${page.scanned_sessions}, skipped_sessions: ${page.skipped_sessions}, index_complete: ${page.index_complete}${coverage})`,
  ];
  if (page.note) lines.push(`note: ${page.note}`);
  for (const [i, r] of page.results.entries()) {
    lines.push(
      ...resultLines(
        i,
        r,
        r.origin
          ? `lives on: machine ${oneLine(r.origin.machine)}, user ${oneLine(r.origin.user)} (remote ${r.origin.remote})`
          : `messages (every branch): ${r.message_count}`,
      ),
    );
  }
  lines.push(
    "",
    `has_more: ${page.has_more}`,
    `next_cursor: ${page.next_cursor ?? "null"}`,
    `next_action: ${page.next_action}`,
  );
  if (page.results.length > 0) lines.push(HISTORICAL);
  return lines.join("\n");
}
