/**
 * The commands and options of the CLI as plain data, read from clipanion's own definitions: the
 * one source that help, completions and man pages are all generated from.
 */
import type { Cli } from "clipanion";
import { COLOR_MODES } from "../../output/color.js";
import { OUTPUT_FORMATS } from "../../output/format.js";
import { TRANSCRIPT_MODES } from "../../index.js";

export interface OptionModel {
  /** Every spelling, e.g. `["-n", "--limit"]`. */
  names: string[];
  takesValue: boolean;
  description: string;
  /** Allowed values, for options that take one from a fixed set. */
  values?: readonly string[];
  /** Whether the value is a folder (completed as one). */
  directory?: boolean;
}

export interface CommandModel {
  /** `search`, or `` for the bare `recall` help. */
  name: string;
  usage: string;
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
};
const DIRECTORY_OPTIONS = new Set(["--cwd", "--sessions-dir"]);
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
      const model: OptionModel = { names, takesValue: option.definition.includes("#0"), description };
      if (OPTION_VALUES[long]) model.values = OPTION_VALUES[long];
      if (DIRECTORY_OPTIONS.has(long)) model.directory = true;
      options.push(model);
    }
    const command: CommandModel = {
      name,
      usage: clean(definition.usage),
      description: clean(definition.description),
      details: clean(definition.details),
      examples: (definition.examples ?? []).map(([label, example]) => [clean(label), clean(example)] as [string, string]),
      options,
    };
    if (POSITIONAL_VALUES[name]) command.positionalValues = POSITIONAL_VALUES[name];
    commands.push(command);
  }
  return commands.sort((a, b) => a.name.localeCompare(b.name));
}
