import { Command } from "clipanion";
import { Option } from "../options.js";
import { Exit, type ExitCode } from "../exit.js";
import { SessionTagsCommand } from "../session-tags-command.js";
import { tagCountRecord, wireLine } from "../wire.js";

export class TagsCommand extends SessionTagsCommand {
  static paths = [["tags"]];

  static usage = Command.Usage({
    description: "show the tags of sessions, or every tag in use",
    details: `
      With sessions (id, unique id prefix or file path; \`-\` reads them from stdin), prints each one's tags: manual and automatic ones, and those suppressed by \`recall untag\`. Without, prints every tag in use with the number of sessions carrying it, most used first.

      Exit status: 0 if a tag was printed, 1 if there was none, 2 on error.
    `,
    examples: [
      ["Every tag, with its session count", "$0 tags"],
      ["The tags of one session", "$0 tags 01a0f6e8"],
      ["The tags of the latest sessions", "$0 list -n 5 --json | jq -r .id | $0 tags -"],
    ],
  });

  sessions = Option.Rest({ name: "session" });

  async run(): Promise<ExitCode> {
    // A sync first: it restores the tags of a tag database found emptied (see restore-tags.ts).
    await this.recall().tags.check();
    await this.recall().refresh();
    if (this.sessions.length === 0) return this.printCounts();
    const { sessions, failed } = await this.resolveSessions(this.sessions);
    let tagged = false;
    for (const session of sessions) {
      const tags = await this.recall().tags.of(session);
      tagged ||= tags.tags.length > 0;
      this.printSessionTags(tags);
    }
    if (failed) return Exit.Error;
    return tagged ? Exit.Ok : Exit.NoMatch;
  }

  private async printCounts(): Promise<ExitCode> {
    const counts = await this.recall().tags.counts();
    this.warnNotices();
    if (counts.length === 0) {
      if (!this.json)
        this.warn("no session is tagged yet; add tags with `recall tag <session> <tag>`");
      return Exit.NoMatch;
    }
    const width = Math.max(...counts.map((c) => c.tag.length + 1));
    for (const { tag, sessions } of counts) {
      if (this.json) this.out(wireLine(tagCountRecord({ tag, sessions })));
      else this.out(`${this.paint.magenta(`#${tag}`.padEnd(width))}  ${sessions}`);
    }
    return Exit.Ok;
  }
}
