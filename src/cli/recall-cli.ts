/**
 * clipanion's Cli with option values shown as `<value>` in help and usage text: clipanion writes
 * a value's place as `#0` (`--limit #0`) and has no option to name it.
 */
import { Cli } from "clipanion";
import type { RecallContext } from "./context.js";

/** clipanion's placeholder for an option's first (and in recall, only) value. */
const VALUE_PLACEHOLDER = / #0\b/g;

export class RecallCli extends Cli<RecallContext> {
  override usage(...args: Parameters<Cli<RecallContext>["usage"]>): string {
    return super.usage(...args).replace(VALUE_PLACEHOLDER, " <value>");
  }
}

