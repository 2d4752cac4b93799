import { Command } from "clipanion";
import { Option } from "../options.js";
import { terminalText } from "../../output/terminal-text.js";
import { shellQuote } from "../../output/shell.js";
import { BaseCommand } from "../base-command.js";
import { Exit, type ExitCode } from "../exit.js";
import { pullRecord, wireLine } from "../wire.js";

export class PullCommand extends BaseCommand {
  static paths = [["pull"]];

  static usage = Command.Usage({
    description:
      "write a session file the archive keeps into this machine's Pi sessions, to resume it here",
    details: `
      Fetches the session file a remote keeps (pushed while its config set \`"keepFiles": true\`: redacted as pushed) and writes it where Pi keeps the sessions of its folder, so that \`recall resume SESSION\` or \`pi --session <path>\` continues, on this machine, a session begun on another. The session is named by its id or a unique prefix of it.

      If the session's folder does not exist here but its project is a git repository, the newest folder here where a session of that repository was started stands in for it (the pulled file's header names that folder; every other line is as archived). Otherwise the session keeps its folder: \`pi --fork <path>\` continues it in another one.

      Nothing is overwritten: a session already here is left alone; if its file is the archive's copy, \`pull\` says it is already here. \`--json\` prints the file's path record.

      What an archive holds is not trusted: a kept file that no push writes (a session id or file name that is not one Pi gives, a folder with \`..\`, a first line that is not the header of that session in that folder, parts that do not follow on) is refused, and so is a Pi folder here that is a link out of the sessions folder. Nothing is written then.

      Exit status: 0 when the file was written or was already here, 2 on error (a remote without kept files, an unknown session, the same session here in another version, a kept file refused).
    `,
    examples: [
      ["Pull a session from the only remote", "$0 pull 01a0f6b1"],
      ["Pull and resume", "$0 pull --remote team 01a0f6b1 && $0 resume 01a0f6b1"],
    ],
  });

  session = Option.String({ name: "session" });
  remote = Option.String("--remote", {
    description: "The remote to pull from (needed when there are several)",
  });
  json = Option.Boolean("--json", false, { description: "Print the path record as JSON" });

  async run(): Promise<ExitCode> {
    const archive = this.recall().archive;
    const pulled = await archive.pull(this.remote, this.session);
    if (this.json) {
      this.out(wireLine(pullRecord(pulled)));
      return Exit.Ok;
    }
    const path = terminalText(pulled.path);
    if (pulled.alreadyHere) {
      this.out(`session ${terminalText(pulled.id)} is already here: ${path}`);
      return Exit.Ok;
    }
    const from = `${terminalText(pulled.user)} on ${terminalText(pulled.machine)}`;
    this.out(
      `pulled session ${terminalText(pulled.id)} (pushed by ${from}) from ${pulled.remote} to ${path}`,
    );
    if (pulled.movedFrom !== null)
      this.out(
        `its folder ${terminalText(pulled.movedFrom)} is not on this machine: it continues in ${terminalText(pulled.cwd)}, a clone of the same repository`,
      );
    this.out(`resume it with: recall resume ${shellQuote(terminalText(pulled.id))}`);
    return Exit.Ok;
  }
}
