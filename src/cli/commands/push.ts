import { Command } from "clipanion";
import { Option } from "../options.js";
import {
  RecallError,
  type IdentifiedDocument,
  type KeptFile,
  type PushReport,
  type SecretCheckReport,
} from "../../index.js";
import { BaseCommand } from "../base-command.js";
import {
  forgetRecord,
  pushDocumentRecord,
  pushFileRecord,
  pushSecretsRecord,
  pushSummaryRecord,
  wireLine,
} from "../wire.js";
import { Exit, type ExitCode } from "../exit.js";
import { parseTime } from "../../output/time.js";
import { terminalText } from "../../output/terminal-text.js";

/** `3 secrets (2 github-token, 1 password)`, most first; `no secret` for none. */
function secretsSaid(counts: Record<string, number>): string {
  const kinds = Object.entries(counts).sort((a, b) => b[1] - a[1]);
  if (kinds.length === 0) return "no secret";
  const total = kinds.reduce((n, [, c]) => n + c, 0);
  return `${total} secret${total === 1 ? "" : "s"} (${kinds.map(([kind, c]) => `${c} ${kind}`).join(", ")})`;
}

/** `1 message`, `2 messages`. */
const counted = (n: number, thing: string): string => `${n} ${thing}${n === 1 ? "" : "s"}`;

/** The line a push ends with: what it sent, or would send, and what it left. */
export function summaryLine(report: PushReport): string {
  const kB = (report.bytes / 1024).toFixed(report.bytes < 10_240 ? 1 : 0);
  const redacted = `${secretsSaid(report.redactions)} redacted`;
  const verb = report.dryRun ? "would push" : "pushed";
  const would = report.dryRun ? "would be " : "";
  const deleted =
    report.deleted > 0 ? `, ${counted(report.deleted, "replaced document")} ${would}deleted` : "";
  const removed =
    report.removed > 0 ? `, ${counted(report.removed, "deleted session")} ${would}removed` : "";
  const forgotten =
    report.forgotten > 0 ? `, ${counted(report.forgotten, "forgotten session")} not sent` : "";
  const files =
    report.files > 0
      ? ` and ${counted(report.files, "session file")} (${(report.fileBytes / 1024).toFixed(report.fileBytes < 10_240 ? 1 : 0)} kB, ${secretsSaid(report.fileRedactions)} redacted in them)`
      : "";
  const replaced =
    report.replaced.length > 0
      ? `${report.replaced.join(", ")} deleted or replaced since the last push: everything sent again; `
      : "";
  return `${replaced}${verb} ${counted(report.documents, "message")} of ${counted(report.sessions, "session")}${files} to ${report.remote} (${kB} kB, ${redacted})${deleted}${removed}${forgotten}; ${counted(report.unchanged, "session")} unchanged`;
}

/** `--check-secrets`: the redactions by kind and place, then by session. */
function secretsTable(check: SecretCheckReport): string[] {
  const { report, sessions } = check;
  const rows: [string, string, number, number][] = [];
  for (const [place, kinds] of Object.entries(report.redactedIn)) {
    for (const [kind, count] of Object.entries(kinds)) {
      const inSessions = sessions.filter((s) =>
        s.secrets.some((f) => f.kind === kind && f.place === place),
      ).length;
      rows.push([kind, place, count, inSessions]);
    }
  }
  rows.sort((a, b) => b[2] - a[2] || a[0].localeCompare(b[0]) || a[1].localeCompare(b[1]));
  const total = rows.reduce((n, r) => n + r[2], 0);
  const lines = [
    `a push to ${report.remote} would redact ${total} secret${total === 1 ? "" : "s"} in ${sessions.length} of ${report.sessions + report.unchanged} sessions (nothing was sent)`,
  ];
  if (rows.length === 0) return lines;
  const width = (i: 0 | 1) => Math.max(i === 0 ? 4 : 5, ...rows.map((r) => r[i].length));
  const row = (kind: string, place: string, count: string, inSessions: string) =>
    `  ${kind.padEnd(width(0))}  ${place.padEnd(width(1))}  ${count.padStart(7)}  ${inSessions.padStart(8)}`;
  lines.push(
    "",
    row("kind", "place", "secrets", "sessions"),
    ...rows.map((r) => row(r[0], r[1], String(r[2]), String(r[3]))),
    "",
  );
  for (const session of sessions) {
    const name = session.name ? ` ${session.name}` : "";
    lines.push(
      `${session.session_id}${name}: ${session.secrets.map((f) => `${f.count} ${f.kind} in ${f.place}`).join(", ")}`,
    );
  }
  return lines;
}

export class PushCommand extends BaseCommand {
  static paths = [["push"]];

  static usage = Command.Usage({
    description: "send the archive what it lacks of your sessions, secrets redacted",
    details: `
      Sends one document per message of every session file the remote has not acknowledged yet: a session that grew sends its new messages only, an unchanged one nothing. Secrets are replaced with a marker that names their kind, \`[REDACTED:github-token]\`, in every string that leaves the machine (message text, tool calls and output, thinking, the session's name, folder, project and tags, kept session files): those secretlint's recommended rules find (API keys and tokens of some thirty services, private keys, passwords in connection strings), and those only their context shows (\`password: …\`, \`"token": "…"\`, \`API_KEY="…"\`, \`export TOKEN=…\` anywhere in a line, \`mysql -p…\`, \`--password …\`, \`Authorization: Basic …\`, a private key whose end was cut off). Code that only names a secret (\`tokenCache = createCache()\`, \`password = self.password\`) stays. \`--dry-run\` sends nothing and prints what would leave: a summary naming each kind redacted, or with \`--json\` every document. \`--check-secrets\` (a dry run) says what would be redacted where: secrets by kind and place, and the sessions that hold them.

      A remote whose config sets \`"keepFiles": true\` also keeps each pushed session file, redacted the same way, sent whole again whenever it changed and taken out with its session, so that \`recall pull\` can write it on another machine; \`--dry-run --json\` prints those files too.

      \`--here\`, \`--cwd DIR\` and \`--repo\` push only the sessions of a folder or of the current folder's project (as \`search\` scopes them), \`--since T\` only those active since T; a deleted session is taken out of the archive only within that scope.

      \`--forget SESSION…\` takes sessions (ids, or unique prefixes of archived ones) out of the archive, and \`--forget-project\` every session of the current folder's project (its git remote, as \`search --repo\` names it, from every machine); neither is pushed to that remote again (\`<cache>/archive/<remote>-….forgotten.json\` remembers them; delete it to send them again).

      Exit status: 0 when the push succeeded, 2 on error (nothing counted as pushed that the archive did not acknowledge). With \`--check-secrets\`: 0 when a push would redact something, 1 when it would redact nothing, 2 on error.
    `,
    examples: [
      ["Push to the only remote", "$0 push"],
      ["See what would leave the machine", "$0 push --remote team --dry-run --json"],
      ["See which secrets would be redacted where", "$0 push --remote team --check-secrets"],
      [
        "Push only this repository's sessions of the last week",
        "$0 push --remote team --repo --since 7d",
      ],
      ["Take a session out of the archive for good", "$0 push --remote team --forget 01a0f6b1"],
    ],
  });

  remote = Option.String("--remote", {
    description: "The remote to push to (needed when there are several)",
  });
  dryRun = Option.Boolean("--dry-run", false, {
    description: "Send nothing; print what would be sent",
  });
  checkSecrets = Option.Boolean("--check-secrets", false, {
    description:
      "Send nothing; print what would be redacted, by kind and place, and in which sessions",
  });
  json = Option.Boolean("--json", false, {
    description: "Print the documents (with --dry-run) and a summary as JSON Lines",
  });
  here = Option.Boolean("--here", false, {
    description: "Only the sessions started in the current folder",
  });
  cwd = Option.String("--cwd", { description: "Only the sessions started in this folder" });
  repo = Option.Boolean("--repo", false, {
    description:
      "Only the sessions of the current folder's project: any folder, clone or worktree of its git repository",
  });
  since = Option.String("--since", {
    description:
      "Only the sessions active from this time on: 7d, 24h, 2w, today, yesterday, 2026-11-01",
  });
  forget = Option.Boolean("--forget", false, {
    description: "Take the sessions named after it out of the archive; they are not pushed again",
  });
  forgetProject = Option.Boolean("--forget-project", false, {
    description:
      "Take every session of the current folder's project out of the archive; none is pushed again",
  });
  sessions = Option.Rest({ name: "session" });

  async run(): Promise<ExitCode> {
    if (this.forget || this.forgetProject) return this.forgetSessions();
    if (this.sessions.length > 0)
      throw new RecallError(
        "BAD_INPUT",
        `push takes sessions only after --forget, not ${this.sessions[0]}`,
      );
    const archive = this.recall().archive;
    const printDocuments = this.json && this.dryRun;
    const cwd = this.cwd ?? (this.here ? this.context.cwd : undefined);
    const scope = {
      cwd,
      repo: this.repo ? this.context.cwd : undefined,
      since: this.since === undefined ? undefined : parseTime(this.since, Date.now()),
    };
    if (this.checkSecrets) {
      const check = await archive.checkSecrets(this.remote, scope);
      for (const failure of check.report.failed) this.warn(`${failure.path}: ${failure.reason}`);
      if (this.json) {
        for (const session of check.sessions) this.out(wireLine(pushSecretsRecord(session)));
        this.out(wireLine(pushSummaryRecord(check.report)));
      } else for (const line of secretsTable(check)) this.out(terminalText(line));
      if (check.report.failed.length > 0) return Exit.Error;
      return check.sessions.length > 0 ? Exit.Ok : Exit.NoMatch;
    }
    const report = await archive.push(this.remote, {
      dryRun: this.dryRun,
      ...scope,
      ...(printDocuments
        ? {
            onDocument: (document: IdentifiedDocument) =>
              this.out(wireLine(pushDocumentRecord(document))),
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
    if (this.dryRun || this.checkSecrets)
      throw new RecallError(
        "BAD_INPUT",
        `${this.dryRun ? "--dry-run" : "--check-secrets"} does not go with --forget or --forget-project`,
      );
    if (this.forget && this.sessions.length === 0)
      throw new RecallError(
        "BAD_INPUT",
        "--forget takes the sessions to forget: ids, or unique prefixes of archived ones",
      );
    if (!this.forget && this.sessions.length > 0)
      throw new RecallError(
        "BAD_INPUT",
        `push takes sessions only after --forget, not ${this.sessions[0]}`,
      );
    const archive = this.recall().archive;
    const report = await archive.forget(this.remote, {
      sessions: this.sessions,
      ...(this.forgetProject ? { projectOf: this.context.cwd } : {}),
    });
    if (this.json) this.out(wireLine(forgetRecord(report)));
    else {
      const what = [
        report.sessions.length > 0 ? counted(report.sessions.length, "session") : "",
        report.project === null ? "" : `project ${report.project}`,
      ]
        .filter(Boolean)
        .join(" and ");
      this.out(
        `forgot ${what} in ${report.remote}: ${counted(report.deleted, "document")} removed; not pushed again`,
      );
    }
    return Exit.Ok;
  }
}
