import { Command } from "clipanion";
import { Option } from "../options.js";
import { parseTags } from "../../index.js";
import { Exit, type ExitCode } from "../exit.js";
import { SessionTagsCommand } from "../session-tags-command.js";

export class TagCommand extends SessionTagsCommand {
  static paths = [["tag"]];

  static usage = Command.Usage({
    description: "tag a session",
    details: `
      Adds tags to the session named by id, unique id prefix or file path; \`-\` reads ids or paths from stdin, one per line. A prefix that matches several sessions is an error that lists them.

      The \`#\` is optional (a shell takes an unquoted \`#\` for the start of a comment). Tags are lowercased and kept to letters, digits, \`_\` and \`-\`; any other run of characters becomes one \`-\`, so \`'#Rust/Search!'\` is \`rust-search\`. Tagging a tag that was removed with \`recall untag\` brings it back.

      Tags are yours: they are kept in \`~/.pi/agent/recall/tags.db\` (\`RECALL_DATA_DIR\` moves it), not in the index, and survive \`recall index --rebuild\`. Search for them with \`recall search '#tag'\`.

      Exit status: 0 if the sessions were tagged, 2 on error (an unknown or ambiguous session among them, or an empty tag).
    `,
    examples: [
      ["Tag a session by id prefix", "$0 tag 01a0f6e8 deploy k8s"],
      ["The same, with the # quoted", "$0 tag 01a0f6e8 '#deploy' '#k8s'"],
      [
        "Tag every session that talked about helm",
        "$0 search helm --json | jq -r .id | $0 tag - helm",
      ],
    ],
  });

  session = Option.String({ name: "session" });
  tags = Option.Rest({ name: "tag", required: 1 });

  async run(): Promise<ExitCode> {
    const wanted = parseTags(this.tags);
    const { sessions, failed } = await this.resolveSessions([this.session]);
    const edit = await this.recall().tags.add(sessions, wanted);
    for (const tags of edit.sessions) this.printSessionTags(tags);
    if (edit.indexBusy)
      this.warn(
        "the tags are saved; another recall process is writing the index, and the next search will show them",
      );
    if (edit.indexUnwritable)
      this.warn(`the tags are saved, not yet in the index: ${edit.indexUnwritable}`);
    return failed ? Exit.Error : Exit.Ok;
  }
}
