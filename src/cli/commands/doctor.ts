import { Command } from "clipanion";
import { Option } from "../options.js";
import { Recall } from "../../index.js";
import { BaseCommand } from "../base-command.js";
import { doctorFixWords } from "../error-words.js";
import { doctorCheckRecord, doctorSummaryRecord, wireLine } from "../wire.js";
import { terminalText } from "../../output/terminal-text.js";
import { Exit, type ExitCode } from "../exit.js";

export class DoctorCommand extends BaseCommand {
  static paths = [["doctor"]];

  static usage = Command.Usage({
    description:
      "check the index, the tag database, the config, the watcher and Pi's sessions folder",
    details: `
      Checks that Pi's sessions folder can be read; that every file of the index matches its checksum and that the index holds every session file; that the meaning model (where installed) loads and the meaning index holds all but 1 in 100 messages; that the tag database passes SQLite's integrity check; that the config file (if any) parses; and whether \`recall watch\` runs. Prints each check, and for each that fails, the command (or what to do) that fixes it. A machine where Pi never ran passes: there is nothing to index yet. No index yet is no failure either: the first search builds it, and the check says so.

      Exit status: 0 if everything is healthy, 2 if not.
    `,
    examples: [
      ["Check everything", "$0 doctor"],
      ["Machine-readable checks", "$0 doctor --json"],
    ],
  });

  json = Option.Boolean("--json", false, {
    description: "Print one JSON object per check, then a summary (JSON Lines)",
  });

  async run(): Promise<ExitCode> {
    // Not this.recall(): opening the index is one of the things checked.
    const checks = await Recall.open({
      sessionsDir: this.sessionsDir,
      env: this.context.env,
      cwd: this.context.cwd,
    }).doctor();
    const failed = checks.filter((c) => !c.ok).length;
    for (const check of checks) {
      if (this.json) {
        this.out(wireLine(doctorCheckRecord(check)));
        continue;
      }
      this.out(
        `${check.ok ? "ok  " : this.paint.bold.red("FAIL")}  ${check.name}: ${terminalText(check.message)}`,
      );
      if (check.fix) this.out(`      fix: ${terminalText(doctorFixWords(check.fix))}`);
    }
    if (this.json) this.out(wireLine(doctorSummaryRecord(checks)));
    else if (failed > 0) this.warn(`${failed} of ${checks.length} checks failed`);
    return failed === 0 ? Exit.Ok : Exit.Error;
  }
}
