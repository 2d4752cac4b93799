/**
 * recall's own parser for the plainest command lines of the commands typed most (`recall search
 * …`, `recall list …`; see quick.ts). clipanion, for every run, builds a state machine of the
 * command's options and simplifies it, a good part of a cold start; this reads what options.ts
 * noted of the command's options (names, value or flag, start value, validator) and turns plain
 * forms into the same command clipanion would: `--name value`, `--name=value`, `-n value`,
 * `--flag`, `--no-flag`, words, and `--` before words that start with a dash. Anything else (help,
 * an unknown option, `-abc`, a missing value, a value an option's validator rejects, too few or too
 * many words) it declines, and clipanion answers the command line as always, errors included.
 */
import type { Command } from "clipanion";
import type { RecallContext } from "./context.js";
import { optionsOf, validated, type NamedOption } from "./options.js";

/** A named option of the command, with the field it sets. */
export interface Definition extends NamedOption {
  key: string;
}

/** The command's options and its rest of words, as options.ts noted them. */
export interface Definitions {
  options: Definition[];
  rest?: { key: string; required: number };
}

/** One option as the command line gave it: its name and value (true or false for a flag). */
interface Given {
  name: string;
  value: string | boolean;
}

/**
 * The command's options as options.ts noted them, or undefined when one is of a kind this parser
 * does not handle (a positional value, one read from the environment, one not noted).
 */
export function definitionsOf(command: Command<RecallContext>): Definitions | undefined {
  const options = optionsOf(command);
  if (!options) return undefined;
  const definitions: Definitions = { options: [] };
  for (const [key, note] of options) {
    if (note.kind === "other") return undefined;
    if (note.kind === "rest") definitions.rest = { key, required: note.required };
    else definitions.options.push({ ...note, key });
  }
  return definitions;
}

/** The options and words of `args` (the command line after the command's name), or undefined. */
function parseArgs(
  args: readonly string[],
  definitions: Definitions,
): { options: Given[]; words: string[] } | undefined {
  const byName = new Map(
    definitions.options.flatMap((definition) =>
      definition.names.map((name) => [name, definition] as const),
    ),
  );
  const options: Given[] = [];
  const words: string[] = [];
  let wordsOnly = false;
  for (let i = 0; i < args.length; i++) {
    const token = args[i]!;
    if (wordsOnly || !token.startsWith("-")) {
      words.push(token);
    } else if (token === "--") {
      wordsOnly = true;
    } else {
      const bound = token.startsWith("--") ? token.indexOf("=") : -1;
      const name = bound < 0 ? token : token.slice(0, bound);
      const definition = byName.get(name);
      if (definition?.arity === 0 && bound < 0) {
        options.push({ name, value: true });
      } else if (definition?.arity === 1 && bound >= 0) {
        options.push({ name, value: token.slice(bound + 1) });
      } else if (
        definition?.arity === 1 &&
        bound < 0 &&
        args[i + 1] !== undefined &&
        !args[i + 1]!.startsWith("-")
      ) {
        options.push({ name, value: args[++i] });
      } else if (
        !definition &&
        bound < 0 &&
        token.startsWith("--no-") &&
        byName.get(`--${token.slice(5)}`)?.arity === 0
      ) {
        // clipanion's negated flag: the value false under the flag's own name.
        options.push({ name: `--${token.slice(5)}`, value: false });
      } else {
        return undefined;
      }
    }
  }
  return { options, words };
}

/**
 * The command `commandClass` makes of `argv` (its name first), with every option set as clipanion
 * sets it, or undefined when the command line is not one this parser handles.
 */
export function quickCommand(
  commandClass: new () => Command<RecallContext>,
  argv: readonly string[],
  context: RecallContext,
): Command<RecallContext> | undefined {
  const command = new commandClass();
  const definitions = definitionsOf(command);
  const parsed = definitions && parseArgs(argv.slice(1), definitions);
  if (!definitions || !parsed) return undefined;
  const { rest } = definitions;
  if (rest ? parsed.words.length < rest.required : parsed.words.length > 0) return undefined;
  if (
    definitions.options.some(
      (definition) =>
        definition.required &&
        !parsed.options.some((option) => definition.names.includes(option.name)),
    )
  )
    return undefined;
  const fields = command as unknown as Record<string, unknown>;
  for (const definition of definitions.options) {
    const value = valueOf(definition, parsed.options);
    // A validator said no: clipanion words the error.
    if (!value) return undefined;
    fields[definition.key] = value.value;
  }
  if (rest) fields[rest.key] = parsed.words;
  command.context = context;
  command.path = [argv[0]!];
  return command;
}

/**
 * The value clipanion gives `definition` from the options given: the last one given wins, an array
 * takes them all.
 */
function valueOf(definition: Definition, given: readonly Given[]): { value: unknown } | undefined {
  const mine = given.filter((option) => definition.names.includes(option.name));
  if (definition.kind === "array")
    return { value: mine.length > 0 ? mine.map((option) => option.value) : definition.initial };
  const last = mine.length > 0 ? mine[mine.length - 1]!.value : definition.initial;
  return definition.kind === "string" && typeof last === "string"
    ? validated(last, definition.validator)
    : { value: last };
}
