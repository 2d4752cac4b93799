/**
 * The `recall` command line. Parse errors and usage mistakes go to stderr with exit 2; a closed
 * pipe (`recall search x | head -1`) ends the process quietly with exit 0.
 */
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
import type { RecallContext } from "./context.js";
import { commandModel } from "./docs/command-model.js";
import { parseErrorMessage } from "./parse-errors.js";
import { Exit } from "./exit.js";

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
  CompletionCommand,
];

/**
 * The CLI with every command, or with `only` the command a command line names: clipanion then
 * builds a far smaller parser, a measurable part of a cold `recall search`. `completion` needs
 * every command's definition, so it always gets them all.
 */
export function buildCli(only?: string): Cli<RecallContext> {
  const cli = new Cli<RecallContext>({ binaryName: "recall", binaryLabel: "recall", binaryVersion: VERSION, enableColors: false });
  cli.register(Builtins.HelpCommand);
  cli.register(Builtins.VersionCommand);
  const named = only === "completion" ? [] : COMMANDS.filter((command) => command.paths.some((path) => path[0] === only));
  for (const command of named.length > 0 ? named : COMMANDS) cli.register(command);
  return cli;
}

export function defaultContext(): RecallContext {
  return {
    // A getter: touching process.stdin loads the tty and net modules, which most commands never need.
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY: Boolean(process.stderr.isTTY),
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
  // A reader that stops early (`| head -1`) is not an error: stop writing and exit 0.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0);
    throw error;
  });
  process.exitCode = await runCli(process.argv.slice(2));
}
