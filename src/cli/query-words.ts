/**
 * Query words that start with a dash. `recall search -#wip deploy` and `recall search -x` are
 * queries: a command line parser would take `-#wip` for an option it does not know. For the
 * commands whose words are a query, a word that starts with a single dash and is no option of the
 * command is moved behind `--`, where both parsers (quick-parse.ts and clipanion) take it as a
 * word. Options stay where they were, before or after the words; a token after `--` stays a word;
 * an unknown `--long` option stays an error (it is far more often a typo than a query word).
 */
import type { Command } from "clipanion";
import type { RecallContext } from "./context.js";
import { definitionsOf } from "./quick-parse.js";

/** What clipanion gives every command besides its own options. */
const HELP_NAMES = ["-h", "--help"];

/** `--no-flag`, clipanion's negation of a flag: a known option of no value. */
function negatedFlag(arity: Map<string, number>, name: string): number | undefined {
  return name.startsWith("--no-") && arity.get(`--${name.slice(5)}`) === 0 ? 0 : undefined;
}

/**
 * `argv` (the command's name first) with its dash-led query words after `--`; unchanged if it has
 * none.
 */
export function withDashWordsLast(
  commandClass: new () => Command<RecallContext>,
  argv: readonly string[],
): readonly string[] {
  const definitions = definitionsOf(new commandClass());
  if (definitions?.rest?.key !== "query") return argv;
  const arity = new Map<string, number>(HELP_NAMES.map((name) => [name, 0]));
  for (const definition of definitions.options)
    for (const name of definition.names) arity.set(name, definition.arity);
  const options: string[] = [];
  const words: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === "--") {
      words.push(...argv.slice(i + 1));
      break;
    }
    if (!token.startsWith("-") || token === "-") {
      words.push(token);
      continue;
    }
    const long = token.startsWith("--");
    const name = long && token.includes("=") ? token.slice(0, token.indexOf("=")) : token;
    const known = arity.get(name) ?? (long ? negatedFlag(arity, name) : undefined);
    if (known === undefined && !long) {
      words.push(token);
      continue;
    }
    options.push(token);
    if (known === 1 && !token.includes("=") && i + 1 < argv.length) options.push(argv[++i]!);
  }
  if (!words.some((word) => word.startsWith("-"))) return argv;
  return [argv[0]!, ...options, "--", ...words];
}
