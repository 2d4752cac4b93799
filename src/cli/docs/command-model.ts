/**
 * The commands and options of the CLI as plain data, read from clipanion's own definitions: the
 * one source that help, completions and man pages are all generated from.
 */
import type { Cli } from "clipanion";
import { COLOR_MODES } from "../../output/color.js";
import { OUTPUT_FORMATS } from "../../output/format.js";
import { TRANSCRIPT_MODES, TYPO_MODES } from "../../index.js";

export interface OptionModel {
  /** Every spelling, e.g. `["-n", "--limit"]`. */
  names: string[];
  takesValue: boolean;
  /** What the value is, as help and man pages write it: `N`, `T`, `DIR`. */
  placeholder?: string;
  description: string;
  /** Allowed values, for options that take one from a fixed set. */
  values?: readonly string[];
  /** Whether the value is a folder (completed as one). */
  directory?: boolean;
}

export interface CommandModel {
  /** `search`, or `` for the bare `recall` help. */
  name: string;
  /** `recall search [options] <query…>`: the first of `synopsis`. */
  usage: string;
  /** Every form of the command line, operands named. */
  synopsis: string[];
  description: string;
  details: string;
  examples: [string, string][];
  options: OptionModel[];
  /** Values of the first positional argument, when they are a fixed set. */
  positionalValues?: readonly string[];
}

export const SHELLS = ["bash", "zsh", "fish"] as const;

/** Option values that the definitions do not carry: the enums behind their validators. */
const OPTION_VALUES: Record<string, readonly string[]> = {
  "--color": COLOR_MODES,
  "--format": OUTPUT_FORMATS,
  "--mode": TRANSCRIPT_MODES,
  "--typos": TYPO_MODES,
};
const DIRECTORY_OPTIONS = new Set(["--cwd", "--sessions-dir"]);

/** What each option's value is, by its long name; any other takes a `VALUE`. */
const PLACEHOLDERS: Record<string, string> = {
  "--limit": "N",
  "--max-chars": "N",
  "--since": "T",
  "--until": "T",
  "--cwd": "DIR",
  "--sessions-dir": "DIR",
  "--agent-dir": "DIR",
  "--project-dir": "DIR",
  "--content": "KINDS",
  "--file": "PATH",
  "--format": "FORMAT",
  "--color": "WHEN",
  "--mode": "MODE",
  "--typos": "MODE",
  "--cursor": "CURSOR",
  "--highlight": "WORDS",
  "--model": "MODEL",
  "--default-scope": "SCOPE",
  "--remote": "NAME",
};

/** The name of each command's rest of operands (clipanion writes them as `...`). */
const REST_NAMES: Record<string, string> = {
  search: "query",
  pick: "query",
  autotag: "session",
  tags: "session",
  read: "session",
  ask: "question",
  context: "question",
  tag: "tag",
  untag: "tag",
};

/** Forms of a command line that its operands alone do not tell. */
const EXTRA_SYNOPSIS: Record<string, string[]> = {
  search: ["recall search [options] --file PATH [query…]"],
};

/**
 * `recall read [options] <session…>` from clipanion's `recall read <session> ...`; `search`'s query
 * is written as required, since it runs only with one (an empty '' lists the latest sessions).
 */
function synopsisOf(name: string, clipanionUsage: string, hasOptions: boolean): string[] {
  const rest = REST_NAMES[name] ?? "argument";
  const operands = clipanionUsage
    .replace(/^recall [a-z]+/, "")
    .replace(/<([^>]+)> \.\.\.$/, "<$1…>")
    .replace(/ \.\.\.$/, name === "search" ? ` <${rest}…>` : ` [${rest}…]`);
  return [
    `recall ${name}${hasOptions ? " [options]" : ""}${operands}`,
    ...(EXTRA_SYNOPSIS[name] ?? []),
  ];
}
const POSITIONAL_VALUES: Record<string, readonly string[]> = { completion: SHELLS };

function clean(text: string | undefined): string {
  return (text ?? "").trim();
}

export function commandModel(cli: Cli<never> | Cli<any>): CommandModel[] {
  const commands: CommandModel[] = [];
  for (const definition of cli.definitions()) {
    const name = definition.path.split(" ").slice(1).join(" ");
    // clipanion's own -h/-v entries are covered by recall's --help/--version.
    if (!name) continue;
    const options: OptionModel[] = [];
    for (const option of definition.options) {
      const [spelling] = option.definition.split(" ");
      const names = spelling!.split(",");
      const long = names.find((n) => n.startsWith("--")) ?? names[0]!;
      const description = clean(option.description);
      const takesValue = option.definition.includes("#0");
      const model: OptionModel = { names, takesValue, description };
      if (takesValue) model.placeholder = PLACEHOLDERS[long] ?? "VALUE";
      if (OPTION_VALUES[long]) model.values = OPTION_VALUES[long];
      if (DIRECTORY_OPTIONS.has(long)) model.directory = true;
      options.push(model);
    }
    const synopsis = synopsisOf(name, clean(definition.usage), options.length > 0);
    const command: CommandModel = {
      name,
      usage: synopsis[0]!,
      synopsis,
      description: clean(definition.description),
      details: clean(definition.details),
      examples: (definition.examples ?? []).map(
        ([label, example]) => [clean(label), clean(example)] as [string, string],
      ),
      options,
    };
    if (POSITIONAL_VALUES[name]) command.positionalValues = POSITIONAL_VALUES[name];
    commands.push(command);
  }
  return commands.sort((a, b) => a.name.localeCompare(b.name));
}
