/**
 * The `recall` command line. Parse errors and usage mistakes go to stderr with exit 2; a closed
 * pipe (`recall search x | head -1`) ends the process quietly with exit 0.
 */
import { Builtins, type Cli } from "clipanion";
import { IndexCommand } from "./commands/index.js";
import { SearchCommand } from "./commands/search.js";
import { ListCommand } from "./commands/list.js";
import { ReadCommand } from "./commands/read.js";
import { RelatedCommand } from "./commands/related.js";
import { ContextCommand } from "./commands/context.js";
import { ResumeCommand } from "./commands/resume.js";
import { ExportCommand } from "./commands/export.js";
import { StatsCommand } from "./commands/stats.js";
import { TagCommand } from "./commands/tag.js";
import { TagsCommand } from "./commands/tags.js";
import { UntagCommand } from "./commands/untag.js";
import { CompletionCommand } from "./commands/completion.js";
import { PickCommand } from "./commands/pick.js";
import { WatchCommand } from "./commands/watch.js";
import { AutotagCommand } from "./commands/autotag.js";
import { AskCommand } from "./commands/ask.js";
import { DoctorCommand } from "./commands/doctor.js";
import { McpCommand } from "./commands/mcp.js";
import { ServeCommand } from "./commands/serve.js";
import { VersionCommand } from "./commands/version.js";
import { PushCommand } from "./commands/push.js";
import { PullCommand } from "./commands/pull.js";
import { RemoteCommand } from "./commands/remote.js";
import type { RecallContext } from "./context.js";
import { commandModel } from "./docs/command-model.js";
import { shortUsage } from "./docs/help-text.js";
import { parseErrorMessage } from "./parse-errors.js";
import { withDashWordsLast } from "./query-words.js";
import { withAttachedValuesApart } from "./attached-values.js";
import { RecallCli } from "./recall-cli.js";
import { Exit } from "./exit.js";
import { defaultContext } from "./default-context.js";
import { DirectOutput } from "./direct-output.js";
import { terminalText } from "../output/terminal-text.js";
import { RECALL_VERSION, type EarlyLook } from "../index.js";

export const VERSION = RECALL_VERSION;

const COMMANDS = [
  SearchCommand,
  IndexCommand,
  ListCommand,
  ReadCommand,
  RelatedCommand,
  ContextCommand,
  ResumeCommand,
  ExportCommand,
  StatsCommand,
  TagCommand,
  UntagCommand,
  TagsCommand,
  AutotagCommand,
  AskCommand,
  PickCommand,
  WatchCommand,
  DoctorCommand,
  McpCommand,
  ServeCommand,
  PushCommand,
  PullCommand,
  RemoteCommand,
  CompletionCommand,
];

/**
 * Which commands a command line needs: the one it names, or all of them (for `recall --help`, a
 * mistyped command, and `completion`, which needs every command's definition). A parser of one
 * command is far smaller to build and to run, a measurable part of a cold `recall search`.
 */
function parserKey(only?: string): string {
  return only !== "completion" &&
    COMMANDS.some((command) => command.paths.some((path) => path[0] === only))
    ? only!
    : "all";
}

/** The CLI with the commands parserKey(only) names. */
export function buildCli(only?: string): Cli<RecallContext> {
  const cli = new RecallCli({
    binaryName: "recall",
    binaryLabel: "recall",
    binaryVersion: VERSION,
    enableColors: false,
  });
  const key = parserKey(only);
  if (key === "all") {
    // `recall --help` and `--version`; a named command answers `-h`/`--help` itself.
    cli.register(Builtins.HelpCommand);
    cli.register(VersionCommand);
    for (const command of COMMANDS) cli.register(command);
  } else {
    for (const command of COMMANDS)
      if (command.paths.some((path) => path[0] === key)) cli.register(command);
  }
  return cli;
}

/**
 * `argv` with the command's name first: `recall --color=never search -n2 x` is `recall search
 * --color=never -n2 x`, so that what reads a command's options (help, attached values, words after
 * a dash) reads these too. Unchanged unless it starts with an option and a later word names a
 * command.
 */
function commandFirst(argv: string[]): string[] {
  if (!argv[0]?.startsWith("-")) return argv;
  const names = new Set(COMMANDS.flatMap((command) => command.paths.map((path) => path[0])));
  for (let i = 1; i < argv.length && argv[i] !== "--"; i++) {
    if (names.has(argv[i])) return [argv[i]!, ...argv.slice(0, i), ...argv.slice(i + 1)];
  }
  return argv;
}

/** Whether `-h` or `--help` comes after the command's name and before any `--`. */
function helpAsked(argv: string[]): boolean {
  const end = argv.indexOf("--");
  return argv
    .slice(1, end === -1 ? undefined : end)
    .some((arg) => arg === "-h" || arg === "--help");
}

/** Runs one command line and returns its exit code. */
export async function runCli(
  argv: string[],
  context: RecallContext = defaultContext(),
): Promise<number> {
  // `recall` alone is a mistake, as `rg` alone is: how to start, on stderr.
  if (argv.length === 0) {
    context.stderr.write(shortUsage());
    return Exit.Error;
  }
  argv = commandFirst(argv);
  const cli = buildCli(argv[0]);
  const commandClass = COMMANDS.find((command) =>
    command.paths.some((path) => path.length === 1 && path[0] === argv[0]),
  );
  // `recall search foo --help` asks for search's help, as `recall search --help` does (clipanion
  // takes a help option only right after the command's name); after `--` it is a word.
  if (commandClass && helpAsked(argv)) argv = [argv[0]!, "--help"];
  let command;
  try {
    command = cli.process(
      commandClass
        ? [...withDashWordsLast(commandClass, withAttachedValuesApart(commandClass, argv))]
        : argv,
      context,
    );
  } catch (error) {
    // The message quotes the command line, which may hold anything (an ESC byte in an option's
    // name).
    context.stderr.write(
      `recall: ${terminalText(parseErrorMessage(error, argv, commandModel(cli)))}\n`,
    );
    return Exit.Error;
  }
  return cli.run(command, context);
}

/**
 * Runs the command line of this process (`earlyLook`: see bin/recall.cjs). Resolves with whether
 * the process may end at once, without Node's teardown of a finished process (a few milliseconds
 * of a short command): when all it wrote has left it.
 */
export async function main(earlyLook?: EarlyLook): Promise<boolean> {
  const context = defaultContext();
  context.earlyLook = earlyLook;
  process.exitCode = await runCli(process.argv.slice(2), context);
  return DirectOutput.allWritten();
}
