import { Command } from "clipanion";
import { Option } from "../options.js";
import { isEnum } from "typanion";
import type { Archive } from "../../index.js";
import { BaseCommand } from "../base-command.js";
import { remoteCheckRecord, remoteRecord, wireLine } from "../wire.js";
import { Exit, type ExitCode } from "../exit.js";

const ACTIONS = ["list", "add", "test"] as const;

export class RemoteCommand extends BaseCommand {
  static paths = [["remote"]];

  static usage = Command.Usage({
    description: "add, list and test the OpenSearch archives sessions are pushed to",
    details: `
      \`recall remote add NAME URL\` writes a remote into recall's config.json (replacing one of the same name). Credentials are never given on the command line: set \`RECALL_REMOTE_<NAME>_USERNAME\` and \`RECALL_REMOTE_<NAME>_PASSWORD\` (or \`RECALL_REMOTE_<NAME>_TOKEN\`), or name a JSON file only you can read with \`--credentials\`. Plain http is refused for any host but this machine unless \`--insecure\` is given.

      \`--keep-files\` sets \`"keepFiles": true\`: each push also keeps the session files themselves (redacted), so that \`recall pull SESSION\` writes one on another machine.

      \`recall remote list\` prints the remotes. \`recall remote test [NAME]\` checks what works: reachable, authenticated, may write and may read (a probe document of this machine, deleted again), the version of recall's index template, whether the indexes are the ones this machine's last push filled (same index: one deleted or replaced since is filled again by the next push), and for a remote with \`keepFiles\`, may keep files (a probe file, deleted again); without a name, it tests the only remote, as push and pull do.

      Exit status: 0 on success (\`list\`: a remote is configured; \`test\`: every check passed), 1 when \`list\` finds none, 2 on error or a failed check.
    `,
    examples: [
      [
        "A team archive",
        "$0 remote add team https://search.example.com:9200 --credentials ~/.config/recall/team.json",
      ],
      ["An archive on this machine", "$0 remote add local http://127.0.0.1:9200"],
      ["The remotes", "$0 remote list"],
      ["Check the team archive", "$0 remote test team"],
      ["Check the only remote", "$0 remote test"],
    ],
  });

  action = Option.String({ name: "add|list|test", validator: isEnum(ACTIONS) });
  args = Option.Rest({ name: "name [url]" });
  index = Option.String("--index", {
    description: "add: the alias to write to and read from (default recall-sessions)",
  });
  machine = Option.String("--machine", {
    description: "add: this machine's name in the archive (default: the host name)",
  });
  user = Option.String("--user", {
    description: "add: your name in the archive (default: the login name)",
  });
  credentials = Option.String("--credentials", {
    description: 'add: a JSON file only you can read, {"username", "password"} or {"token"}',
  });
  insecure = Option.Boolean("--insecure", false, {
    description: "add: allow plain http to a host other than this machine",
  });
  keepFiles = Option.Boolean("--keep-files", false, {
    description:
      "add: also keep each pushed session file (redacted) in the archive, for recall pull",
  });
  json = Option.Boolean("--json", false, { description: "list, test: print JSON Lines" });

  async run(): Promise<ExitCode> {
    const archive = this.recall().archive;
    const action = this.action;
    // test takes a name, or none for the only remote.
    const [fewest, most] = { list: [0, 0], add: [2, 2], test: [0, 1] }[action];
    if (this.args.length < fewest! || this.args.length > most!) {
      this.warn(
        `recall remote ${action} takes ${{ list: "no argument", add: "the remote's name and its URL", test: "the remote's name, or none for the only remote" }[action]}`,
      );
      return Exit.Error;
    }
    if (action === "add") return this.add(archive, this.args[0]!, this.args[1]!);
    if (action === "test") return this.test(archive, this.args[0]);
    return this.list(archive);
  }

  private add(archive: Archive, name: string, url: string): ExitCode {
    const remote = archive.addRemote(name, {
      url,
      index: this.index,
      machine: this.machine,
      user: this.user,
      credentials: this.credentials,
      insecure: this.insecure || undefined,
      keepFiles: this.keepFiles || undefined,
    });
    this.out(
      `added remote ${remote.name}: ${remote.url} (index ${remote.index}, as ${remote.user} on ${remote.machine})`,
    );
    return Exit.Ok;
  }

  private list(archive: Archive): ExitCode {
    const remotes = archive.remotes();
    for (const remote of remotes)
      this.out(
        this.json
          ? wireLine(remoteRecord(remote))
          : `${remote.name}\t${remote.url}\t${remote.index}`,
      );
    if (remotes.length === 0 && !this.json)
      this.warn("no remote yet; add one with `recall remote add NAME URL`");
    return remotes.length > 0 ? Exit.Ok : Exit.NoMatch;
  }

  private async test(archive: Archive, name: string | undefined): Promise<ExitCode> {
    const checks = await archive.test(name);
    for (const check of checks) {
      if (this.json) this.out(wireLine(remoteCheckRecord(check)));
      else
        this.out(
          `${check.ok ? "ok  " : this.paint.bold.red("FAIL")}  ${check.name}: ${check.message}`,
        );
    }
    return checks.every((c) => c.ok) ? Exit.Ok : Exit.Error;
  }
}
