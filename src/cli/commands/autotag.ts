import { Command } from "clipanion";
import { Option } from "../options.js";
import { isNumber } from "typanion";
import { RecallError, type AutoTagResult, type SessionRef } from "../../index.js";
import { formatTags } from "../../output/session-text.js";
import { parseTime } from "../../output/time.js";
import { BaseCommand } from "../base-command.js";
import { confirm } from "../confirm.js";
import { Exit, type ExitCode } from "../exit.js";
import { autoTagRecord, autoTagSummaryRecord, wireLine } from "../wire.js";

export class AutotagCommand extends BaseCommand {
  static paths = [["autotag"]];

  static usage = Command.Usage({
    description: "tag sessions with one of your Pi models",
    details: `
      Sends a bounded sample of each session (its name, folder and tags, its first user messages and its latest messages, at most 12,000 characters) to a language model and saves the tags it proposes as automatic tags. Session text is sent as untrusted data, its secrets redacted first as \`recall push\` redacts them (\`--no-redact\` sends it as it is); the model answers with tags only. Manual tags always win, and a tag removed with \`recall untag\` is never added back. A session for which the model gives fewer tags than the minimum is reported as failed, with nothing saved.

      The model is one you configured in Pi (its models, credentials and logins), asked through your \`pi\` (on PATH, or \`RECALL_PI\`): \`--model provider/id\`, else \`autoTags.model\` in \`~/.pi/agent/recall/config.json\`, else Pi's default model. The provider may charge for each session: a batch of more than one session asks for confirmation on a terminal, and needs \`--yes\` without one.

      \`--all-untagged\` takes every session without tags (narrowed with \`--here\`, \`--cwd\`, \`--since\`, \`--until\`, \`-n\`). Each session's tags are saved as soon as they arrive; Ctrl-C stops after the request under way and keeps what is done (exit 130), and running the same command again continues with the sessions still untagged.

      Exit status: 0 if every session was tagged (or skipped), 1 if there was no session to tag, 2 if one failed or on error, 130 if stopped.
    `,
    examples: [
      ["Tag one session", "$0 autotag 01a0f6e8"],
      [
        "See what would be tagged, without saving",
        "$0 autotag --all-untagged --since 7d --dry-run --yes",
      ],
      [
        "Tag every untagged session of this folder with a given model",
        "$0 autotag --all-untagged --here --model anthropic/claude-haiku-4-5 --yes",
      ],
    ],
  });

  sessions = Option.Rest({ name: "session" });
  allUntagged = Option.Boolean("--all-untagged", false, {
    description: "Tag every session that has no tags yet",
  });
  here = Option.Boolean("--here", false, {
    description: "With --all-untagged: only sessions started in the current folder",
  });
  cwd = Option.String("--cwd", {
    description: "With --all-untagged: only sessions started in this folder",
  });
  since = Option.String("--since", {
    description:
      "With --all-untagged: only sessions active from this time on (7d, 24h, 2026-11-01)",
  });
  until = Option.String("--until", {
    description: "With --all-untagged: only sessions last active up to this time",
  });
  limit = Option.String("-n,--limit", {
    description: "With --all-untagged: at most this many sessions, most recent first",
    validator: isNumber(),
  });
  model = Option.String("--model", {
    description:
      "The model to ask, as provider/id (default: autoTags.model in the config, else Pi's default)",
  });
  dryRun = Option.Boolean("--dry-run", false, {
    description: "Print the tags the model proposes, but save nothing",
  });
  yes = Option.Boolean("-y,--yes", false, {
    description: "Do not ask before tagging more than one session",
  });
  json = Option.Boolean("--json", false, {
    description: "Print one JSON object per session, then a summary (JSON Lines)",
  });
  redact = Option.Boolean("--redact", true, {
    description:
      "Redact secrets in what is sent to the model, as push does (--no-redact sends the text as it is)",
  });

  async run(): Promise<ExitCode> {
    const sessions = await this.chosenSessions();
    if (sessions.length === 0) {
      if (!this.json)
        this.warn(
          this.allUntagged ? "every session in scope already has tags" : "no session to tag",
        );
      return Exit.NoMatch;
    }
    const recall = this.recall();
    const model = this.model ?? recall.models.modelFor("autoTags");
    const modelName = model ?? "Pi's default model";
    if (sessions.length > 1 && !this.yes) {
      const question = `Tag ${sessions.length} sessions with ${modelName}? Each session is one request, and the provider may charge for it.`;
      const answer = this.context.stderrIsTTY ? confirm(question, this.context.stderr) : undefined;
      if (answer === undefined)
        throw new RecallError(
          "BAD_INPUT",
          `tagging ${sessions.length} sessions sends ${sessions.length} requests to ${modelName}, for which the provider may charge: add --yes to go ahead`,
        );
      if (!answer) return Exit.NoMatch;
    }

    // Ctrl-C: stop after the request under way, keeping what is done; a second one stops at once.
    const progress = this.progress(sessions.length);
    const stop = new AbortController();
    const now = new AbortController();
    const onSignal = () => {
      if (stop.signal.aborted) {
        now.abort();
        return;
      }
      stop.abort();
      progress?.clear();
      this.warn("stopping after the request under way (Ctrl-C again to stop now)");
    };
    process.on("SIGINT", onSignal);
    let results: AutoTagResult[];
    try {
      results = await recall.models.autoTag(sessions, {
        ...(model ? { model } : {}),
        dryRun: this.dryRun,
        redact: this.redact,
        stop: stop.signal,
        signal: now.signal,
        onResult: (result, done, total) => {
          progress?.clear();
          this.print(result);
          progress?.show(done, total);
        },
      });
    } finally {
      process.off("SIGINT", onSignal);
      progress?.clear();
    }
    const count = (type: AutoTagResult["type"]) => results.filter((r) => r.type === type).length;
    const summary = {
      tagged: count("tagged"),
      failed: count("failed"),
      skipped: count("skipped"),
      left: sessions.length - results.length,
    };
    if (this.json)
      this.out(
        wireLine(autoTagSummaryRecord({ ...summary, model: model ?? null, dryRun: this.dryRun })),
      );
    else if (sessions.length > 1)
      this.warn(
        `${summary.tagged} tagged, ${summary.failed} failed, ${summary.skipped} skipped${summary.left ? `, ${summary.left} left (stopped)` : ""}${this.dryRun ? " (dry run: nothing saved)" : ""}`,
      );
    if (stop.signal.aborted) return Exit.Interrupted;
    return summary.failed > 0 ? Exit.Error : Exit.Ok;
  }

  /** The sessions named, or with --all-untagged those without tags in scope. */
  private async chosenSessions(): Promise<SessionRef[]> {
    if (this.allUntagged) {
      if (this.sessions.length > 0)
        throw new RecallError(
          "BAD_INPUT",
          "--all-untagged takes no sessions: name sessions, or use --all-untagged",
        );
      const limit = this.limit === undefined ? undefined : Number(this.limit);
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 1))
        throw new RecallError(
          "BAD_INPUT",
          `--limit must be a whole number of at least 1, not ${this.limit}`,
        );
      const now = Date.now();
      const untagged = await this.recall().tags.untagged({
        cwd: this.cwd ?? (this.here ? this.context.cwd : undefined),
        since: this.since === undefined ? undefined : parseTime(this.since, now),
        until: this.until === undefined ? undefined : parseTime(this.until, now),
        ...(limit === undefined ? {} : { limit }),
      });
      this.warnNotices();
      return untagged.map((s) => ({ id: s.id, path: s.path, cwd: s.cwd }));
    }
    if (this.sessions.length === 0)
      throw new RecallError(
        "BAD_INPUT",
        "name the sessions to tag (id, id prefix, path, or - for stdin), or use --all-untagged",
      );
    if (
      this.here ||
      this.cwd !== undefined ||
      this.since !== undefined ||
      this.until !== undefined ||
      this.limit !== undefined
    ) {
      throw new RecallError(
        "BAD_INPUT",
        "--here, --cwd, --since, --until and --limit go with --all-untagged",
      );
    }
    const { sessions, failed } = await this.resolveSessions(this.sessions);
    if (failed && sessions.length === 0)
      throw new RecallError("NOT_FOUND", "none of the sessions named could be found");
    return sessions;
  }

  private print(result: AutoTagResult): void {
    if (this.json) {
      this.out(wireLine(autoTagRecord(result)));
      return;
    }
    if (result.type === "tagged")
      this.out(
        `${result.id}  ${this.paint.magenta(formatTags(result.tags))}${result.saved ? "" : this.paint.dim("  (not saved)")}`,
      );
    else
      this.warn(
        `${result.id}: ${result.type === "failed" ? "failed" : "skipped"}: ${result.reason}`,
      );
  }

  /** `[#####-----] 3/50 sessions` on stderr, only on a terminal and not with --json. */
  private progress(
    total: number,
  ): { show(done: number, total: number): void; clear(): void } | undefined {
    if (total < 2 || this.json || !this.context.stderrIsTTY) return undefined;
    const stderr = this.context.stderr;
    let shown = false;
    const show = (done: number, all: number) => {
      const width = 24;
      const filled = Math.round((done / all) * width);
      stderr.write(
        `\r[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${all} sessions\x1b[K`,
      );
      shown = true;
    };
    show(0, total);
    return {
      show,
      clear: () => {
        if (shown) stderr.write("\r\x1b[K");
        shown = false;
      },
    };
  }
}
