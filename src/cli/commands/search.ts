import { basename } from "node:path";
import { Command, Option } from "clipanion";
import { isNumber } from "typanion";
import { DEFAULT_LIMIT, searchSessions, type SearchHit } from "../../api/search.js";
import { syncIndex } from "../../sync/sync.js";
import { takeTagNotices } from "../../tags/open-tags.js";
import { formatAge } from "../../output/age.js";
import { highlightLine } from "../../output/highlight.js";
import { parseTime } from "../../output/time.js";
import { BaseCommand } from "../base-command.js";
import { Exit, type ExitCode } from "../exit.js";
import { syncNotices } from "../sync-notices.js";

export class SearchCommand extends BaseCommand {
  static paths = [["search"]];

  static usage = Command.Usage({
    description: "find the Pi sessions that talked about something",
    details: `
      Searches the text of every Pi session (user and assistant messages, compaction and branch summaries, custom messages) and prints one result per session, best first. Words are matched whole and any of them may match; sessions matching more of them, or the exact phrase, rank higher, and recent sessions get a boost. A "quoted phrase" must appear as written.

      \`#tag\` keeps only the sessions tagged with it (with several, sessions carrying all of them) and \`-#tag\` drops those tagged with it; a query of tags alone lists their sessions, newest first. Tag words are also searched as text, so \`codebase\` finds a session tagged \`#codebase\`. A shell takes an unquoted \`#\` for a comment: quote the query, and put \`-#tag\` inside the quotes or after \`--\`.

      The index is brought up to date first (only new and changed session files are read), unless \`--no-sync\` is given.

      Exit status: 0 if a session was found, 1 if none was, 2 on error.
    `,
    examples: [
      ["Find a session", "$0 search staging deploy"],
      ["Only sessions of the current folder, from the last week", "$0 search --here --since 7d flaky test"],
      ["Sessions tagged #k8s, but not #wip, that mention helm", "$0 search 'helm #k8s -#wip'"],
      ["Resume the best match in Pi", `pi --session "$($0 search --json staging deploy | jq -r .path | head -1)"`],
    ],
  });

  query = Option.Rest({ name: "query", required: 1 });
  limit = Option.String("-n,--limit", String(DEFAULT_LIMIT), {
    description: "Show at most this many sessions",
    validator: isNumber(),
  });
  here = Option.Boolean("--here", false, { description: "Only sessions started in the current folder" });
  cwd = Option.String("--cwd", { description: "Only sessions started in this folder" });
  since = Option.String("--since", { description: "Only messages from this time on: 7d, 24h, 2w, today, yesterday, 2026-11-01" });
  until = Option.String("--until", { description: "Only messages up to this time (same forms as --since)" });
  prefix = Option.Boolean("--prefix", false, { description: "Also match the last word as a prefix (as the picker does while you type)" });
  json = Option.Boolean("--json", false, { description: "Print one JSON object per session (JSON Lines)" });
  sync = Option.Boolean("--sync", true, { description: "Update the index before searching (--no-sync skips it)" });

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
    const query = this.query.join(" ");

    const store = this.openStore();
    if (this.sync) {
      for (const notice of syncNotices(await syncIndex(store))) this.warn(notice);
    }
    const hits = await searchSessions(store, { query, limit, prefix: this.prefix, cwd, since, until, now });
    // With --no-sync, a `#tag` query may be what opened the tag store (and imported pi-recall's tags).
    for (const notice of takeTagNotices(store)) this.warn(notice);
    if (hits.length === 0) {
      if (!this.json) this.warn(cwd ? `no session in ${cwd} matches "${query}"; drop --here/--cwd to search every project` : `no session matches "${query}"`);
      return Exit.NoMatch;
    }
    for (const hit of hits) {
      if (this.json) this.out(JSON.stringify(hit));
      else this.printHit(hit, now);
    }
    return Exit.Ok;
  }

  private printHit(hit: SearchHit, now: number): void {
    const paint = this.paint;
    const title = hit.name || hit.firstMessage || "(no title)";
    const project = hit.cwd ? basename(hit.cwd) : "(unknown folder)";
    const details = [paint.cyan(project), formatAge(Date.parse(hit.modified), now), paint.dim(hit.id)];
    if (hit.tags.length > 0) details.push(paint.magenta(hit.tags.map((t) => `#${t}`).join(" ")));
    this.out(paint.bold(oneLineTitle(title)));
    this.out(`  ${details.join(paint.dim(" · "))}`);
    if (hit.snippet) this.out(`  ${highlightLine(hit.snippet, hit.spans, (t) => paint.bold.red(t))}`);
    this.out(`  ${paint.dim(hit.path)}`);
    this.out("");
  }
}

function oneLineTitle(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 100 ? `${flat.slice(0, 99)}…` : flat;
}
