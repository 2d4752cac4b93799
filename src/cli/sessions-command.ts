/**
 * What `search` and `list` share: scope options (--here, --cwd, --since, --until, --limit), the
 * sync before answering, and printing sessions as human blocks or in a pipeline format
 * (--json, --format json|tsv|path, -0).
 */
import { Option } from "clipanion";
import { isEnum } from "typanion";
import type { SessionSummary } from "../api/session-summary.js";
import { RecallError } from "../errors.js";
import { formatAge } from "../output/age.js";
import { formatRecord, OUTPUT_FORMATS, projectFolder, sessionTitle, type OutputFormat, type PrintableSession } from "../output/format.js";
import { highlightLine } from "../output/highlight.js";
import { parseTime } from "../output/time.js";
import type { IndexStore } from "../store.js";
import { readWhileSyncing } from "../sync/sync.js";
import { BaseCommand } from "./base-command.js";
import { syncNotices } from "./sync-notices.js";

export interface Scope {
  limit: number;
  cwd?: string;
  since?: number;
  until?: number;
  now: number;
}

export abstract class SessionsCommand extends BaseCommand {
  abstract limit: number;
  abstract since: string | undefined;
  abstract until: string | undefined;
  here = Option.Boolean("--here", false, { description: "Only sessions started in the current folder" });
  cwd = Option.String("--cwd", { description: "Only sessions started in this folder" });
  json = Option.Boolean("--json", false, { description: "Print one JSON object per session (JSON Lines); same as --format json" });
  format = Option.String("--format", {
    description: "Print sessions for a pipeline: json (JSON Lines), tsv (id, folder, age, title, snippet, path) or path",
    validator: isEnum(OUTPUT_FORMATS),
  });
  null = Option.Boolean("-0,--null", false, { description: "End each record with a NUL byte instead of a newline (with --format)" });
  sync = Option.Boolean("--sync", true, { description: "Update the index first (--no-sync skips it)" });

  /** The options that narrow the sessions, checked and parsed. */
  scope(): Scope {
    const limit = Number(this.limit);
    if (!Number.isInteger(limit) || limit < 1) throw new RecallError("BAD_INPUT", `--limit must be a whole number of at least 1, not ${this.limit}`);
    const now = Date.now();
    return {
      limit,
      now,
      cwd: this.cwd ?? (this.here ? this.context.cwd : undefined),
      since: this.since === undefined ? undefined : parseTime(this.since, now),
      until: this.until === undefined ? undefined : parseTime(this.until, now),
    };
  }

  /** `json`, `tsv` or `path` for a pipeline; undefined for human output. */
  pipelineFormat(): OutputFormat | undefined {
    if (this.json && this.format && this.format !== "json") throw new RecallError("BAD_INPUT", `--json and --format ${this.format} contradict each other`);
    if (this.null && !this.json && !this.format) throw new RecallError("BAD_INPUT", "-0/--null goes with --format (or --json)");
    return this.json ? "json" : (this.format as OutputFormat | undefined);
  }

  /**
   * The sessions `read` finds in the index, and the text that prints them (`print`, for each).
   * The index is brought up to date first unless --no-sync, with the read overlapping the
   * freshness check (see readWhileSyncing), itself perhaps under way since the process started
   * (see early-look.ts). The text is made as soon as the sessions are read: a check that has not
   * finished yet (a large history without `recall watch`) is waited for with the page formatted.
   */
  async readPage<T>(read: (store: IndexStore) => Promise<T[]>, print: (session: T) => string): Promise<{ sessions: T[]; text: string }> {
    const store = this.openStore();
    const page = async () => {
      const sessions = await read(store);
      return { sessions, text: sessions.map(print).join("") };
    };
    // An index just rebuilt empty is filled even with --no-sync: it would answer nothing.
    if (!this.sync && !store.replaced) return page();
    const { value, report } = await readWhileSyncing(store, page, this.context.earlyLook);
    if (report) for (const notice of syncNotices(report)) this.warn(notice);
    return value;
  }

  /** A session in a pipeline format, with its terminator. */
  record(session: PrintableSession, format: OutputFormat, now: number): string {
    return formatRecord(session, format, now) + (this.null ? "\0" : "\n");
  }

  /** A session for a person: title, folder · age · details · id · tags, snippet, path; a blank line. */
  block(session: SessionSummary, now: number, extra: { details?: string[]; snippet?: string; spans?: [number, number][] } = {}): string {
    const paint = this.paint;
    const details = [paint.cyan(projectFolder(session.cwd)), formatAge(Date.parse(session.modified), now), ...(extra.details ?? []), paint.dim(session.id)];
    if (session.tags.length > 0) details.push(paint.magenta(session.tags.map((t) => `#${t}`).join(" ")));
    const title = sessionTitle(session);
    const lines = [paint.bold(title.length > 100 ? `${title.slice(0, 99)}…` : title), `  ${details.join(paint.dim(" · "))}`];
    if (extra.snippet) lines.push(`  ${highlightLine(extra.snippet, extra.spans ?? [], (t) => paint.bold.red(t))}`);
    lines.push(`  ${paint.dim(session.path)}`);
    return `${lines.join("\n")}\n\n`;
  }
}
