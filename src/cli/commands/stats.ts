import { Command } from "clipanion";
import { isNumber } from "typanion";
import { DEFAULT_STATS_FILES, RecallError, type Activity, type Stats } from "../../index.js";
import { parseTime } from "../../output/time.js";
import { terminalText } from "../../output/terminal-text.js";
import { BaseCommand } from "../base-command.js";
import { Exit, type ExitCode } from "../exit.js";
import { Option } from "../options.js";
import { statsRecords, wireLine } from "../wire.js";

export class StatsCommand extends BaseCommand {
  static paths = [["stats"]];

  static usage = Command.Usage({
    description:
      "where the work went: sessions, messages, tokens and cost by day, project and model, and the busiest files",
    details: `
      Counts the user and assistant messages of the sessions active in the window (\`--since\`, \`--until\`; default: all of them), by local calendar day, by project (the \`--repo\` identity of the session's folder: its git remote, else its folder) and by model (\`provider/model\` of each reply), with the sessions each group holds and the tokens and cost Pi recorded on the replies (a cost of 0 where Pi knew no price). Then the files tool calls read, edited, wrote or named most (\`--files N\`, default ${DEFAULT_STATS_FILES}). Every branch counts; a fork's copies of its parent's messages count once, in the parent.

      The first count reads the session files of those sessions, which takes a while for a long history; what it read is kept in the cache folder, so a later count reads only the files that changed since (and of a file that grew, only what it grew by).

      \`--json\` prints JSON Lines: a \`day\`, \`project\` and \`model\` record per group (\`sessions\`, \`messages\`, \`input\`, \`output\`, \`cacheRead\`, \`cacheWrite\`, \`tokens\`, \`cost\`), a \`file\` record per busy file (\`path\`, \`calls\`, \`sessions\`), then one \`totals\` record (the same sums, and \`unreadable\`: session files that could not be read).

      Exit status: 0 if there was a message in the window, 1 if none, 2 on error.
    `,
    examples: [
      ["The last 30 days", "$0 stats --since 30d"],
      ["This project's work this week", "$0 stats --repo --since 7d"],
      [
        "Cost per model as JSON",
        "$0 stats --json | jq 'select(.type == \"model\") | {model, cost}'",
      ],
    ],
  });

  since = Option.String("--since", {
    description: "Only messages from this time on: 7d, 24h, 2w, today, yesterday, 2026-11-01",
  });
  until = Option.String("--until", {
    description: "Only messages up to this time (same forms as --since)",
  });
  here = Option.Boolean("--here", false, {
    description: "Only sessions started in the current folder",
  });
  repo = Option.Boolean("--repo", false, {
    description:
      "Only sessions of the current folder's project: any folder, clone or worktree of its git repository",
  });
  files = Option.String("--files", String(DEFAULT_STATS_FILES), {
    description: `Busiest files to show (default ${DEFAULT_STATS_FILES}; 0 for none)`,
    validator: isNumber(),
  });
  json = Option.Boolean("--json", false, {
    description: "Print JSON Lines: day, project, model and file records, then the totals",
  });

  async run(): Promise<ExitCode> {
    const files = Number(this.files);
    if (!Number.isInteger(files) || files < 0)
      throw new RecallError(
        "BAD_INPUT",
        `--files must be a whole number of at least 0, not ${this.files}`,
      );
    const now = Date.now();
    const stats = await this.recall().stats({
      since: this.since === undefined ? undefined : parseTime(this.since, now),
      until: this.until === undefined ? undefined : parseTime(this.until, now, "end"),
      cwd: this.here ? this.context.cwd : undefined,
      repo: this.repo ? this.context.cwd : undefined,
      files,
    });
    this.warnNotices();
    if (stats.unreadable > 0)
      this.warn(
        `${stats.unreadable} session file${stats.unreadable === 1 ? "" : "s"} could not be read and ${stats.unreadable === 1 ? "is" : "are"} left out`,
      );
    if (this.json) for (const record of statsRecords(stats)) this.out(wireLine(record));
    else if (stats.totals.messages > 0) this.printTables(stats);
    if (stats.totals.messages === 0) {
      if (!this.json) this.warn("no message in that window");
      return Exit.NoMatch;
    }
    return Exit.Ok;
  }

  private printTables(stats: Stats): void {
    const activity = (name: string, rows: Array<[string, Activity]>) =>
      this.table(
        [name, "sessions", "messages", "tokens", "cost"],
        rows.map(([key, a]) => [
          terminalText(key),
          count(a.sessions),
          count(a.messages),
          count(a.tokens),
          cost(a.cost),
        ]),
      );
    activity(
      "day",
      stats.days.map((d) => [d.day, d]),
    );
    activity(
      "project",
      stats.projects.map((p) => [p.project || "(unknown folder)", p]),
    );
    activity(
      "model",
      stats.models.map((m) => [m.model, m]),
    );
    if (stats.files.length > 0)
      this.table(
        ["file", "calls", "sessions"],
        stats.files.map((f) => [terminalText(f.path), count(f.calls), count(f.sessions)]),
      );
    const t = stats.totals;
    this.out(
      this.paint.bold(
        `${count(t.sessions)} sessions, ${count(t.messages)} messages, ${count(t.tokens)} tokens, cost ${cost(t.cost)}`,
      ),
    );
  }

  /**
   * Columns padded to their widest cell, the first left-aligned and the rest right-aligned, then a
   * blank line.
   */
  private table(header: string[], rows: string[][]): void {
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) =>
      cells
        .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
        .join("  ")
        .trimEnd();
    this.out(this.paint.bold(line(header)));
    for (const row of rows) this.out(line(row));
    this.out("");
  }
}

function count(n: number): string {
  return n.toLocaleString("en-US");
}

function cost(n: number): string {
  return n === 0 ? "0" : n.toFixed(n < 1 ? 4 : 2);
}
