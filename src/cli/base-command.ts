/**
 * What every recall command shares: the options that say where sessions are and how to print,
 * and one place that turns errors into a one-line message on stderr and exit code 2 (clipanion
 * itself would print them on stdout and exit 1).
 */
import { Command, Option } from "clipanion";
import { isEnum } from "typanion";
import type { IndexStore, Locations } from "../api/open.js";
import { resolveLocations } from "../locations.js";
import { openStore, type OpenOptions } from "../store.js";
import { RecallError } from "../errors.js";
import { mayComeFromDamage, repairIfDamaged } from "../sync/repair.js";
import { COLOR_MODES, resolveColor, type ColorMode } from "../output/color.js";
import { createPaint, type Paint } from "../output/paint.js";
import type { RecallContext } from "./context.js";
import { Exit, type ExitCode } from "./exit.js";
import { syncNotices } from "./sync-notices.js";

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

  /** Colors for stdout, decided once from --color, NO_COLOR, TERM and whether it is a terminal. */
  get paint(): Paint {
    this.painter ??= createPaint(resolveColor(this.color as ColorMode, this.context.env, this.context.stdoutIsTTY));
    return this.painter;
  }

  /** The index this command opened, if it opened one: a failure then may be its damage. */
  private locations: Locations | undefined;

  openStore(options: OpenOptions = {}): IndexStore {
    // Known before opening: opening may be what fails on a damaged index.
    this.locations = resolveLocations({ sessionsDir: this.sessionsDir, env: this.context.env, cwd: this.context.cwd });
    const store = openStore(this.locations, options);
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
      try {
        return await this.run();
      } catch (error) {
        // A damaged index is rebuilt (see repair.ts), and the command runs once more.
        const repair = this.locations && mayComeFromDamage(error) ? await repairIfDamaged(this.locations) : undefined;
        if (!repair) throw error;
        for (const notice of [...repair.notices, ...syncNotices(repair.report)]) this.warn(notice);
        return await this.run();
      }
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
