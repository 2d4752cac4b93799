import { basename } from "node:path";
import { Command, Option } from "clipanion";
import { isNumber } from "typanion";
import { DEFAULT_LIST_LIMIT, listSessions } from "../../api/list.js";
import type { SessionSummary } from "../../api/session-summary.js";
import { formatAge } from "../../output/age.js";
import { parseTime } from "../../output/time.js";
import { oneLine } from "../../sessions/text.js";
import { syncIndex } from "../../sync/sync.js";
import { BaseCommand } from "../base-command.js";
import { Exit, type ExitCode } from "../exit.js";
import { syncNotices } from "../sync-notices.js";

export class ListCommand extends BaseCommand {
  static paths = [["list"]];

  static usage = Command.Usage({
    description: "list Pi sessions, most recently active first",
    details: `
      Prints each session with its name (or first message), folder, last activity, message count, id, tags and file path. \`--since\` and \`--until\` keep the sessions whose last message falls in that window.

      The index is brought up to date first, unless \`--no-sync\` is given. Sessions without any message (header-only files) are not listed.

      Exit status: 0 if a session was listed, 1 if none was, 2 on error.
    `,
    examples: [
      ["The latest sessions", "$0 list"],
      ["Sessions of this folder from the last two weeks", "$0 list --here --since 2w"],
      ["Read the latest session", "$0 list -n 1 --json | jq -r .id | $0 read -"],
    ],
  });

  limit = Option.String("-n,--limit", String(DEFAULT_LIST_LIMIT), {
    description: "Show at most this many sessions",
    validator: isNumber(),
  });
  here = Option.Boolean("--here", false, { description: "Only sessions started in the current folder" });
  cwd = Option.String("--cwd", { description: "Only sessions started in this folder" });
  since = Option.String("--since", { description: "Only sessions active from this time on: 7d, 24h, 2w, today, yesterday, 2026-11-01" });
  until = Option.String("--until", { description: "Only sessions last active up to this time (same forms as --since)" });
  json = Option.Boolean("--json", false, { description: "Print one JSON object per session (JSON Lines)" });
  sync = Option.Boolean("--sync", true, { description: "Update the index before listing (--no-sync skips it)" });

  async run(): Promise<ExitCode> {
    const limit = Number(this.limit);
    if (!Number.isInteger(limit) || limit < 1) {
      this.warn(`--limit must be a whole number of at least 1, not ${this.limit}`);
      return Exit.Error;
    }
    const now = Date.now();
    const since = this.since === undefined ? undefined : parseTime(this.since, now);
    const until = this.until === undefined ? undefined : parseTime(this.until, now);
    const cwd = this.cwd ?? (this.here ? this.context.cwd : undefined);

    const store = this.openStore();
    if (this.sync) {
      for (const notice of syncNotices(await syncIndex(store))) this.warn(notice);
    }
    const sessions = await listSessions(store, { limit, cwd, since, until });
    if (sessions.length === 0) {
      const window = since !== undefined || until !== undefined ? " active in that time window" : "";
      if (!this.json) this.warn(cwd ? `no session in ${cwd}${window}` : `no session${window}`);
      return Exit.NoMatch;
    }
    for (const session of sessions) {
      if (this.json) this.out(JSON.stringify(session));
      else this.printSession(session, now);
    }
    return Exit.Ok;
  }

  private printSession(session: SessionSummary, now: number): void {
    const paint = this.paint;
    const title = session.name || session.firstMessage || "(no title)";
    const project = session.cwd ? basename(session.cwd) : "(unknown folder)";
    const count = `${session.messageCount} message${session.messageCount === 1 ? "" : "s"}`;
    const details = [paint.cyan(project), formatAge(Date.parse(session.modified), now), count, paint.dim(session.id)];
    if (session.tags.length > 0) details.push(paint.magenta(session.tags.map((t) => `#${t}`).join(" ")));
    this.out(paint.bold(oneLine(title, 100)));
    this.out(`  ${details.join(paint.dim(" · "))}`);
    this.out(`  ${paint.dim(session.path)}`);
    this.out("");
  }
}
