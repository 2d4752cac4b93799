/**
 * clipanion's Cli with recall's help: `--help` text made from the command model
 * (docs/help-text.ts), and option values shown by what they are (`--limit N`) in the one-line
 * usages clipanion still writes itself (`#0` in clipanion's own words).
 */
import { Cli, type Command } from "clipanion";
import type { RecallContext } from "./context.js";
import { commandModel } from "./docs/command-model.js";
import { commandHelp, overviewHelp } from "./docs/help-text.js";

/** clipanion's placeholder for an option's first (and in recall, only) value. */
const VALUE_PLACEHOLDER = / #0\b/g;

export class RecallCli extends Cli<RecallContext> {
  override usage(...args: Parameters<Cli<RecallContext>["usage"]>): string {
    const [command, options] = args;
    const models = commandModel(this);
    if (command === null || command === undefined)
      return overviewHelp(models, this.binaryVersion ?? "");
    const path = (
      command instanceof Function ? command : (command.constructor as typeof Command)
    ).paths?.[0]?.join(" ");
    const model = models.find((m) => m.name === path);
    if (options?.detailed && model) return commandHelp(model);
    return super.usage(...args).replace(VALUE_PLACEHOLDER, " VALUE");
  }
}
