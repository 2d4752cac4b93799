import { Command } from "clipanion";
import { Option } from "../options.js";
import { Recall, RecallError, type IdentifiedDocument, type KeptFile, type PushReport } from "../../index.js";
import { BaseCommand } from "../base-command.js";
import { forgetRecord, pushDocumentRecord, pushFileRecord, pushSummaryRecord, wireLine } from "../wire.js";
import { Exit, type ExitCode } from "../exit.js";
import { parseTime } from "../../output/time.js";


function summaryLine(report: PushReport): string {
  const kB = (report.bytes / 1024).toFixed(report.bytes < 10_240 ? 1 : 0);
  const secrets = Object.entries(report.redactions);
  const redacted = secrets.length === 0 ? "no secret redacted" : `${secrets.reduce((n, [, c]) => n + c, 0)} secrets redacted (${secrets.map(([what, c]) => `${c} ${what}`).join(", ")})`;
  const verb = report.dryRun ? "would push" : "pushed";
  const would = report.dryRun ? "would be " : "";
  const deleted = report.deleted > 0 ? `, ${report.deleted} replaced documents ${would}deleted` : "";
  const removed = report.removed > 0 ? `, ${report.removed} deleted sessions ${would}removed` : "";
  const forgotten = report.forgotten > 0 ? `, ${report.forgotten} forgotten sessions not sent` : "";
  const inFiles = Object.values(report.fileRedactions).reduce((n, c) => n + c, 0);
  const files = report.files > 0 ? ` and ${report.files} session files (${(report.fileBytes / 1024).toFixed(report.fileBytes < 10_240 ? 1 : 0)} kB, ${inFiles === 0 ? "no secret" : `${inFiles} secrets`} redacted in them)` : "";
  return `${verb} ${report.documents} messages of ${report.sessions} sessions${files} to ${report.remote} (${kB} kB, ${redacted})${deleted}${removed}${forgotten}; ${report.unchanged} sessions unchanged`;
}

export class PushCommand extends BaseCommand {
  static paths = [["push"]];

  static usage = Command.Usage({
    description: "send the archive what it lacks of your sessions, secrets redacted",
    details: `
      Sends one document per message of every session file the remote has not acknowledged yet: a session that grew sends its new messages only, an unchanged one nothing. Secrets (API keys and tokens, private keys, passwords in URLs, \`.env\` secrets, JWTs, bearer tokens, AWS keys) are replaced with a marker before anything leaves the machine. \`--dry-run\` sends nothing and prints what would leave: a summary, or with \`--json\` every document.

      A remote whose config sets \`"keepFiles": true\` also keeps each pushed session file, redacted the same way, sent whole again whenever it changed and taken out with its session, so that \`recall pull\` can write it on another machine; \`--dry-run --json\` prints those files too.

      \`--here\`, \`--cwd DIR\` and \`--repo\` push only the sessions of a folder or of the current folder's project (as \`search\` scopes them), \`--since T\` only those active since T; a deleted session is taken out of the archive only within that scope.

      \`--forget SESSION…\` takes sessions (ids, or unique prefixes of archived ones) out of the archive, and \`--forget-project\` every session of the current folder's project (its git remote, as \`search --repo\` names it, from every machine); neither is pushed to that remote again (\`<cache>/archive/<remote>-….forgotten.json\` remembers them; delete it to send them again).

      Exit status: 0 when the push succeeded, 2 on error (nothing counted as pushed that the archive did not acknowledge).
    `,
    examples: [
      ["Push to the only remote", "$0 push"],
      ["See what would leave the machine", "$0 push --remote team --dry-run --json"],
      ["Push only this repository's sessions of the last week", "$0 push --remote team --repo --since 7d"],
      ["Take a session out of the archive for good", "$0 push --remote team --forget 01a0f6b1"],
    ],
  });

  remote = Option.String("--remote", { description: "The remote to push to (needed when there are several)" });
  dryRun = Option.Boolean("--dry-run", false, { description: "Send nothing; print what would be sent" });
  json = Option.Boolean("--json", false, { description: "Print the documents (with --dry-run) and a summary as JSON Lines" });
  here = Option.Boolean("--here", false, { description: "Only the sessions started in the current folder" });
  cwd = Option.String("--cwd", { description: "Only the sessions started in this folder" });
  repo = Option.Boolean("--repo", false, { description: "Only the sessions of the current folder's project: any folder, clone or worktree of its git repository" });
  since = Option.String("--since", { description: "Only the sessions active from this time on: 7d, 24h, 2w, today, yesterday, 2026-11-01" });
  forget = Option.Boolean("--forget", false, { description: "Take the sessions named after it out of the archive; they are not pushed again" });
  forgetProject = Option.Boolean("--forget-project", false, { description: "Take every session of the current folder's project out of the archive; none is pushed again" });
  sessions = Option.Rest({ name: "session" });

  async run(): Promise<ExitCode> {
    if (this.forget || this.forgetProject) return this.forgetSessions();
    if (this.sessions.length > 0) throw new RecallError("BAD_INPUT", `push takes sessions only after --forget, not ${this.sessions[0]}`);
    const archive = await Recall.openArchive({ sessionsDir: this.sessionsDir, env: this.context.env, cwd: this.context.cwd });
    const printDocuments = this.json && this.dryRun;
    const cwd = this.cwd ?? (this.here ? this.context.cwd : undefined);
    const report = await archive.push(this.remote, {
      dryRun: this.dryRun,
      cwd,
      repo: this.repo ? this.context.cwd : undefined,
      since: this.since === undefined ? undefined : parseTime(this.since, Date.now()),
      ...(printDocuments
        ? {
            onDocument: (document: IdentifiedDocument) => this.out(wireLine(pushDocumentRecord(document))),
            onFile: (file: KeptFile) => this.out(wireLine(pushFileRecord(file))),
          }
        : {}),
    });
    for (const failure of report.failed) this.warn(`${failure.path}: ${failure.reason}`);
    if (this.json) this.out(wireLine(pushSummaryRecord(report)));
    else this.out(summaryLine(report));
    return report.failed.length > 0 ? Exit.Error : Exit.Ok;
  }

  private async forgetSessions(): Promise<ExitCode> {
    if (this.dryRun) throw new RecallError("BAD_INPUT", "--dry-run does not go with --forget or --forget-project");
    if (this.forget && this.sessions.length === 0) throw new RecallError("BAD_INPUT", "--forget takes the sessions to forget: ids, or unique prefixes of archived ones");
    if (!this.forget && this.sessions.length > 0) throw new RecallError("BAD_INPUT", `push takes sessions only after --forget, not ${this.sessions[0]}`);
    const archive = await Recall.openArchive({ sessionsDir: this.sessionsDir, env: this.context.env, cwd: this.context.cwd });
    const report = await archive.forget(this.remote, { sessions: this.sessions, ...(this.forgetProject ? { projectOf: this.context.cwd } : {}) });
    if (this.json) this.out(wireLine(forgetRecord(report)));
    else {
      const what = [report.sessions.length > 0 ? `${report.sessions.length} sessions` : "", report.project === null ? "" : `project ${report.project}`].filter(Boolean).join(" and ");
      this.out(`forgot ${what} in ${report.remote}: ${report.deleted} documents removed; not pushed again`);
    }
    return Exit.Ok;
  }
}
