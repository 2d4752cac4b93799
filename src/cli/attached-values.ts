/**
 * Values attached to a short option: `recall list -n2`, `recall search -n1 deploy`, as head, rg
 * and fd take them. clipanion reads `-n2` as the flags `-n` and `-2`, and the quick parser declines
 * it; both get `-n 2` instead. Only an option that takes a value is split, so `-x` stays what it
 * was (a query word of `search`, or an unknown option), and nothing after `--` is touched.
 */
import type { Command } from "clipanion";
import type { RecallContext } from "./context.js";
import { optionsOf } from "./options.js";

/**
 * `argv` (the command's name first) with each `-nVALUE` as `-n VALUE`; unchanged if it has none.
 */
export function withAttachedValuesApart(
  commandClass: new () => Command<RecallContext>,
  argv: readonly string[],
): readonly string[] {
  const options = optionsOf(new commandClass());
  if (!options) return argv;
  // Named options only: a positional value (`related <session>`) takes no attached value.
  const arity = new Map<string, number>();
  for (const note of options.values())
    if (note.kind !== "rest" && note.kind !== "other")
      for (const name of note.names) arity.set(name, note.arity);
  const split: string[] = [argv[0]!];
  for (let i = 1; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === "--") {
      split.push(...argv.slice(i));
      break;
    }
    const short = /^-[^-]/.test(token) ? token.slice(0, 2) : undefined;
    if (short !== undefined && token.length > 2 && arity.get(short) === 1) {
      split.push(short, token.slice(2));
      continue;
    }
    split.push(token);
    // The value of `-n 2` or `--since 7d`, whatever it looks like, is no option.
    if (arity.get(token) === 1 && i + 1 < argv.length) split.push(argv[++i]!);
  }
  return split.length === argv.length ? argv : split;
}
