/**
 * The entry of the CLI's quick bundle (dist/bundle/quick.cjs), which bin/recall.cjs loads first for
 * `recall search` and `recall list`: the command line parsed by quick-parse.ts, and the command
 * run, without clipanion's Cli. Loading that (it creates process.stdin, stdout and stderr, and
 * loads tty and net, as it loads) and compiling its parser are most of what clipanion costs a cold
 * start. A command line the quick parser declines goes to the full CLI (main.ts), untouched.
 */
import type { Command } from "clipanion";
import type { EarlyLook } from "../index.js";
import { ListCommand } from "./commands/list.js";
import { SearchCommand } from "./commands/search.js";
import type { RecallContext } from "./context.js";
import { defaultContext } from "./default-context.js";
import { DirectOutput } from "./direct-output.js";
import { quickCommand } from "./quick-parse.js";
import { withDashWordsLast } from "./query-words.js";
import { withAttachedValuesApart } from "./attached-values.js";

const QUICK_COMMANDS: Record<string, new () => Command<RecallContext>> = {
  search: SearchCommand,
  list: ListCommand,
};

/**
 * Runs the command line of this process if the quick parser takes it, and resolves as main.ts's
 * main does; resolves with undefined, having run and written nothing, if it does not.
 */
export async function main(earlyLook?: EarlyLook): Promise<boolean | undefined> {
  const argv = process.argv.slice(2);
  const commandClass = Object.hasOwn(QUICK_COMMANDS, argv[0] ?? "")
    ? QUICK_COMMANDS[argv[0]!]
    : undefined;
  if (!commandClass) return undefined;
  const context = defaultContext();
  context.earlyLook = earlyLook;
  const command = quickCommand(
    commandClass,
    withDashWordsLast(commandClass, withAttachedValuesApart(commandClass, argv)),
    context,
  );
  if (!command) return undefined;
  process.exitCode = await command.validateAndExecute();
  return DirectOutput.allWritten();
}
