import { Command } from "clipanion";
import { Option } from "../options.js";
import type { Notice, PushOnChange, SyncReport } from "../../index.js";
import { BaseCommand, noticeLine } from "../base-command.js";
import { Exit, type ExitCode } from "../exit.js";
import { pushSummaryRecord, watchSyncRecord, wireLine } from "../wire.js";

export class WatchCommand extends BaseCommand {
  static paths = [["watch"]];

  static usage = Command.Usage({
    description: "keep the search index up to date as Pi writes sessions",
    details: `
      Watches Pi's session folders and indexes each change as it happens, until stopped (Ctrl-C, SIGTERM). While it runs, \`recall search\` and \`recall list\` skip their own check for changed files, a \`stat\` of every session file: on a long history (thousands of sessions) a good part of their time. Without it they check by themselves, so running it is never required.

      \`--push NAME\` also sends each change to that remote's archive, as \`recall push --remote NAME\` would (what changed before the watch began too); pushes never overlap, and a remote that fails is one line on stderr while the watch goes on.

      One watcher runs per index; a second one exits with an error. Each sync that changed something prints a line (with \`--json\`, a JSON object).
    `,
    examples: [
      ["Keep the index fresh in the background", "$0 watch --quiet &"],
      ["Log every sync as JSON Lines", "$0 watch --json"],
      ["Also push every change to the team's archive", "$0 watch --push team"],
    ],
  });

  json = Option.Boolean("--json", false, {
    description: "Print each sync as a JSON object (JSON Lines)",
  });
  quiet = Option.Boolean("-q,--quiet", false, { description: "Print nothing but errors" });
  push = Option.String("--push", {
    description: "Also push each change to this remote's archive (see recall push)",
  });
  meaning = Option.Boolean("--meaning", false, {
    description:
      "Also keep the meaning index up to date, embedding what each sync added (needs the model package recall-pi-model-minilm)",
  });

  async run(): Promise<ExitCode> {
    const recall = this.recall();
    const pusher = this.push === undefined ? undefined : await this.pusher(this.push);
    // What changed while no watch ran goes out first.
    pusher?.changed();
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
    try {
      await recall.watch({
        signal: stop.signal,
        onSync: (report, notices) => {
          this.printSync(report, notices);
          if (report.indexed + report.appended + report.removed > 0) pusher?.changed();
        },
        onError: (error) =>
          this.warn(error instanceof Error ? error.message.split("\n")[0]! : String(error)),
        meaning: this.meaning,
      });
      await pusher?.settled();
    } finally {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    }
    return Exit.Ok;
  }

  private async pusher(remote: string): Promise<PushOnChange> {
    const archive = this.recall().archive;
    return archive.pushOnChange(
      remote,
      (report) => {
        for (const failure of report.failed) this.warn(`${failure.path}: ${failure.reason}`);
        if (this.quiet || report.sessions + report.removed === 0) return;
        this.out(
          this.json
            ? wireLine(pushSummaryRecord(report))
            : `${new Date().toISOString()}  pushed ${report.documents} messages of ${report.sessions} sessions to ${report.remote}`,
        );
      },
      (error) => this.warn(error instanceof Error ? error.message.split("\n")[0]! : String(error)),
    );
  }

  /**
   * A sync's notices, and a line for a sync that changed something (the first one too only then).
   */
  private printSync(report: SyncReport, notices: Notice[]): void {
    for (const notice of notices) this.warn(noticeLine(notice));
    const changed = report.indexed + report.appended + report.removed;
    if (this.quiet || (changed === 0 && !report.rebuilt)) return;
    const at = new Date().toISOString();
    if (this.json) {
      this.out(wireLine(watchSyncRecord(report, at)));
    } else {
      this.out(
        `${at}  ${report.indexed} indexed, ${report.appended} appended, ${report.removed} removed (${report.discovered} session files)`,
      );
    }
  }
}
