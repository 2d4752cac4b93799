import { constants, setPriority } from "node:os";
import { Command } from "clipanion";
import { Option } from "../options.js";
import {
  MODEL_PACKAGE_NAME,
  type MalformedFile,
  type MeaningCoverage,
  type Recall,
  type SyncProgress,
} from "../../index.js";
import { BaseCommand } from "../base-command.js";
import { Exit, type ExitCode } from "../exit.js";
import {
  indexFailedRecord,
  indexMalformedRecord,
  indexSummaryRecord,
  meaningSummaryRecord,
  wireLine,
} from "../wire.js";

export class IndexCommand extends BaseCommand {
  static paths = [["index"]];

  static usage = Command.Usage({
    description: "bring the search index up to date with Pi's session files",
    details: `
      Reads new and changed session files into the index and drops deleted ones. Searching does this by itself, so running it by hand is only needed to rebuild the index or to see what was read. Unreadable files are listed and skipped; what was indexed of them stays.

      The index lives in \`~/.pi/agent/cache/recall/\` (\`RECALL_CACHE_DIR\` moves it) and can be deleted at any time; tags are kept elsewhere.

      \`--meaning\` then builds the meaning index that \`recall search --match meaning\` and \`both\` read: each message of the conversation embedded by the model of the package recall-pi-model-minilm (installed beside recall; nothing is downloaded), newest first, at the lowest priority (nice 19) on as many cores as the machine leaves idle, one at least; on a terminal it says after its first batch how long it will take, and shows its rate and the time left. It resumes where a stopped or killed run left off, and embeds a text once, however many sessions hold it; searches meanwhile use what it has. While another process (the MCP server, Pi, another \`recall index --meaning\`) builds it, it says which and waits for it to end.
    `,
    examples: [
      ["Update the index", "$0 index"],
      ["Rebuild it from scratch", "$0 index --rebuild"],
      ["Machine-readable report", "$0 index --json"],
      ["Also build the meaning index", "$0 index --meaning"],
    ],
  });

  rebuild = Option.Boolean("--rebuild", false, { description: "Start from an empty index" });
  json = Option.Boolean("--json", false, {
    description: "Report as JSON Lines (failed files, malformed lines, then a summary)",
  });
  quiet = Option.Boolean("-q,--quiet", false, { description: "Print nothing but errors" });
  meaning = Option.Boolean("--meaning", false, {
    description: "Then build the meaning index (needs the model package recall-pi-model-minilm)",
  });

  // The one command that checks every index file written since they all last passed: damage
  // found is rebuilt now.
  protected override readonly indexCheck = "written";

  async run(): Promise<ExitCode> {
    const started = Date.now();
    const problem = this.sessionsFolderProblem();
    if (problem) this.warn(problem.message);
    if (problem?.fatal) return Exit.Error;
    const recall = this.recall();
    const locations = recall.locations;
    const progress = this.progressPrinter();
    // Ctrl-C stops at once, as it always did (nothing is committed half-way through a rebuild), and
    // says what it left.
    const onInterrupt = () => {
      progress?.done();
      this.warn(
        this.rebuild
          ? "stopped: the index was not rebuilt, the one it had is kept (`recall index --rebuild` starts again)"
          : "stopped: the index keeps what it had committed; the next `recall index` or search reads the rest",
      );
      process.kill(process.pid, "SIGINT");
    };
    process.once("SIGINT", onInterrupt);
    let report;
    try {
      report = await recall.sync({
        rebuild: this.rebuild,
        lockTimeoutMs: 30_000,
        onProgress: progress?.update,
      });
    } finally {
      process.off("SIGINT", onInterrupt);
    }
    progress?.done();
    if (report.busy) {
      this.warn(
        `another recall process is writing to the index in ${locations.cacheDir}; try again when it is done`,
      );
      return Exit.Error;
    }
    const elapsedMs = Date.now() - started;
    for (const notice of report.notices) this.warn(notice);
    for (const failure of report.failed) {
      if (this.json) this.out(wireLine(indexFailedRecord(failure)));
      else this.warn(`cannot read ${failure.path}: ${failure.reason}`);
    }
    for (const file of report.malformed) {
      if (this.json) {
        for (const line of file.lines) this.out(wireLine(indexMalformedRecord(file.path, line)));
      } else if (!this.quiet) {
        this.warn(malformedSummary(file));
      }
    }
    if (this.json) {
      this.out(
        wireLine(
          indexSummaryRecord(report, {
            elapsedMs,
            sessionsDir: locations.sessionsDir,
            indexDir: locations.cacheDir,
          }),
        ),
      );
    } else if (!this.quiet) {
      this.out(
        `${report.discovered} session files: ${report.indexed} indexed, ${report.appended} appended, ${report.removed} removed, ` +
          `${report.unchanged} unchanged, ${report.failed.length} failed (${(elapsedMs / 1000).toFixed(1)} s)`,
      );
      if (report.malformedLines > 0) this.warn(`skipped ${report.malformedLines} malformed lines`);
      // Said once, to a person: when the index is first built (or built again), on a terminal.
      if (
        this.context.stderrIsTTY &&
        !this.meaning &&
        report.indexed === report.discovered &&
        report.indexed > 0 &&
        !recall.meaning.modelInstalled()
      ) {
        this.warn(
          `search by meaning too: install ${MODEL_PACKAGE_NAME} beside recall, then run \`recall index --meaning\``,
        );
      }
    }
    return this.meaning ? this.buildMeaning(recall) : Exit.Ok;
  }

  /** The meaning index, embedded at the lowest priority; Ctrl-C keeps what was embedded. */
  private async buildMeaning(recall: Recall): Promise<ExitCode> {
    const started = Date.now();
    setPriority(constants.priority.PRIORITY_LOW);
    const stop = new AbortController();
    const onInterrupt = () => stop.abort();
    process.once("SIGINT", onInterrupt);
    const progress = this.meaningProgress();
    let report;
    try {
      const onWait = (holder: string) => {
        progress?.waiting();
        if (!this.quiet)
          this.warn(
            `${holder}: waiting for it to end (searches meanwhile use what it has embedded; Ctrl-C stops waiting)`,
          );
      };
      report = await recall.meaning.build({
        onProgress: progress?.update,
        signal: stop.signal,
        onWait,
      });
    } finally {
      process.off("SIGINT", onInterrupt);
      progress?.done();
    }
    const elapsedMs = Date.now() - started;
    if (this.json) this.out(wireLine(meaningSummaryRecord(report, elapsedMs)));
    else if (!this.quiet) {
      this.out(
        `meaning index: ${report.embedded} of ${report.messages} messages, ${report.added} embedded now${report.dropped ? `, ${report.dropped} dropped` : ""} (${(elapsedMs / 1000).toFixed(1)} s)`,
      );
    }
    if (report.stopped)
      this.warn(
        "stopped: the meaning index keeps what was embedded; `recall index --meaning` goes on from there",
      );
    return Exit.Ok;
  }

  /**
   * The meaning build's progress bar on stderr, only on a terminal and not --quiet/--json: the
   * messages embedded, the rate and the time left; after the first batch, one line saying how
   * long the whole build will take at that pace. While waiting for another process's build, its
   * progress, without a time.
   */
  private meaningProgress():
    { update: (c: MeaningCoverage) => void; waiting: () => void; done: () => void } | undefined {
    if (this.quiet || this.json || !this.context.stderrIsTTY) return undefined;
    const stderr = this.context.stderr;
    let shown = false;
    let waiting = false;
    let first: { at: number; embedded: number } | undefined;
    let estimated = false;
    return {
      update: ({ embedded, messages }) => {
        const now = Date.now();
        first ??= { at: now, embedded };
        const seconds = (now - first.at) / 1000;
        const rate = seconds > 0 ? (embedded - first.embedded) / seconds : 0;
        const left = messages - embedded;
        if (!waiting && !estimated && rate > 0 && left > 0) {
          estimated = true;
          stderr.write(
            `\r\x1b[Krecall: embedding ${left.toLocaleString("en-US")} messages: about ${duration(left / rate)} at ${rate.toFixed(0)} messages/s\n`,
          );
        }
        shown = true;
        const width = 24;
        const filled = messages > 0 ? Math.round((embedded / messages) * width) : width;
        const pace =
          !waiting && rate > 0 ? `, ${rate.toFixed(0)}/s, ${duration(left / rate)} left` : "";
        stderr.write(
          `\r[${"#".repeat(filled)}${"-".repeat(width - filled)}] meaning: ${embedded}/${messages} messages${pace}\x1b[K`,
        );
      },
      waiting: () => {
        waiting = true;
      },
      done: () => {
        if (shown) stderr.write("\r\x1b[K");
      },
    };
  }

  /** A one-line progress bar on stderr, only when stderr is a terminal and not --quiet/--json. */
  private progressPrinter(): { update: (p: SyncProgress) => void; done: () => void } | undefined {
    if (this.quiet || this.json || !this.context.stderrIsTTY) return undefined;
    const stderr = this.context.stderr;
    const started = Date.now();
    let last = 0;
    let shown = false;
    return {
      update: (p) => {
        const now = Date.now();
        if (now - last < 100 && p.filesDone < p.filesTotal) return;
        last = now;
        shown = true;
        const fraction = p.bytesTotal > 0 ? p.bytesDone / p.bytesTotal : 1;
        const width = 24;
        const filled = Math.round(fraction * width);
        const seconds = (now - started) / 1000;
        const rate = seconds > 0 ? p.bytesDone / 1e6 / seconds : 0;
        const eta = rate > 0 ? (p.bytesTotal - p.bytesDone) / 1e6 / rate : 0;
        stderr.write(
          `\r[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${p.filesDone}/${p.filesTotal} files, ` +
            `${(p.bytesDone / 1e6).toFixed(1)}/${(p.bytesTotal / 1e6).toFixed(1)} MB, ${rate.toFixed(1)} MB/s, ETA ${eta.toFixed(0)} s\x1b[K`,
        );
      },
      done: () => {
        if (shown) stderr.write("\r\x1b[K");
      },
    };
  }
}

/** Lines listed by name in a file's one line on stderr; `--json` lists more (see lines.ts). */
const LINES_NAMED = 5;

/** `<path>: skipped malformed lines 3 (not JSON), 9 (not a JSON object) and 4 more`. */
function malformedSummary(file: MalformedFile): string {
  const named = file.lines.slice(0, LINES_NAMED).map(({ line, reason }) => `${line} (${reason})`);
  const more = file.count - named.length;
  return `${file.path}: skipped malformed line${file.count === 1 ? "" : "s"} ${named.join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
}

/** A time to come, roughly: `40 s`, `14 min`, `2 h 05 min`. */
function duration(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}
