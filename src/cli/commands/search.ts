import { resolve } from "node:path";
import { Command } from "clipanion";
import { sinceOption, untilOption } from "../message-window.js";
import { Option } from "../options.js";
import { isEnum, isNumber } from "typanion";
import {
  CONTENT_SCOPES,
  DEFAULT_LIMIT,
  MATCH_MODES,
  meaningIncomplete,
  RecallError,
  TYPO_MODES,
  type ArchiveHit,
  type ContentScope,
  type Match,
  type Typos,
} from "../../index.js";
import type { OutputFormat } from "../../output/format.js";
import { Exit, type ExitCode } from "../exit.js";
import { SessionsCommand } from "../sessions-command.js";
import { archiveHitRecord, searchHitRecord } from "../wire.js";
import { quote } from "../../output/quote.js";
import { terminalText } from "../../output/terminal-text.js";
import type { SearchHit } from "../../index.js";

/** Where a hit outside the conversation matched (`bash output`), and what touched `--file`. */
function matchedIn(hit: SearchHit): string[] {
  const details: string[] = [];
  const m = hit.message;
  if (m && m.kind !== "conversation")
    details.push(terminalText(`${m.tool ? `${m.tool} ` : ""}${m.kind}`));
  if (hit.matchedBy)
    details.push(`matched by ${hit.matchedBy === "both" ? "words and meaning" : hit.matchedBy}`);
  if (hit.calls?.length)
    details.push(
      terminalText(`touched by ${[...new Set(hit.calls.map((c) => c.tool))].join(", ")}`),
    );
  return details;
}

/** Where an archived session lives, in place of its path. */
function whereArchived(hit: ArchiveHit): string {
  return `in remote ${hit.origin.remote}, pushed by ${hit.origin.user} from ${hit.origin.machine}`;
}

/** The options of a local search that a search of an archive does not take. */
const LOCAL_ONLY = {
  file: "--file",
  prefix: "--prefix",
  typos: "--typos",
  exact: "--exact",
  noSync: "--no-sync",
  match: "--match",
} as const;

export class SearchCommand extends SessionsCommand {
  static paths = [["search"]];

  static usage = Command.Usage({
    description: "find the Pi sessions that talked about something",
    details: `
      Searches the text of every Pi session (user and assistant messages, compaction and branch summaries, custom messages) and prints one result per session, best first. Words are matched whole and any of them may match; sessions matching more of them, or the exact phrase, rank higher, and recent sessions get a boost. A "quoted phrase" must appear as written. On a terminal, a word that no session holds is read as the nearest word one typo away that one does (\`pyhton\` finds \`python\`), and a line on stderr says so; with \`--json\`, \`--format\` or a pipe, it is searched as typed and the nearest word only suggested on stderr, so a script gets only the words it asked for (\`--typos correct\` opts in; \`--exact\` suggests nothing).

      \`#tag\` keeps only the sessions tagged with it (with several, sessions carrying all of them) and \`-#tag\` drops those tagged with it; a query of tags alone lists their sessions, newest first. Tag words and session names are also searched as text, so \`codebase\` finds a session tagged \`#codebase\`. A shell takes an unquoted \`#\` that begins a word for a comment: quote the query. A word that starts with a dash and is no option (\`-#wip\`, \`-x\`) is part of the query; \`--\` ends the options.

      Chinese, Japanese and Korean text is matched by pairs of characters: a query of two or more such characters finds text that holds them in a row.

      \`--content\` widens what is searched: \`calls\` (tool calls: the tool's name and arguments, such as a bash command or the path a read, edit or write took), \`outputs\` (what tools printed, the first 1,500 and last 500 characters of each), \`thinking\`, \`conversation\`, or \`all\`; give it more than once or comma-separated. A hit says which kind of text matched. \`--file PATH\` keeps the sessions whose tool calls read, edited or wrote that file, or whose bash commands named it (a relative PATH is taken from the current folder); with no words it lists them, newest first.

      \`--repo\` keeps the sessions of the current folder's project, in whichever folder they ran: every clone, worktree and subfolder of its git repository. A project is named by its git remote (\`origin\`, else the first; \`git@github.com:acme/app.git\` and \`https://github.com/acme/app\` are one, \`github.com/acme/app\`), read from \`.git/config\` without running git; a repository without a remote is its top folder, a folder outside git is itself. \`--here\` keeps meaning the exact folder; the two do not combine.

      With the meaning model installed, the words and the meaning are fused (\`--match both\`, the default): a session holding the words ranks by them, and one near the query in meaning is found without them, but only for a query of two words or more that some session holds a word of, so a script asking for one word, or for words no session holds, gets the words alone (exit 1 when nothing holds them). \`--match meaning\` lists the nearest sessions whatever the query; \`--exact\` searches the words as typed, by the words alone.

      An empty query (\`''\`, or only spaces) lists the latest sessions. The index is brought up to date first (only new and changed session files are read), unless \`--no-sync\` is given.

      \`--remote NAME\` searches the archive of that remote (see \`recall push\`) instead of this machine's index: the same words, phrases, tags, \`--since\`, \`--until\`, \`--content\`, \`--here\`/\`--cwd\` (the folder as the pushing machine named it) and \`--repo\` (the project identity it was pushed with), ranked the same way, one result per session, each saying which user pushed it from which machine; \`--user\` and \`--machine\` keep only theirs. Typos are searched as typed. A remote that cannot be reached, refuses the credentials or does not answer within its timeout (10 s unless its \`timeout\` says otherwise) is an error; a local search never asks a remote.

      Exit status: 0 if a session was found, 1 if none was, 2 on error.
    `,
    examples: [
      ["Find a session", "$0 search staging deploy"],
      [
        "Only sessions of the current folder, from the last week",
        "$0 search --here --since 7d flaky test",
      ],
      [
        "Sessions of this repository, in any of its clones and worktrees",
        "$0 search --repo flaky test",
      ],
      ["Sessions tagged #k8s, but not #wip, that mention helm", "$0 search 'helm #k8s -#wip'"],
      [
        "The command that printed an error, searched in tool calls and output too",
        "$0 search --content all ECONNREFUSED",
      ],
      [
        "Sessions that edited a file, and what they said about a bug there",
        "$0 search --file src/app.ts race condition",
      ],
      [
        "Search the team's archive for sessions Ada pushed",
        "$0 search --remote team --user ada staging deploy",
      ],
      [
        "Resume the best match in Pi",
        `pi --session "$($0 search --json staging deploy | jq -r .path | head -1)"`,
      ],
      [
        "Pick among the matches with fzf",
        `$0 search --format tsv staging | fzf --delimiter '\\t' --with-nth 4,2,3 --preview '$0 read --limit 20 {1}' | cut -f1`,
      ],
    ],
  });

  query = Option.Rest({ name: "query" });
  limit = Option.String("-n,--limit", String(DEFAULT_LIMIT), {
    description: `Show at most N sessions (default ${DEFAULT_LIMIT})`,
    validator: isNumber(),
  });
  since = sinceOption();
  until = untilOption();
  prefix = Option.Boolean("--prefix", false, {
    description: "Also match the last word as a prefix (as the picker does while you type)",
  });
  content = Option.Array("--content", {
    description: `What to search: ${CONTENT_SCOPES.join(", ")} (default conversation; repeatable or comma-separated)`,
  });
  file = Option.String("--file", {
    description:
      "Only sessions whose tool calls read, edited or wrote this file, or whose bash commands named it",
  });
  typos = Option.String("--typos", {
    description:
      "A word no session holds is: correct (read as the nearest word one typo away), suggest (searched as typed, the nearest word named on stderr) or off (default: correct on a terminal, suggest with --json, --format or a pipe)",
    validator: isEnum(TYPO_MODES),
  });
  exact = Option.Boolean("--exact", false, {
    description:
      "Search every word as typed, by the words alone, suggesting nothing: --typos off --match words",
  });
  match = Option.String("--match", {
    description:
      "What a session must match: words, meaning (what was said nearest the query in meaning, whatever its words) or both (the two rankings fused); meaning needs the model package recall-pi-model-minilm and `recall index --meaning`. Default: both where that package is installed, else words",
    validator: isEnum(MATCH_MODES),
  });
  remote = Option.String("--remote", {
    description:
      "Search the archive of this remote (see recall push) instead of this machine's sessions",
  });
  user = Option.String("--user", { description: "With --remote: only sessions this user pushed" });
  machine = Option.String("--machine", {
    description: "With --remote: only sessions pushed from this machine",
  });

  /**
   * What a word no session holds is read as: a person at a terminal gets its nearest word (and a
   * line saying so); a script (--json, --format, stdout not a terminal) gets the words it asked
   * for, and a "did you mean" on stderr, unless it opts in with --typos correct.
   */
  private typoMode(format: OutputFormat | undefined): Typos {
    if (this.exact && this.typos !== undefined && this.typos !== "off")
      throw new RecallError("BAD_INPUT", `--exact and --typos ${this.typos} contradict each other`);
    if (this.exact) return "off";
    return (
      (this.typos as Typos | undefined) ??
      (format || !this.context.stdoutIsTTY ? "suggest" : "correct")
    );
  }

  /** `--exact` is the words as typed: no other word, and no meaning. */
  private matchMode(): Match | undefined {
    if (this.exact && this.match !== undefined && this.match !== "words")
      throw new RecallError("BAD_INPUT", `--exact and --match ${this.match} contradict each other`);
    return this.exact ? "words" : (this.match as Match | undefined);
  }

  async run(): Promise<ExitCode> {
    const format = this.pipelineFormat();
    const { limit, cwd, repo, since, until, now } = this.scope();
    // No operand at all is a mistake; an empty one ('', as fzf sends a cleared query) lists the
    // latest sessions.
    if (this.query.length === 0 && this.file === undefined)
      throw new RecallError(
        "BAD_INPUT",
        "search needs a query: words, #tags, --file, or '' for the latest sessions (`recall search --help` shows the usage)",
      );
    const query = this.query.join(" ");
    const content = this.content
      ?.flatMap((scope) => scope.split(","))
      .map((scope) => scope.trim()) as ContentScope[] | undefined;
    if (this.remote !== undefined)
      return this.searchRemote(this.remote, format, {
        query,
        limit,
        cwd,
        repo,
        since,
        until,
        now,
        content,
      });
    if (this.user !== undefined || this.machine !== undefined)
      throw new RecallError(
        "BAD_INPUT",
        `${this.user !== undefined ? "--user" : "--machine"} goes with --remote: this machine's sessions are all yours`,
      );
    const file = this.file === undefined ? undefined : resolve(this.context.cwd, this.file);
    const missing = this.noSessionsFolder();
    if (missing !== undefined) return missing;
    // The page is formatted while the freshness check finishes (see Recall.search).
    const typos = this.typoMode(format);
    const match = this.matchMode();
    const page = await this.recall().search(
      {
        query,
        limit,
        prefix: this.prefix,
        cwd,
        repo,
        since,
        until,
        now,
        content,
        file,
        typos,
        match,
        ...this.freshness(),
      },
      ({ hits, readAs, suggestions, coverage }) => ({
        ...this.page(hits, (hit) =>
          format
            ? this.record(hit, format, now, () => searchHitRecord(hit, coverage))
            : this.block(hit, now, {
                snippet: hit.snippet,
                spans: hit.spans,
                details: matchedIn(hit),
              }),
        ),
        readAs,
        suggestions,
        coverage,
      }),
    );
    this.warnNotices();
    if (page.coverage && meaningIncomplete(page.coverage)) {
      this.warn(
        `the meaning index covers ${page.coverage.embedded} of ${page.coverage.messages} messages searched; \`recall index --meaning\` embeds the rest`,
      );
    }
    for (const typo of page.readAs)
      this.warn(
        `no session holds ${quote(typo.word)}: read as ${quote(typo.readAs)}, one typo away`,
      );
    for (const typo of page.suggestions)
      this.warn(`no session holds ${quote(typo.word)}; did you mean ${quote(typo.suggestion)}?`);
    if (page.sessions.length === 0) {
      const what =
        file === undefined
          ? quote(query)
          : query.trim()
            ? `${quote(query)} and touched ${file}`
            : `touched ${file}`;
      if (!format && repo !== undefined)
        this.warn(
          `no session of this folder's project matches ${what}; drop --repo to search every project`,
        );
      else if (!format)
        this.warn(
          cwd
            ? `no session in ${cwd} ${file !== undefined && !query.trim() ? what : `matches ${what}`}; drop --here/--cwd to search every project`
            : `no session ${file !== undefined && !query.trim() ? what : `matches ${what}`}`,
        );
      await this.recall().meaning.settled();
      return Exit.NoMatch;
    }
    this.context.stdout.write(page.text);
    // The few messages the meaning index lacked are embedded after the answer is out.
    await this.recall().meaning.settled();
    return Exit.Ok;
  }

  /** The search of an archive: the same options, the archive's hits, each saying where it lives. */
  private async searchRemote(
    remote: string,
    format: OutputFormat | undefined,
    options: {
      query: string;
      limit: number;
      cwd?: string;
      repo?: string;
      since?: number;
      until?: number;
      now: number;
      content?: ContentScope[];
    },
  ): Promise<ExitCode> {
    for (const [option, flag] of Object.entries(LOCAL_ONLY)) {
      const value = this[option as keyof typeof LOCAL_ONLY];
      if (value !== undefined && value !== false)
        throw new RecallError(
          "BAD_INPUT",
          `${flag} searches this machine's index: it does not go with --remote`,
        );
    }
    if (format === "path")
      throw new RecallError(
        "BAD_INPUT",
        "--format path prints session files, which an archive does not have here: use --json or --format tsv",
      );
    const archive = this.recall().archive;
    const { hits } = await archive.search(remote, {
      ...options,
      user: this.user,
      machine: this.machine,
    });
    if (hits.length === 0) {
      if (!format) this.warn(`no session in remote ${remote} matches ${quote(options.query)}`);
      return Exit.NoMatch;
    }
    const print = (hit: ArchiveHit) =>
      format
        ? this.record(hit, format, options.now, () => archiveHitRecord(hit))
        : this.block(hit, options.now, {
            snippet: hit.snippet,
            spans: hit.spans,
            details: matchedIn(hit),
            where: whereArchived(hit),
          });
    this.context.stdout.write(hits.map(print).join(""));
    return Exit.Ok;
  }
}
