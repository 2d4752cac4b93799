import { resolve } from "node:path";
import { Command } from "clipanion";
import { Option } from "../options.js";
import { isNumber } from "typanion";
import { DEFAULT_LIST_LIMIT } from "../../index.js";
import { Exit, type ExitCode } from "../exit.js";
import { SessionsCommand } from "../sessions-command.js";
import { sessionRecord } from "../wire.js";

export class ListCommand extends SessionsCommand {
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
      ["Sessions that read, edited or wrote a file", "$0 list --file src/app.ts"],
      ["Read the latest session", "$0 list -n 1 --json | jq -r .id | $0 read -"],
    ],
  });

  limit = Option.String("-n,--limit", String(DEFAULT_LIST_LIMIT), {
    description: `Show at most N sessions (default ${DEFAULT_LIST_LIMIT})`,
    validator: isNumber(),
  });
  since = Option.String("--since", {
    description:
      "Only sessions active from this time on: 7d, 24h, 2w, today, yesterday, 2026-11-01",
  });
  until = Option.String("--until", {
    description: "Only sessions last active up to this time (same forms as --since)",
  });
  file = Option.String("--file", {
    description:
      "Only sessions whose tool calls read, edited or wrote this file, or whose bash commands named it",
  });

  async run(): Promise<ExitCode> {
    const format = this.pipelineFormat();
    const { limit, cwd, repo, since, until, now } = this.scope();
    const missing = this.noSessionsFolder();
    if (missing !== undefined) return missing;
    const file = this.file === undefined ? undefined : resolve(this.context.cwd, this.file);
    const page = await this.recall().list(
      { limit, cwd, repo, since, until, file, ...this.freshness() },
      (sessions) =>
        this.page(sessions, (session) =>
          format
            ? this.record(session, format, now, () => sessionRecord(session))
            : this.block(session, now, {
                details: [
                  `${session.messageCount} message${session.messageCount === 1 ? "" : "s"}`,
                ],
              }),
        ),
    );
    this.warnNotices();
    if (page.sessions.length === 0) {
      const window =
        (since !== undefined || until !== undefined ? " active in that time window" : "") +
        (file === undefined ? "" : ` that touched ${file}`);
      if (!format) this.warn(cwd ? `no session in ${cwd}${window}` : `no session${window}`);
      return Exit.NoMatch;
    }
    this.context.stdout.write(page.text);
    return Exit.Ok;
  }
}
