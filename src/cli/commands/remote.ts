import { Command, Option } from "clipanion";
import { Archive, type Remote } from "../../index.js";
import { BaseCommand } from "../base-command.js";
import { Exit, type ExitCode } from "../exit.js";

/** A remote as `--json` prints it (no credentials: only where they are read from). */
function remoteRecord(remote: Remote) {
  return {
    name: remote.name,
    url: remote.url,
    index: remote.index,
    machine: remote.machine,
    user: remote.user,
    content: remote.content,
    redact: remote.redact,
    keepFiles: remote.keepFiles,
    insecure: remote.insecure,
    credentials: remote.credentials ?? null,
  };
}

abstract class RemoteCommand extends BaseCommand {
  archive(): Archive {
    return Archive.open({ sessionsDir: this.sessionsDir, env: this.context.env, cwd: this.context.cwd });
  }
}

export class RemoteAddCommand extends RemoteCommand {
  static paths = [["remote", "add"]];

  static usage = Command.Usage({
    description: "add an OpenSearch archive to push sessions to and search",
    details: `
      Writes the remote into recall's config.json (replacing one of the same name). Credentials are never given on the command line: set \`RECALL_REMOTE_<NAME>_USERNAME\` and \`RECALL_REMOTE_<NAME>_PASSWORD\` (or \`RECALL_REMOTE_<NAME>_TOKEN\`), or name a JSON file only you can read with \`--credentials\`. Plain http is refused for any host but this machine unless \`--insecure\` is given.

      Exit status: 0 when the remote was added, 2 on error.
    `,
    examples: [
      ["A team archive", "$0 remote add team https://search.example.com:9200 --credentials ~/.config/recall/team.json"],
      ["An archive on this machine", "$0 remote add local http://127.0.0.1:9200"],
    ],
  });

  name = Option.String({ name: "name" });
  url = Option.String({ name: "url" });
  index = Option.String("--index", { description: "The alias to write to and read from (default recall-sessions)" });
  machine = Option.String("--machine", { description: "This machine's name in the archive (default: the host name)" });
  user = Option.String("--user", { description: "Your name in the archive (default: the login name)" });
  credentials = Option.String("--credentials", { description: "A JSON file only you can read: {\"username\", \"password\"} or {\"token\"}" });
  insecure = Option.Boolean("--insecure", false, { description: "Allow plain http to a host other than this machine" });

  async run(): Promise<ExitCode> {
    const remote = this.archive().addRemote(this.name, {
      url: this.url,
      index: this.index,
      machine: this.machine,
      user: this.user,
      credentials: this.credentials,
      insecure: this.insecure || undefined,
    });
    this.out(`added remote ${remote.name}: ${remote.url} (index ${remote.index}, as ${remote.user} on ${remote.machine})`);
    return Exit.Ok;
  }
}

export class RemoteListCommand extends RemoteCommand {
  static paths = [["remote", "list"], ["remote"]];

  static usage = Command.Usage({
    description: "list the archives sessions can be pushed to",
    details: `
      Exit status: 0 if a remote is configured, 1 if none is, 2 on error.
    `,
    examples: [["The remotes", "$0 remote list"]],
  });

  json = Option.Boolean("--json", false, { description: "Print one JSON object per remote (JSON Lines)" });

  async run(): Promise<ExitCode> {
    const remotes = this.archive().remotes();
    for (const remote of remotes) {
      this.out(this.json ? JSON.stringify(remoteRecord(remote)) : `${remote.name}\t${remote.url}\t${remote.index}`);
    }
    if (remotes.length === 0 && !this.json) this.warn("no remote yet; add one with `recall remote add NAME URL`");
    return remotes.length > 0 ? Exit.Ok : Exit.NoMatch;
  }
}

export class RemoteTestCommand extends RemoteCommand {
  static paths = [["remote", "test"]];

  static usage = Command.Usage({
    description: "check what works of a remote: reachable, authenticated, may write, may read, template",
    details: `
      Writes a probe document of this machine, reads it back and deletes it.

      Exit status: 0 if every check passed, 2 if one failed.
    `,
    examples: [["Check the team archive", "$0 remote test team"]],
  });

  name = Option.String({ name: "name" });
  json = Option.Boolean("--json", false, { description: "Print one JSON object per check (JSON Lines)" });

  async run(): Promise<ExitCode> {
    const checks = await this.archive().test(this.name);
    for (const check of checks) {
      if (this.json) this.out(JSON.stringify({ check: check.name, ok: check.ok, message: check.message }));
      else this.out(`${check.ok ? "ok  " : this.paint.bold.red("FAIL")}  ${check.name}: ${check.message}`);
    }
    return checks.every((c) => c.ok) ? Exit.Ok : Exit.Error;
  }
}
