import { Command, Option } from "clipanion";
import { isNumber } from "typanion";
import { DEFAULT_LIMIT } from "../../index.js";
import { Exit, type ExitCode } from "../exit.js";
import { SessionsCommand } from "../sessions-command.js";
import { searchHitRecord } from "../wire.js";
import { quote } from "../../output/quote.js";

export class SearchCommand extends SessionsCommand {
  static paths = [["search"]];

  static usage = Command.Usage({
    description: "find the Pi sessions that talked about something",
    details: `
      Searches the text of every Pi session (user and assistant messages, compaction and branch summaries, custom messages) and prints one result per session, best first. Words are matched whole and any of them may match; sessions matching more of them, or the exact phrase, rank higher, and recent sessions get a boost. A "quoted phrase" must appear as written.

      \`#tag\` keeps only the sessions tagged with it (with several, sessions carrying all of them) and \`-#tag\` drops those tagged with it; a query of tags alone lists their sessions, newest first. Tag words and session names are also searched as text, so \`codebase\` finds a session tagged \`#codebase\`. A shell takes an unquoted \`#\` that begins a word for a comment: quote the query. A word that starts with a dash and is no option (\`-#wip\`, \`-x\`) is part of the query; \`--\` ends the options.

      Chinese, Japanese and Korean text is matched by pairs of characters: a query of two or more such characters finds text that holds them in a row.

      The index is brought up to date first (only new and changed session files are read), unless \`--no-sync\` is given.

      Exit status: 0 if a session was found, 1 if none was, 2 on error.
    `,
    examples: [
      ["Find a session", "$0 search staging deploy"],
      ["Only sessions of the current folder, from the last week", "$0 search --here --since 7d flaky test"],
      ["Sessions tagged #k8s, but not #wip, that mention helm", "$0 search 'helm #k8s -#wip'"],
      ["Resume the best match in Pi", `pi --session "$($0 search --json staging deploy | jq -r .path | head -1)"`],
      ["Pick among the matches with fzf", `$0 search --format tsv staging | fzf --delimiter '\\t' --with-nth 4,2,3 --preview '$0 read --limit 20 {1}' | cut -f1`],
    ],
  });

  query = Option.Rest({ name: "query", required: 1 });
  limit = Option.String("-n,--limit", String(DEFAULT_LIMIT), {
    description: "Show at most this many sessions",
    validator: isNumber(),
  });
  since = Option.String("--since", { description: "Only messages from this time on: 7d, 24h, 2w, today, yesterday, 2026-11-01" });
  until = Option.String("--until", { description: "Only messages up to this time (same forms as --since)" });
  prefix = Option.Boolean("--prefix", false, { description: "Also match the last word as a prefix (as the picker does while you type)" });

  async run(): Promise<ExitCode> {
    const format = this.pipelineFormat();
    const { limit, cwd, since, until, now } = this.scope();
    const query = this.query.join(" ");
    const missing = this.noSessionsFolder();
    if (missing !== undefined) return missing;
    // The page is formatted while the freshness check finishes (see Recall.search).
    const page = await this.recall().search({ query, limit, prefix: this.prefix, cwd, since, until, now, ...this.freshness() }, ({ hits }) =>
      this.page(hits, (hit) => (format ? this.record(hit, format, now, () => searchHitRecord(hit)) : this.block(hit, now, { snippet: hit.snippet, spans: hit.spans }))),
    );
    this.warnNotices();
    if (page.sessions.length === 0) {
      if (!format) this.warn(cwd ? `no session in ${cwd} matches ${quote(query)}; drop --here/--cwd to search every project` : `no session matches ${quote(query)}`);
      return Exit.NoMatch;
    }
    this.context.stdout.write(page.text);
    return Exit.Ok;
  }
}
