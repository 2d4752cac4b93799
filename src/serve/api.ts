/**
 * The server's JSON API: each route maps its query to a call of the `Recall` facade and shapes
 * the answer for the page (wire.ts). No search, scoring or freshness logic here: the facade
 * decides what matches, the live feed (live.ts) keeps the index current.
 */
import {
  MAX_LIMIT,
  meaningIncomplete,
  parseTags,
  Recall,
  RecallError,
  type ArchiveHit,
  type SearchHit,
  type SessionSummary,
  type SessionView,
  type Stats,
} from "../index.js";
import { segments } from "../output/highlight.js";
import { sessionTitle } from "../output/session-text.js";
import { resumeShellLine, shellLine } from "../output/shell.js";
import { activityCharts } from "./charts.js";
import type { Router } from "./router.js";
import {
  FIRST_SCREEN_PARTS,
  PARTS_PER_PAGE,
  type ActivityAnswer,
  type PartAnswer,
  type PartsAnswer,
  type PullAnswer,
  type SearchAnswer,
  type ServeInfo,
  type SessionAnswer,
  type TagsAnswer,
  type WebHit,
} from "./wire.js";

/** The busiest files the activity page lists. */
const ACTIVITY_FILES = 15;
/** Sessions a search page shows. */
const HITS_PER_PAGE = 30;
/** Session views kept rendered (a long session renders in tens of milliseconds). */
const KEPT_VIEWS = 8;

/**
 * A session named in a path: an id or id prefix only, never a file path (the index decides what is
 * read).
 */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export interface ApiOptions {
  info: ServeInfo;
  /** Whether queries may skip the freshness check: something follows the index. */
  followed: () => boolean;
  /** Settles once the server follows the index (its first catch-up sync done). */
  caughtUp: Promise<void>;
}

export class ServeApi {
  private readonly views = new Map<string, { stamp: string; view: SessionView }>();
  private prepared = false;
  /** The start's own count of all the activity, until it is done (see prepare). */
  private counting: Promise<Stats> | undefined;

  constructor(
    private readonly recall: Recall,
    private readonly options: ApiOptions,
  ) {}

  register(router: Router): void {
    router
      .on("GET", "/api/info", () => {
        this.prepare();
        return json(this.options.info);
      })
      .on("GET", "/api/search", async ({ url }) => json(await this.search(url.searchParams)))
      .on("GET", "/api/sessions/:id", async ({ params, url }) =>
        json(await this.session(params.id!, url.searchParams)),
      )
      .on("GET", "/api/sessions/:id/parts", async ({ params, url }) =>
        json(await this.parts(params.id!, url.searchParams)),
      )
      .on("GET", "/api/sessions/:id/related", async ({ params }) =>
        json(await this.related(params.id!)),
      )
      .on("GET", "/api/sessions/:id/export", async ({ params, url }) =>
        this.export(params.id!, url.searchParams),
      )
      .on("POST", "/api/sessions/:id/tags", async ({ params, json: body }) =>
        json(await this.editTags(params.id!, await body())),
      )
      .on("POST", "/api/sessions/:id/pull", async ({ params, url }) =>
        json(await this.pull(params.id!, url.searchParams)),
      )
      .on("GET", "/api/tags", async () => json(await this.recall.tags.counts()))
      .on("GET", "/api/activity", async ({ url }) => json(await this.activity(url.searchParams)));
  }

  /**
   * A page has loaded (it asks for the info first): while its reader looks, after this answer is
   * sent, the renderers a session page needs are loaded; and once the server follows the index
   * (the background thread runs one job at a time, the catch-up sync first), all the activity is
   * counted there, which keeps each file's facts for the activity page's own calls. An activity
   * page that asks for all of it while that count runs gets its answer, rather than a second
   * count queued behind it.
   */
  private prepare(): void {
    if (this.prepared) return;
    this.prepared = true;
    setImmediate(() => {
      this.recall.exports.loadRenderers().catch(() => undefined);
    });
    const counting = this.options.caughtUp.then(() =>
      this.recall.stats({ files: ACTIVITY_FILES, sync: false }),
    );
    this.counting = counting;
    counting
      .finally(() => {
        if (this.counting === counting) this.counting = undefined;
      })
      .catch(() => undefined);
  }

  /**
   * A session's summary: from the index as it is while this server follows it (a freshness
   * check costs a look at every session file), and after a sync if it is not there yet.
   */
  private async summary(id: string): Promise<SessionSummary> {
    const freshness = this.freshness();
    try {
      return await this.recall.get(checkedId(id), freshness);
    } catch (error) {
      if (freshness.sync === false && error instanceof RecallError && error.code === "NOT_FOUND")
        return this.recall.get(checkedId(id));
      throw error;
    }
  }

  private freshness(): { sync?: boolean } {
    return this.options.followed() ? { sync: false } : {};
  }

  /** The remote a request names (`remote=`), checked against the config's. */
  private remoteOf(query: URLSearchParams, required = false): string | undefined {
    const remote = query.get("remote") || undefined;
    if (remote === undefined) {
      if (required) throw new RecallError("BAD_INPUT", "name the archive: remote=NAME");
      return undefined;
    }
    if (!this.options.info.remotes.includes(remote))
      throw new RecallError("NOT_FOUND", `no remote named ${remote} in recall's config.json`);
    return remote;
  }

  /** Scope filters: `scope=folder` is the folder serve started in, `project` its project. */
  private scopeOf(query: URLSearchParams): { cwd?: string; repo?: string } {
    const scope = query.get("scope") ?? "all";
    if (scope === "folder") return { cwd: this.options.info.folder };
    if (scope === "project") return { repo: this.options.info.folder };
    if (scope === "all") return {};
    throw new RecallError("BAD_INPUT", `no scope ${scope}: all, folder or project`);
  }

  private async search(query: URLSearchParams): Promise<SearchAnswer> {
    const text = (query.get("q") ?? "").trim();
    const scope = this.scopeOf(query);
    const remote = this.remoteOf(query);
    const limit = Math.min(MAX_LIMIT, HITS_PER_PAGE);
    if (remote !== undefined) {
      if (!text)
        return { hits: [], nextCursor: null, readAs: null, note: "type to search the archive" };
      const page = await this.recall.archive.search(remote, { query: text, limit, ...scope });
      return { hits: page.hits.map(webHit), nextCursor: null, readAs: null, note: null };
    }
    if (!text) {
      const sessions = await this.recall.list({ limit, ...scope, ...this.freshness() });
      return { hits: sessions.map(listedHit), nextCursor: null, readAs: null, note: null };
    }
    const match = query.get("match") ?? undefined;
    if (match !== undefined && !this.options.info.matchModes.includes(match as never))
      throw new RecallError(
        "BAD_INPUT",
        `no match mode ${match} here: ${this.options.info.matchModes.join(", ")}`,
      );
    const page = await this.recall.search({
      query: text,
      prefix: true,
      limit,
      ...scope,
      ...(match ? { match: match as never } : {}),
      ...(query.get("cursor") ? { cursor: query.get("cursor")! } : {}),
      ...this.freshness(),
    });
    const coverage = page.coverage;
    return {
      hits: page.hits.map(webHit),
      nextCursor: page.nextCursor,
      readAs:
        page.readAs.length > 0
          ? page.readAs.map((r) => `${r.word} → ${r.readAs}`).join(", ")
          : null,
      note:
        coverage && meaningIncomplete(coverage)
          ? `the meaning index covers ${coverage.embedded} of ${coverage.messages} messages so far`
          : null,
    };
  }

  /**
   * The session's view, rendered once per version of its file; an archived one (`remote=`) is
   * read again when its page is opened (`fresh`), and kept for the parts the page asks for after.
   */
  private async view(id: string, query: URLSearchParams, fresh = false): Promise<SessionView> {
    const remote = this.remoteOf(query);
    if (remote !== undefined) {
      const key = `${remote}\n${checkedId(id)}`;
      const kept = this.views.get(key);
      if (kept && !fresh) return kept.view;
      return this.keep(key, "archive", await this.recall.exports.archivedView(remote, id));
    }
    const summary = await this.summary(id);
    // `branches=all`: the branches left behind too, each after the message it left from.
    const allBranches = query.get("branches") === "all";
    const key = `${summary.id}${allBranches ? "\nall" : ""}`;
    const stamp = `${summary.modified}:${summary.messageCount}`;
    const kept = this.views.get(key);
    if (kept && kept.stamp === stamp) return kept.view;
    this.recall.checkFile(summary);
    return this.keep(key, stamp, await this.recall.exports.view(summary, { allBranches }));
  }

  private keep(key: string, stamp: string, view: SessionView): SessionView {
    this.views.delete(key);
    this.views.set(key, { stamp, view });
    if (this.views.size > KEPT_VIEWS) this.views.delete(this.views.keys().next().value!);
    return view;
  }

  private async session(id: string, query: URLSearchParams): Promise<SessionAnswer> {
    const view = await this.view(id, query, true);
    const entry = query.get("entry");
    const marked = entry ? view.parts.findIndex((part) => part.entryIds.includes(entry)) : -1;
    // The first screen, or the screen around the marked part.
    const from =
      marked < 0
        ? 0
        : Math.max(
            0,
            Math.min(
              marked - Math.floor(FIRST_SCREEN_PARTS / 4),
              view.parts.length - FIRST_SCREEN_PARTS,
            ),
          );
    const { summary } = view;
    return {
      id: summary.id,
      title: sessionTitle(summary),
      fields: view.fields,
      resume: view.origin
        ? shellLine(["recall", "pull", summary.id, "--remote", view.origin.remote])
        : view.resume,
      tags: summary.tags,
      folder: summary.cwd,
      project: summary.project,
      total: view.parts.length,
      from,
      parts: view.parts.slice(from, from + FIRST_SCREEN_PARTS).map(partAnswer),
      marked,
      origin: view.origin ?? null,
    };
  }

  private async parts(id: string, query: URLSearchParams): Promise<PartsAnswer> {
    const view = await this.view(id, query);
    const from = wholeNumber(query.get("from") ?? "0", "from");
    const count = Math.min(
      PARTS_PER_PAGE,
      wholeNumber(query.get("count") ?? String(PARTS_PER_PAGE), "count"),
    );
    return { from, parts: view.parts.slice(from, from + count).map(partAnswer) };
  }

  private async related(id: string): Promise<WebHit[]> {
    const page = await this.recall.related({
      session: checkedId(id),
      limit: 6,
      ...this.freshness(),
    });
    return page.hits.map(webHit);
  }

  /**
   * Writes the session file the archive keeps into this machine's sessions folder, and says how to
   * resume it.
   */
  private async pull(id: string, query: URLSearchParams): Promise<PullAnswer> {
    const pulled = await this.recall.archive.pull(this.remoteOf(query, true)!, checkedId(id));
    const plan = await this.recall
      .resumePlan({ id: pulled.id, path: pulled.path, cwd: pulled.cwd })
      .catch(() => null);
    return {
      id: pulled.id,
      alreadyHere: pulled.alreadyHere,
      resume: plan ? resumeShellLine(plan) : shellLine(["pi", "--fork", pulled.path]),
    };
  }

  private async export(id: string, query: URLSearchParams) {
    const format = query.get("format") ?? "md";
    const summary = await this.summary(id);
    this.recall.checkFile(summary);
    const text = await this.recall.exports.render(summary, {
      format: format as never,
      redact: query.get("redact") === "1",
      allBranches: query.get("allBranches") === "1",
    });
    const html = format === "html";
    return {
      kind: "body" as const,
      body: text,
      type: html ? "text/html; charset=utf-8" : "text/markdown; charset=utf-8",
      headers: {
        "Content-Disposition": `attachment; filename="session-${summary.id}.${html ? "html" : "md"}"`,
      },
    };
  }

  private async editTags(id: string, body: unknown): Promise<TagsAnswer> {
    const { add = [], remove = [] } = (body ?? {}) as { add?: unknown; remove?: unknown };
    if (!isStrings(add) || !isStrings(remove))
      throw new RecallError("BAD_INPUT", "send { add: [tags], remove: [tags] }");
    const session = await this.recall.resolve(checkedId(id));
    if (add.length > 0) await this.recall.tags.add([session], parseTags(add));
    if (remove.length > 0) await this.recall.tags.remove([session], parseTags(remove));
    const tags = (await this.recall.tags.of(session)).tags;
    return { tags, all: await this.recall.tags.counts() };
  }

  private async activity(query: URLSearchParams): Promise<ActivityAnswer> {
    const days = query.get("since");
    const scope = this.scopeOf(query);
    const all = !days && Object.keys(scope).length === 0;
    const counted = all && this.counting ? await this.counting.catch(() => undefined) : undefined;
    const stats =
      counted ??
      (await this.recall.stats({
        ...scope,
        ...(days ? { since: daysBack(wholeNumber(days, "since")) } : {}),
        files: ACTIVITY_FILES,
        ...this.freshness(),
      }));
    return {
      totals: {
        sessions: stats.totals.sessions,
        messages: stats.totals.messages,
        tokens: stats.totals.tokens,
        cost: stats.totals.cost,
      },
      charts: activityCharts(stats),
      files: stats.files,
      unreadable: stats.unreadable,
    };
  }
}

function json(value: unknown) {
  return { kind: "json" as const, value };
}

function checkedId(id: string): string {
  if (!SESSION_ID.test(id))
    throw new RecallError("BAD_INPUT", "a session is named here by its id or an id prefix");
  return id;
}

function wholeNumber(text: string, field: string): number {
  if (!/^\d{1,9}$/.test(text))
    throw new RecallError("BAD_INPUT", `${field} is a whole number`, { field, value: text });
  return Number(text);
}

/**
 * The local midnight that starts the window of the last `days` days, today included: the same
 * for every call of a day, so the library's listing of the window is reused between calls.
 */
function daysBack(days: number): number {
  const start = new Date();
  start.setHours(0, 0, 0, 0);
  start.setDate(start.getDate() - Math.max(0, days - 1));
  return start.getTime();
}

function isStrings(value: unknown): value is string[] {
  return (
    Array.isArray(value) &&
    value.length <= 100 &&
    value.every((v) => typeof v === "string" && v.length <= 200)
  );
}

function partAnswer(part: { html: string; entryIds: string[] }): PartAnswer {
  return { html: part.html, entryIds: part.entryIds };
}

function webHit(hit: SearchHit | ArchiveHit): WebHit {
  return {
    ...summaryFields(hit),
    snippet: segments(hit.snippet, hit.spans),
    matchedBy: hit.matchedBy ?? null,
    entryId: hit.message?.entryId ?? null,
    kind: hit.message?.kind ?? null,
    origin: "origin" in hit ? hit.origin : null,
  };
}

function listedHit(session: SessionSummary): WebHit {
  return {
    ...summaryFields(session),
    snippet: [{ text: session.firstMessage, match: false }],
    matchedBy: null,
    entryId: null,
    kind: null,
    origin: null,
  };
}

function summaryFields(session: SessionSummary) {
  return {
    id: session.id,
    title: sessionTitle(session),
    project: session.project,
    folder: session.cwd,
    modified: session.modified,
    messages: session.messageCount,
    tags: session.tags,
  };
}
