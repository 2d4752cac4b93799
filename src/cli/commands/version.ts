/**
 * `recall --version` (and `-v`): the package's version and the native core's. A core of another
 * release (a stale build, a half-upgraded install) is an error that says how to fix it.
 */
import { Command } from "clipanion";
import { versions } from "../../index.js";
import type { RecallContext } from "../context.js";
import { Exit } from "../exit.js";

export class VersionCommand extends Command<RecallContext> {
  // As clipanion's own version command: `recall -v`, `recall --version`.
  static override paths = [["-v"], ["--version"]];

  async execute(): Promise<number> {
    try {
      const { recall, core } = versions();
      this.context.stdout.write(`recall ${recall} (native core ${core})\n`);
      return Exit.Ok;
    } catch (error) {
      this.context.stderr.write(
        `recall: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      return Exit.Error;
    }
  }
}
