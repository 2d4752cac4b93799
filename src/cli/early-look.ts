/**
 * The freshness check of `recall search` and `recall list`, started before the CLI is even loaded:
 * bin/recall.cjs runs this module first, from a small bundle of its own, and the query takes the
 * look (see the library's startEarlyLook). A guess from the raw arguments is enough: a look no
 * command takes is only wasted work, and the scan drops one of another folder.
 */
import { startEarlyLook, type EarlyLook } from "../index.js";
import type { RecallContext } from "./context.js";

/** The commands that check freshness before they answer (see SessionsCommand.freshness). */
const CHECKING_COMMANDS = new Set(["search", "list"]);

/** Arguments after which the command will not check, or not of the default folder. */
function skipsTheCheck(argument: string): boolean {
  return (
    argument === "--no-sync" ||
    argument === "-h" ||
    argument === "--help" ||
    argument.startsWith("--sessions-dir")
  );
}

export function lookAheadFor(
  argv: readonly string[],
  context: Pick<RecallContext, "env" | "cwd">,
): EarlyLook | undefined {
  if (!CHECKING_COMMANDS.has(argv[0] ?? "") || argv.some(skipsTheCheck)) return undefined;
  try {
    return startEarlyLook({ env: context.env, cwd: context.cwd });
  } catch {
    // The command meets the same trouble (no native addon, say) and reports it properly.
    return undefined;
  }
}
