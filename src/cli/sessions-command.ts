/**
 * What `search` and `list` share: scope options (--here, --cwd, --since, --until, --limit), the
 * sync before answering, and printing sessions as human blocks or in a pipeline format
 * (--json, --format json|tsv|path, -0).
 */
import { Option } from "./options.js";
import { isEnum } from "typanion";
import { RecallError, type Freshness, type SessionSummary } from "../index.js";
import { formatAge } from "../output/age.js";
import {
  formatRecord,
  OUTPUT_FORMATS,
  type OutputFormat,
  type PrintableSession,
} from "../output/format.js";
import { formatTags, projectFolder, sessionTitle } from "../output/session-text.js";
import { highlightLine } from "../output/highlight.js";
import { parseTime } from "../output/time.js";
import { BaseCommand } from "./base-command.js";
import { Exit, type ExitCode } from "./exit.js";
import { terminalText } from "../output/terminal-text.js";
import { wireLine, type WireRecord } from "./wire.js";

export interface Scope {
  limit: number;
  cwd?: string;
  /** A folder whose project scopes the sessions (--repo: the current one). */
  repo?: string;
  since?: number;
  until?: number;
  now: number;
}

export abstract class SessionsCommand extends BaseCommand {
  abstract limit: number;
  abstract since: string | undefined;
  abstract until: string | undefined;
  here = Option.Boolean("--here", false, {
    description: "Only sessions started in the current folder",
  });
  cwd = Option.String("--cwd", { description: "Only sessions started in this folder" });
  repo = Option.Boolean("--repo", false, {
    description:
      "Only sessions of the current folder's project: any folder, clone or worktree of its git repository",
  });
  json = Option.Boolean("--json", false, {
    description: "Print one JSON object per session (JSON Lines); same as --format json",
  });
  format = Option.String("--format", {
    description:
      "Print sessions for a pipeline: json (JSON Lines), tsv (id, folder, age, title, snippet, path) or path",
    validator: isEnum(OUTPUT_FORMATS),
  });
  null = Option.Boolean("-0,--null", false, {
    description: "End each record with a NUL byte instead of a newline (with --format)",
  });
  noSync = Option.Boolean("--no-sync", false, {
    description: "Answer from the index as it is, without bringing it up to date first",
  });

  /** The options that narrow the sessions, checked and parsed. */
  scope(): Scope {
    const limit = Number(this.limit);
    if (!Number.isInteger(limit) || limit < 1)
      throw new RecallError(
        "BAD_INPUT",
        `--limit must be a whole number of at least 1, not ${this.limit}`,
      );
    const now = Date.now();
    return {
      limit,
      now,
      cwd: this.cwd ?? (this.here ? this.context.cwd : undefined),
      repo: this.repo ? this.context.cwd : undefined,
      since: this.since === undefined ? undefined : parseTime(this.since, now),
      until: this.until === undefined ? undefined : parseTime(this.until, now, "end"),
    };
  }

  /**
   * The exit code when there are no sessions to look at, with the line that says why: a missing
   * sessions folder that a setting names is an error, Pi's default one not there yet is nothing
   * found.
   */
  noSessionsFolder(): ExitCode | undefined {
    const problem = this.sessionsFolderProblem();
    if (!problem) return undefined;
    this.warn(problem.message);
    return problem.fatal ? Exit.Error : Exit.NoMatch;
  }

  /** `json`, `tsv` or `path` for a pipeline; undefined for human output. */
  pipelineFormat(): OutputFormat | undefined {
    if (this.json && this.format && this.format !== "json")
      throw new RecallError(
        "BAD_INPUT",
        `--json and --format ${this.format} contradict each other`,
      );
    if (this.null && !this.json && !this.format)
      throw new RecallError("BAD_INPUT", "-0/--null goes with --format (or --json)");
    return this.json ? "json" : (this.format as OutputFormat | undefined);
  }

  /**
   * How the library treats the index before answering: brought up to date unless --no-sync, by
   * a freshness check perhaps under way since the process started (see early-look.ts).
   */
  freshness(): Freshness {
    return { sync: !this.noSync, early: this.context.earlyLook };
  }

  /**
   * The sessions and the text that prints them (`print`, for each), made as soon as they are read.
   */
  page<T>(sessions: T[], print: (session: T) => string): { sessions: T[]; text: string } {
    return { sessions, text: sessions.map(print).join("") };
  }

  /**
   * A session in a pipeline format, with its terminator; `wire` is its JSON record (see wire.ts).
   */
  record(
    session: PrintableSession,
    format: OutputFormat,
    now: number,
    wire: () => WireRecord,
  ): string {
    return (
      (format === "json" ? wireLine(wire()) : formatRecord(session, format, now)) +
      (this.null ? "\0" : "\n")
    );
  }

  /**
   * A session for a person: title, folder · age · details · id · tags, snippet, path (or `where` it
   * lives); a blank line.
   */
  block(
    session: SessionSummary,
    now: number,
    extra: {
      details?: string[];
      snippet?: string;
      spans?: [number, number][];
      where?: string;
    } = {},
  ): string {
    const paint = this.paint;
    const details = [
      paint.cyan(terminalText(projectFolder(session.cwd))),
      formatAge(Date.parse(session.modified), now),
      ...(extra.details ?? []),
      paint.dim(terminalText(session.id)),
    ];
    if (session.tags.length > 0) details.push(paint.magenta(formatTags(session.tags)));
    const title = terminalText(sessionTitle(session));
    const lines = [
      paint.bold(title.length > 100 ? `${title.slice(0, 99)}…` : title),
      `  ${details.join(paint.dim(" · "))}`,
    ];
    if (extra.snippet)
      lines.push(`  ${highlightLine(extra.snippet, extra.spans ?? [], (t) => paint.bold.red(t))}`);
    lines.push(`  ${paint.dim(terminalText(extra.where ?? session.path))}`);
    return `${lines.join("\n")}\n\n`;
  }
}
