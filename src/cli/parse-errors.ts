/**
 * One-line messages for command lines clipanion cannot parse, with the closest valid command or
 * option suggested ("did you mean"), instead of clipanion's multi-line candidate lists.
 */
import { quote } from "../output/quote.js";
import type { CommandModel } from "./docs/command-model.js";

export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/** The candidate nearest to `word`, if it is near enough to be a likely typo. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const candidate of candidates) {
    const distance =
      candidate.startsWith(word) && word.length >= 2 ? 1 : editDistance(word, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

export function parseErrorMessage(
  error: unknown,
  argv: readonly string[],
  commands: CommandModel[],
): string {
  const raw = error instanceof Error ? error.message : String(error);
  const commandName = argv.find((a) => !a.startsWith("-"));
  const command = commands.find((c) => c.name === commandName);
  if (/^Command not found/.test(raw)) {
    if (!commandName) return "unknown option; `recall --help` lists the commands";
    const suggestion = closest(
      commandName,
      commands.map((c) => c.name),
    );
    return `unknown command ${quote(commandName)}${suggestion ? `; did you mean "${suggestion}"?` : ""} (\`recall --help\` lists the commands)`;
  }
  const unsupported = /Unsupported option name \("([^"]+)"\)/.exec(raw);
  if (unsupported && command) {
    const option = unsupported[1]!;
    const suggestion = closest(option, command.options.flatMap((o) => o.names).concat("--help"));
    return `unknown option ${quote(option)} for recall ${command.name}${suggestion ? `; did you mean "${suggestion}"?` : ""} (\`recall ${command.name} --help\` lists its options)`;
  }
  // `recall tag 01a0f6e8` (no tag): say what the command takes.
  if (/^Not enough positional arguments/.test(raw) && command) {
    return `recall ${command.name} needs more arguments: ${command.usage} (\`recall ${command.name} --help\` shows the usage)`;
  }
  const firstLine = raw.split("\n")[0]!.trim().replace(/\.$/, "");
  const help = command ? `recall ${command.name} --help` : "recall --help";
  return `${firstLine.charAt(0).toLowerCase()}${firstLine.slice(1)} (\`${help}\` shows the usage)`;
}
