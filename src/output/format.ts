/**
 * Machine-readable ways to print sessions, for pipelines (`--format`):
 * - `json`: one JSON object per session (JSON Lines; the records are in src/cli/wire.ts);
 * - `tsv`: one session per line: id, project folder, age, title, snippet, path — tabs, newlines and
 *   backslashes inside a field escaped as `\t`, `\n`, `\r`, `\\`, so fzf and awk can split on tabs,
 *   and other control characters shown as terminal-text.ts shows them (fzf --ansi would act on
 *   them);
 * - `path`: the session file's path only.
 * With `-0/--null` each record ends with a NUL byte instead of a newline.
 */
import { formatAge } from "./age.js";
import { projectFolder, sessionTitle } from "./session-text.js";
import { terminalText } from "./terminal-text.js";

export type OutputFormat = "json" | "tsv" | "path";
export const OUTPUT_FORMATS: readonly OutputFormat[] = ["json", "tsv", "path"];

export interface PrintableSession {
  id: string;
  path: string;
  cwd: string;
  name: string | null;
  firstMessage: string;
  modified: string;
  snippet?: string;
}

export function escapeTsvField(text: string): string {
  return text.replace(
    /[\\\t\n\r]/g,
    (ch) => ({ "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" })[ch]!,
  );
}

/** A session as one line of text (`json` lines are the CLI's wire records). */
export function formatRecord(
  session: PrintableSession,
  format: Exclude<OutputFormat, "json">,
  now: number,
): string {
  switch (format) {
    case "path":
      return session.path;
    case "tsv":
      return [
        session.id,
        projectFolder(session.cwd),
        formatAge(Date.parse(session.modified), now),
        sessionTitle(session),
        (session.snippet ?? "").replace(/\s+/g, " ").trim(),
        session.path,
      ]
        .map((field) => terminalText(escapeTsvField(field)))
        .join("\t");
  }
}
