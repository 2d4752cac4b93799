/**
 * What every recall command shares: the options that say where sessions are and how to print,
 * and one place that turns errors into a one-line message on stderr and exit code 2 (clipanion
 * itself would print them on stdout and exit 1).
 */
import { Command, Option } from "clipanion";
import { isEnum } from "typanion";
import { openRecall, type IndexStore } from "../api/open.js";
import { RecallError } from "../errors.js";
import { COLOR_MODES, resolveColor, type ColorMode } from "../output/color.js";
import { loadPaint, type Paint } from "../output/load-paint.js";
import type { RecallContext } from "./context.js";
import { Exit, type ExitCode } from "./exit.js";

export abstract class BaseCommand extends Command<RecallContext> {
  sessionsDir = Option.String("--sessions-dir", {
    description: "Read sessions from this directory (flat layout) instead of Pi's default",
  });

  color = Option.String("--color", "auto", {
    description: "Color output: auto (on a terminal, unless NO_COLOR is set), always or never",
    validator: isEnum(COLOR_MODES),
  });

  abstract run(): Promise<ExitCode>;

  private painter: Paint | undefined;

  /** Colors for stdout, decided once (as the command starts) from --color, NO_COLOR, TERM and whether it is a terminal. */
  get paint(): Paint {
    if (!this.painter) throw new Error("paint is used before the command runs");
    return this.painter;
  }

  openStore(): IndexStore {
    const store = openRecall({ sessionsDir: this.sessionsDir, env: this.context.env, cwd: this.context.cwd });
    for (const notice of store.notices) this.warn(notice);
    return store;
  }

  /** A diagnostic line on stderr. */
  warn(message: string): void {
    this.context.stderr.write(`recall: ${message}\n`);
  }

  /** A line of data on stdout. */
  out(line: string): void {
    this.context.stdout.write(`${line}\n`);
  }

  async execute(): Promise<number> {
    try {
      this.painter = await loadPaint(resolveColor(this.color as ColorMode, this.context.env, this.context.stdoutIsTTY));
      return await this.run();
    } catch (error) {
      if (error instanceof RecallError) {
        this.warn(error.message);
      } else {
        const message = error instanceof Error ? error.message : String(error);
        this.warn(`internal error: ${message.split("\n")[0]}`);
        if (this.context.env.RECALL_DEBUG && error instanceof Error) this.context.stderr.write(`${error.stack}\n`);
      }
      return Exit.Error;
    }
  }
}
