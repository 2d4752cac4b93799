/**
 * The library's errors, problems and fixes in the command line's words: an option named as the
 * library names it (`maxChars`) becomes its flag (`--max-chars`), and what to do is said in flags
 * and commands too.
 */
import {
  MODEL_PACKAGE_NAME,
  RECALL_VERSION,
  type DoctorFix,
  type RecallError,
  type SessionsFolderProblem,
  type SessionsSource,
} from "../index.js";
import { shellLine, shellQuote } from "../output/shell.js";

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
      if (error.field === "mode")
        return `this cursor continues a --mode ${error.value} listing; drop --mode or ${START_AGAIN}`;
      if (error.field === "allBranches") {
        return `this cursor continues a listing ${error.value === "true" ? "with" : "without"} --all-branches; drop that option or ${START_AGAIN}`;
      }
      return error.message;
    case "FOLDER_GONE":
      return `${error.message}; ${(error.hint ?? "").replace("fork it", `run \`${shellLine(["pi", "--fork", error.value ?? ""])}\``)}`;
    default: {
      // No remote at all (the library names none by an empty value): the command that adds one.
      if (error.field === "remote" && error.value === "")
        return `${error.message}; add one with \`recall remote add NAME URL\``;
      const flag = error.field === undefined ? undefined : FLAGS[error.field];
      const message =
        flag && error.message.startsWith(`${error.field} `)
          ? `${flag}${error.message.slice(error.field!.length)}`
          : error.message;
      return error.hint ? `${message}; ${error.hint}` : message;
    }
  }
}

/** A setting that chose the sessions folder, as a user sets it on the command line. */
function settingWords(from: SessionsSource): string {
  return from === "sessionsDir" ? "--sessions-dir" : from;
}

/** What is wrong with the sessions folder, naming the setting that chose it as the user set it. */
export function sessionsFolderMessage(problem: SessionsFolderProblem): string {
  const setBy = `set by ${settingWords(problem.from)}`;
  switch (problem.kind) {
    case "none-yet":
      return problem.message;
    case "missing":
      return `there is no sessions folder at ${problem.sessionsDir} (${setBy})`;
    case "not-a-folder":
      return `the sessions folder ${problem.sessionsDir} (${setBy}) is a file, not a folder`;
  }
}

const quoted = (paths: string[]) => paths.map(shellQuote).join(" ");

/** A doctor's fix as what to run or do. */
export function doctorFixWords(fix: DoctorFix): string {
  switch (fix.kind) {
    case "sync":
      return "recall index";
    case "rebuild":
      return "recall index --rebuild";
    case "sessions-setting":
      if (fix.from === "sessionsDir")
        return "give --sessions-dir the folder Pi writes its sessions to";
      if (fix.from.startsWith("sessionDir in "))
        return `correct sessionDir (or remove it): $EDITOR ${shellQuote(fix.from.slice("sessionDir in ".length))}`;
      if (fix.from === "PI_CODING_AGENT_DIR")
        return "set PI_CODING_AGENT_DIR to Pi's agent folder (~/.pi/agent), or unset it";
      return `set ${fix.from} to the folder Pi writes its sessions to, or unset it`;
    case "allow-read":
      return fix.othersOwn
        ? `sudo chown "$(id -u)" ${quoted(fix.paths)} && chmod u+rX ${quoted(fix.paths)}`
        : `chmod u+rX ${quoted(fix.paths)}`;
    case "move-out":
      return `move ${quoted(fix.paths)} out of ${shellQuote(fix.folder)}: recall cannot read them`;
    case "cache-unwritable":
      return `make ${shellQuote(fix.path)} writable, or set RECALL_CACHE_DIR to a folder that is; then recall index`;
    case "recover-tags": {
      const recovered = `${fix.path}.recovered`;
      return `sqlite3 ${shellQuote(fix.path)} .recover | sqlite3 ${shellQuote(recovered)} && mv ${quoted([recovered, fix.path])}`;
    }
    case "restore-tags":
      return `mv ${quoted([fix.path, fix.aside])} && touch ${shellQuote(fix.path)}  # the next search takes back the tags the index holds`;
    case "edit":
      return `$EDITOR ${shellQuote(fix.path)}`;
    case "remove":
      return `rm ${shellQuote(fix.path)}`;
    case "reinstall-model":
      return fix.fromEnv
        ? "set RECALL_MODEL_DIR to a folder holding the model package (model.onnx, tokenizer.json), or unset it"
        : `npm install -g ${MODEL_PACKAGE_NAME}@${RECALL_VERSION}`;
    case "embed":
      return "recall index --meaning";
  }
}
