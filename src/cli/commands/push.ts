import { Command } from "clipanion";
import { Option } from "../options.js";
import { Recall, type IdentifiedDocument, type PushReport } from "../../index.js";
import { BaseCommand } from "../base-command.js";
import { pushDocumentRecord, pushSummaryRecord, wireLine } from "../wire.js";
import { Exit, type ExitCode } from "../exit.js";


function summaryLine(report: PushReport): string {
  const kB = (report.bytes / 1024).toFixed(report.bytes < 10_240 ? 1 : 0);
  const secrets = Object.entries(report.redactions);
  const redacted = secrets.length === 0 ? "no secret redacted" : `${secrets.reduce((n, [, c]) => n + c, 0)} secrets redacted (${secrets.map(([what, c]) => `${c} ${what}`).join(", ")})`;
  const verb = report.dryRun ? "would push" : "pushed";
  const deleted = report.deleted > 0 ? `, ${report.deleted} replaced documents ${report.dryRun ? "would be " : ""}deleted` : "";
  return `${verb} ${report.documents} messages of ${report.sessions} sessions to ${report.remote} (${kB} kB, ${redacted})${deleted}; ${report.unchanged} sessions unchanged`;
}

export class PushCommand extends BaseCommand {
  static paths = [["push"]];

  static usage = Command.Usage({
    description: "send the archive what it lacks of your sessions, secrets redacted",
    details: `
      Sends one document per message of every session file the remote has not acknowledged yet: a session that grew sends its new messages only, an unchanged one nothing. Secrets (API keys and tokens, private keys, passwords in URLs, \`.env\` secrets, JWTs, bearer tokens, AWS keys) are replaced with a marker before anything leaves the machine. \`--dry-run\` sends nothing and prints what would leave: a summary, or with \`--json\` every document.

      Exit status: 0 when the push succeeded, 2 on error (nothing counted as pushed that the archive did not acknowledge).
    `,
    examples: [
      ["Push to the only remote", "$0 push"],
      ["See what would leave the machine", "$0 push --remote team --dry-run --json"],
    ],
  });

  remote = Option.String("--remote", { description: "The remote to push to (needed when there are several)" });
  dryRun = Option.Boolean("--dry-run", false, { description: "Send nothing; print what would be sent" });
  json = Option.Boolean("--json", false, { description: "Print the documents (with --dry-run) and a summary as JSON Lines" });

  async run(): Promise<ExitCode> {
    const archive = await Recall.openArchive({ sessionsDir: this.sessionsDir, env: this.context.env, cwd: this.context.cwd });
    const printDocuments = this.json && this.dryRun;
    const report = await archive.push(this.remote, {
      dryRun: this.dryRun,
      ...(printDocuments ? { onDocument: (document: IdentifiedDocument) => this.out(wireLine(pushDocumentRecord(document))) } : {}),
    });
    for (const failure of report.failed) this.warn(`${failure.path}: ${failure.reason}`);
    if (this.json) this.out(wireLine(pushSummaryRecord(report)));
    else this.out(summaryLine(report));
    return report.failed.length > 0 ? Exit.Error : Exit.Ok;
  }
}
