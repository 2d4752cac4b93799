/**
 * `--help` as text, from the command model (the one source man pages and completions are made
 * from too): a synopsis with its operands, options with typed values (`-n, --limit N`) and their
 * descriptions in one column, the details, examples. `recall --help` lists the commands and, once,
 * the options every command takes.
 */
import type { CommandModel, OptionModel } from "./command-model.js";

/** Options every command but `mcp` takes (base-command.ts): listed once in `recall --help`. */
export const SHARED_OPTIONS = ["--sessions-dir", "--color"];

const WIDTH = 80;
/** The description column starts here, or after the longest option that fits before it. */
const MAX_TERM = 26;

const HELP_OPTION: OptionModel = {
  names: ["-h", "--help"],
  takesValue: false,
  description: "Show this help",
};
const VERSION_OPTION: OptionModel = {
  names: ["-v", "--version"],
  takesValue: false,
  description: "Print recall's version and its native core's",
};

function optionTerm(option: OptionModel): string {
  return `${option.names.join(", ")}${option.placeholder ? ` ${option.placeholder}` : ""}`;
}

/** `text` cut into lines of at most `width` characters, at spaces. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** Terms and their descriptions, each description starting in the same column. */
function table(rows: [string, string][]): string {
  const column = Math.min(MAX_TERM, Math.max(...rows.map(([term]) => term.length))) + 4;
  return rows
    .flatMap(([term, text]) => {
      const lines = wrap(text, WIDTH - column);
      const first = `  ${term}`;
      if (first.length + 2 > column)
        return [first, ...lines.map((line) => `${" ".repeat(column)}${line}`)];
      return [
        `${first.padEnd(column)}${lines[0] ?? ""}`,
        ...lines.slice(1).map((line) => `${" ".repeat(column)}${line}`),
      ];
    })
    .join("\n");
}

function examples(command: CommandModel): string {
  return command.examples.map(([label, line]) => `  ${label}:\n    $ ${line}`).join("\n\n");
}

/** `recall search --help`. */
export function commandHelp(command: CommandModel): string {
  const [first, ...others] = command.synopsis;
  const usage = [`Usage: ${first}`, ...others.map((line) => `       ${line}`)].join("\n");
  const details = command.details
    .split(/\n\s*\n/)
    .map((paragraph) => wrap(paragraph, WIDTH).join("\n"))
    .join("\n\n");
  // The command's own options first, those every command takes after them.
  const shared = (o: OptionModel) => o.names.some((name) => SHARED_OPTIONS.includes(name));
  const options = [
    ...command.options.filter((o) => !shared(o)),
    ...command.options.filter(shared),
    HELP_OPTION,
  ];
  const sections = [
    `recall ${command.name}: ${command.description}`,
    usage,
    `Options:\n${table(options.map((o) => [optionTerm(o), o.description]))}`,
  ];
  if (details) sections.push(details);
  if (command.examples.length > 0) sections.push(`Examples:\n${examples(command)}`);
  return `${sections.join("\n\n")}\n`;
}

/** `recall --help`. */
export function overviewHelp(commands: CommandModel[], version: string): string {
  const shared = SHARED_OPTIONS.map((name) =>
    commands.flatMap((c) => c.options).find((o) => o.names.includes(name)),
  ).filter((o): o is OptionModel => o !== undefined);
  return `${[
    `recall ${version}: find and resume Pi sessions by what was said in them`,
    "Usage: recall <command> [options] [arguments]",
    `Commands:\n${table(commands.map((c) => [c.name, c.description]))}`,
    `Options of every command:\n${table([...shared, HELP_OPTION].map((o) => [optionTerm(o), o.description]))}`,
    `Options of recall alone:\n${table([VERSION_OPTION].map((o) => [optionTerm(o), o.description]))}`,
    wrap(
      "`recall <command> --help` shows a command's options and examples; `man recall` the manual.",
      WIDTH,
    ).join("\n"),
  ].join("\n\n")}\n`;
}

/** What a bare `recall` prints (on stderr, as rg does): how to start. */
export function shortUsage(): string {
  return "usage: recall <command> [options] [arguments]\n`recall --help` lists the commands; `recall search <words>` finds sessions\n";
}
