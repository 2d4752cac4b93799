/**
 * recall's own parser for the plainest command lines of the commands typed most (`recall search
 * …`, `recall list …`; see quick.ts). clipanion, for every run, builds a state machine of the
 * command's options and simplifies it, a good part of a cold start; this reads the command's own
 * option definitions (the `Option.*` values clipanion registers, through its public option
 * protocol: each option's `definition` and `transformer`) and turns plain forms into the same
 * command clipanion would: `--name value`, `--name=value`, `-n value`, `--flag`, `--no-flag`,
 * words, and `--` before words that start with a dash. Anything else (help, an unknown option,
 * `-abc`, a missing value, a value an option's validator rejects, too few or too many words) it
 * declines, and clipanion answers the command line as always, errors included.
 */
import { Command, type Option } from "clipanion";
import type { RecallContext } from "./context.js";

type AnyOption = Option.CommandOption<unknown>;
type Builder = Parameters<AnyOption["definition"]>[0];
type RunState = Parameters<AnyOption["transformer"]>[2];

/** What an option's definition told its builder. */
interface Definition {
  key: string;
  option: AnyOption;
  names: string[];
  arity: number;
  allowBinding: boolean;
  required: boolean;
}

/** The command's options and its rest of words, as their definitions describe them. */
interface Definitions {
  options: Definition[];
  rest?: { key: string; required: number };
  /** The builder the definitions were given, handed to the transformers as clipanion does. */
  builder: Builder;
}

const isOption = (value: unknown): value is AnyOption => typeof value === "object" && value !== null && Command.isOption in value;

/**
 * Runs each option's definition against a builder that only takes notes. A definition that asks
 * for more than options and a rest of words (positional arguments, a proxy) makes the command one
 * this parser does not handle.
 */
export function definitionsOf(command: Command<RecallContext>): Definitions | undefined {
  let current: { key: string; option: AnyOption } | undefined;
  const notes = {
    addOption: ({ names, arity = 0, allowBinding = true, required = false }: { names: string[]; arity?: number; allowBinding?: boolean; required?: boolean }) => {
      definitions.options.push({ ...current!, names, arity, allowBinding, required });
    },
    addRest: ({ required = 0 }: { required?: number }) => {
      definitions.rest = { key: current!.key, required };
    },
  };
  const definitions: Definitions = { options: [], builder: notes as unknown as Builder };
  for (const [key, option] of Object.entries(command)) {
    if (!isOption(option)) continue;
    current = { key, option };
    try {
      option.definition(definitions.builder, key);
    } catch {
      return undefined;
    }
  }
  return definitions;
}

/** The options and words of `args` (the command line after the command's name), or undefined. */
function parseArgs(args: readonly string[], definitions: Definitions): { options: RunState["options"]; words: string[] } | undefined {
  const byName = new Map(definitions.options.flatMap((definition) => definition.names.map((name) => [name, definition] as const)));
  const options: RunState["options"] = [];
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
      } else if (definition?.arity === 1 && bound >= 0 && definition.allowBinding) {
        options.push({ name, value: token.slice(bound + 1) });
      } else if (definition?.arity === 1 && bound < 0 && args[i + 1] !== undefined && !args[i + 1]!.startsWith("-")) {
        options.push({ name, value: args[++i] });
      } else if (!definition && bound < 0 && token.startsWith("--no-") && byName.get(`--${token.slice(5)}`)?.arity === 0) {
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
export function quickCommand(commandClass: new () => Command<RecallContext>, argv: readonly string[], context: RecallContext): Command<RecallContext> | undefined {
  const command = new commandClass();
  const definitions = definitionsOf(command);
  const parsed = definitions && parseArgs(argv.slice(1), definitions);
  if (!definitions || !parsed) return undefined;
  const { rest } = definitions;
  if (rest ? parsed.words.length < rest.required : parsed.words.length > 0) return undefined;
  if (definitions.options.some((definition) => definition.required && !parsed.options.some((option) => definition.names.includes(option.name)))) return undefined;
  const state: RunState = {
    candidateUsage: null,
    requiredOptions: [],
    errorMessage: null,
    ignoreOptions: false,
    options: parsed.options,
    path: [argv[0]!],
    positionals: [],
    remainder: null,
    selectedIndex: null,
  };
  const fields = command as unknown as Record<string, unknown>;
  try {
    for (const { key, option } of definitions.options) fields[key] = option.transformer(definitions.builder, key, state, context);
  } catch {
    // A validator said no: clipanion words the error.
    return undefined;
  }
  if (rest) fields[rest.key] = parsed.words;
  command.context = context;
  command.path = state.path;
  return command;
}
