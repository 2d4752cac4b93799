/**
 * The `recall` command line. Parse errors and usage mistakes go to stderr with exit 2; a closed
 * pipe (`recall search x | head -1`) ends the process quietly with exit 0.
 */
import type { Readable } from "node:stream";
import { Builtins, Cli } from "clipanion";
import { IndexCommand } from "./commands/index.js";
import { SearchCommand } from "./commands/search.js";
import { ListCommand } from "./commands/list.js";
import { ReadCommand } from "./commands/read.js";
import { ContextCommand } from "./commands/context.js";
import { ResumeCommand } from "./commands/resume.js";
import { TagCommand } from "./commands/tag.js";
import { TagsCommand } from "./commands/tags.js";
import { UntagCommand } from "./commands/untag.js";
import { CompletionCommand } from "./commands/completion.js";
import { PickCommand } from "./commands/pick.js";
import { WatchCommand } from "./commands/watch.js";
import type { RecallContext } from "./context.js";
import { commandModel } from "./docs/command-model.js";
import { parseErrorMessage } from "./parse-errors.js";
import { Exit } from "./exit.js";
import { DirectOutput, isTerminal } from "./direct-output.js";

export const VERSION = "0.1.0";

const COMMANDS = [
  SearchCommand,
  IndexCommand,
  ListCommand,
  ReadCommand,
  ContextCommand,
  ResumeCommand,
  TagCommand,
  UntagCommand,
  TagsCommand,
  PickCommand,
  WatchCommand,
  CompletionCommand,
];

/**
 * The CLI with every command, or with `only` the command a command line names: clipanion then
 * builds a far smaller parser, a measurable part of a cold `recall search`. `completion` needs
 * every command's definition, so it always gets them all.
 */
export function buildCli(only?: string): Cli<RecallContext> {
  const cli = new Cli<RecallContext>({ binaryName: "recall", binaryLabel: "recall", binaryVersion: VERSION, enableColors: false });
  const named = only === "completion" ? [] : COMMANDS.filter((command) => command.paths.some((path) => path[0] === only));
  // `recall --help` and `--version`; a named command answers `-h`/`--help` itself.
  if (named.length === 0) {
    cli.register(Builtins.HelpCommand);
    cli.register(Builtins.VersionCommand);
  }
  for (const command of named.length > 0 ? named : COMMANDS) cli.register(command);
  return cli;
}

/**
 * process.stdin, created when first read: creating it costs milliseconds (on a terminal it loads
 * tty and net), and only `-` arguments read it. Not a getter: clipanion copies the context with a
 * spread, which would call it. Only async iteration is offered, which is all recall uses.
 */
function lazyStdin(): Readable {
  const iterable: AsyncIterable<Buffer | string> = { [Symbol.asyncIterator]: () => process.stdin[Symbol.asyncIterator]() };
  return iterable as Readable;
}

export function defaultContext(): RecallContext {
  return {
    stdin: lazyStdin(),
    stdout: new DirectOutput(1, () => process.stdout).asWritable(),
    stderr: new DirectOutput(2, () => process.stderr).asWritable(),
    env: process.env,
    cwd: process.cwd(),
    stdoutIsTTY: isTerminal(1),
    stderrIsTTY: isTerminal(2),
    colorDepth: 1,
  };
}

/** Runs one command line and returns its exit code. */
export async function runCli(argv: string[], context: RecallContext = defaultContext()): Promise<number> {
  const cli = buildCli(argv[0]);
  let command;
  try {
    command = cli.process(argv, context);
  } catch (error) {
    context.stderr.write(`recall: ${parseErrorMessage(error, argv, commandModel(cli))}\n`);
    return Exit.Error;
  }
  return cli.run(command, context);
}

export async function main(): Promise<void> {
  process.exitCode = await runCli(process.argv.slice(2));
}
