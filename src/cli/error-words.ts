/**
 * The library's errors in the command line's words: an option named as the library names it
 * (`maxChars`) becomes its flag (`--max-chars`), and what to do is said in flags too.
 */
import type { RecallError } from "../index.js";
import { shellLine } from "../output/shell.js";

/** The library's option names and the flags that set them. */
const FLAGS: Record<string, string> = {
  maxChars: "--max-chars",
  cursor: "--cursor",
  mode: "--mode",
  allBranches: "--all-branches",
  limit: "--limit",
};

const START_AGAIN = "start again without --cursor";

export function cliMessage(error: RecallError): string {
  switch (error.code) {
    case "BAD_CURSOR":
      return "this is not a cursor printed by `recall read` (was it cut short when copied?)";
    case "STALE_CURSOR":
      return `${error.message}; ${START_AGAIN}`;
    case "CURSOR_MISMATCH":
      if (error.field === "mode") return `this cursor continues a --mode ${error.value} listing; drop --mode or ${START_AGAIN}`;
      if (error.field === "allBranches") {
        return `this cursor continues a listing ${error.value === "true" ? "with" : "without"} --all-branches; drop that option or ${START_AGAIN}`;
      }
      return error.message;
    case "FOLDER_GONE":
      return `${error.message}; ${(error.hint ?? "").replace("fork it", `run \`${shellLine(["pi", "--fork", error.value ?? ""])}\``)}`;
    default: {
      const flag = error.field === undefined ? undefined : FLAGS[error.field];
      const message = flag && error.message.startsWith(`${error.field} `) ? `${flag}${error.message.slice(error.field!.length)}` : error.message;
      return error.hint ? `${message}; ${error.hint}` : message;
    }
  }
}
