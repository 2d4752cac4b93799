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

export function buildCli(): Cli<RecallContext> {
  const cli = new Cli<RecallContext>({ binaryName: "recall", binaryLabel: "recall", binaryVersion: VERSION, enableColors: false });
  cli.register(Builtins.HelpCommand);
  cli.register(Builtins.VersionCommand);
  cli.register(SearchCommand);
  cli.register(IndexCommand);
  cli.register(ListCommand);
  cli.register(ReadCommand);
  cli.register(ContextCommand);
  cli.register(ResumeCommand);
  cli.register(TagCommand);
  cli.register(UntagCommand);
  cli.register(TagsCommand);
  cli.register(PickCommand);
  cli.register(CompletionCommand);
  return cli;
}

export function defaultContext(): RecallContext {
  return {
    stdin: process.stdin,
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
  const cli = buildCli();
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
