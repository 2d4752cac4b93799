/**
 * What every recall command shares: the options that say where sessions are and how to print,
 * and one place that turns errors into a one-line message on stderr and exit code 2 (clipanion
 * itself would print them on stdout and exit 1).
 */
import { Command } from "clipanion";
import { Option } from "./options.js";
import { isEnum } from "typanion";
import {
  Recall,
  RecallError,
  type IndexCheck,
  type Notice,
  type SessionRef,
  type SessionsFolderProblem,
} from "../index.js";
import { COLOR_MODES, resolveColor, type ColorMode } from "../output/color.js";
import { loadPaint, type Paint } from "../output/load-paint.js";
import type { RecallContext } from "./context.js";
import { cliMessage, sessionsFolderMessage } from "./error-words.js";
import { Exit, type ExitCode } from "./exit.js";
import { readSessionArgs } from "./session-args.js";
import { terminalText } from "../output/terminal-text.js";

export abstract class BaseCommand extends Command<RecallContext> {
  sessionsDir = Option.String("--sessions-dir", {
    description: "Read sessions from this directory (flat layout) instead of Pi's default",
  });

  color = Option.String("--color", "auto", {
    description:
      "Color output: auto (on a terminal, unless NO_COLOR is set), always or never (default auto)",
    validator: isEnum(COLOR_MODES),
  });

  abstract run(): Promise<ExitCode>;

  private painter: Paint | undefined;

  /**
   * Colors for stdout, decided once (as the command starts) from --color, NO_COLOR, TERM and
   * whether it is a terminal.
   */
  get paint(): Paint {
    if (!this.painter) throw new Error("paint is used before the command runs");
    return this.painter;
  }

  private library: Recall | undefined;

  /**
   * Whether opening checks every file of the index (it reads the whole index): `recall index` does.
   */
  protected readonly indexCheck: IndexCheck = "changed";

  /** The library for the sessions folder this command line names; nothing opened yet. */
  private unopened(): Recall {
    this.library ??= Recall.open({
      sessionsDir: this.sessionsDir,
      env: this.context.env,
      cwd: this.context.cwd,
      check: this.indexCheck,
      showRemoteHosts: true,
    });
    return this.library;
  }

  /**
   * The library for the sessions folder this command line names (its first use opens the index).
   */
  recall(): Recall {
    return this.unopened();
  }

  /** What the library has to tell the user, on stderr. */
  warnNotices(): void {
    for (const notice of this.library?.takeNotices() ?? []) this.warn(noticeLine(notice));
  }

  /**
   * The sessions `args` name (ids, id prefixes, paths; `-` for those on stdin). One that cannot
   * be resolved is reported and skipped when there are several, so a list piped in is not stopped
   * by one stale id; `failed` says it happened. A single one that cannot be is an error.
   */
  async resolveSessions(args: string[]): Promise<{ sessions: SessionRef[]; failed: boolean }> {
    const refs = await readSessionArgs(args, this.context.stdin);
    const resolved = await this.recall().resolveAll(refs);
    this.warnNotices();
    const sessions: SessionRef[] = [];
    let failed = false;
    for (const entry of resolved) {
      if ("session" in entry) {
        sessions.push(entry.session);
        continue;
      }
      if (!(entry.error instanceof RecallError) || refs.length === 1) throw entry.error;
      this.warn(`${entry.ref}: ${cliMessage(entry.error)}`);
      failed = true;
    }
    return { sessions, failed };
  }

  /**
   * What is wrong with the sessions folder, if anything (in the command line's words), without
   * opening the index.
   */
  sessionsFolderProblem(): SessionsFolderProblem | undefined {
    const problem = this.unopened().sessionsFolderProblem();
    return problem && { ...problem, message: sessionsFolderMessage(problem) };
  }

  /**
   * A diagnostic line on stderr; what it quotes of a session (a folder, a name) is shown safely.
   */
  warn(message: string): void {
    this.context.stderr.write(`recall: ${terminalText(message)}\n`);
  }

  /** A line of data on stdout. */
  out(line: string): void {
    this.context.stdout.write(`${line}\n`);
  }

  async execute(): Promise<number> {
    try {
      this.painter = await loadPaint(
        resolveColor(this.color as ColorMode, this.context.env, this.context.stdoutIsTTY),
      );
      const code = await this.run();
      this.warnNotices();
      return code;
    } catch (error) {
      this.warnNotices();
      if (error instanceof RecallError) {
        this.warn(cliMessage(error));
      } else {
        const message = error instanceof Error ? error.message : String(error);
        this.warn(`internal error: ${message.split("\n")[0]}`);
        if (this.context.env.RECALL_DEBUG && error instanceof Error)
          this.context.stderr.write(`${error.stack}\n`);
      }
      return Exit.Error;
    }
  }
}

/** A notice in the command line's words. */
export function noticeLine(notice: Notice): string {
  return notice.code === "FILES_SKIPPED" && notice.hint
    ? `${notice.message} (\`recall index\` lists them)`
    : notice.message;
}
