import { Command } from "clipanion";
import { Option } from "../options.js";
import { parseTags } from "../../index.js";
import { formatTags } from "../../output/session-text.js";
import { Exit, type ExitCode } from "../exit.js";
import { SessionTagsCommand } from "../session-tags-command.js";

export class UntagCommand extends SessionTagsCommand {
  static paths = [["untag"]];

  static usage = Command.Usage({
    description: "remove tags from a session",
    details: `
      Removes tags from the session named by id, unique id prefix or file path; \`-\` reads ids or paths from stdin, one per line. Tags are written as for \`recall tag\`, with the \`#\` optional.

      A removed tag is also suppressed: automatic tagging will not add it to that session again. \`recall tag\` with the same tag lifts the suppression. Removing a tag the session does not have suppresses it all the same, with a warning.

      Exit status: 0 if the tags were removed, 2 on error.
    `,
    examples: [
      ["Remove a tag", "$0 untag 01a0f6e8 wip"],
      [
        "Remove it from every session carrying it",
        "$0 search '#wip' --json | jq -r .id | $0 untag - wip",
      ],
    ],
  });

  session = Option.String({ name: "session" });
  tags = Option.Rest({ name: "tag", required: 1 });

  async run(): Promise<ExitCode> {
    const unwanted = parseTags(this.tags);
    const recall = this.recall();
    const { sessions, failed } = await this.resolveSessions([this.session]);
    const absent = await Promise.all(
      sessions.map(async (session) => {
        const { tags } = await recall.tags.of(session);
        return unwanted.filter((tag) => !tags.includes(tag));
      }),
    );
    const edit = await recall.tags.remove(sessions, unwanted);
    edit.sessions.forEach((tags, i) => {
      if (absent[i]!.length > 0)
        this.warn(
          `${tags.id} had no ${formatTags(absent[i]!)}; suppressed for automatic tagging all the same`,
        );
      this.printSessionTags(tags);
    });
    if (edit.indexBusy)
      this.warn(
        "the change is saved; another recall process is writing the index, and the next search will show it",
      );
    if (edit.indexUnwritable)
      this.warn(`the change is saved, not yet in the index: ${edit.indexUnwritable}`);
    return failed ? Exit.Error : Exit.Ok;
  }
}
