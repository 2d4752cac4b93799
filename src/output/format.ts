/**
 * Machine-readable ways to print sessions, for pipelines (`--format`):
 * - `json`: one JSON object per session (JSON Lines);
 * - `tsv`: one session per line: id, project folder, age, title, snippet, path — tabs, newlines and
 *   backslashes inside a field escaped as `\t`, `\n`, `\r`, `\\`, so fzf and awk can split on tabs,
 *   and other control characters shown as terminal-text.ts shows them (fzf --ansi would act on them);
 * - `path`: the session file's path only.
 * With `-0/--null` each record ends with a NUL byte instead of a newline.
 */
import { basename } from "node:path";
import { formatAge } from "./age.js";
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
  return text.replace(/[\\\t\n\r]/g, (ch) => ({ "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" })[ch]!);
}

/** What a session is called in a list: its name, else its first message, on one line. */
export function sessionTitle(session: Pick<PrintableSession, "name" | "firstMessage">): string {
  return (session.name || session.firstMessage || "(no title)").replace(/\s+/g, " ").trim();
}

export function projectFolder(cwd: string): string {
  return cwd ? basename(cwd) : "(unknown folder)";
}

export function formatRecord(session: PrintableSession, format: OutputFormat, now: number): string {
  switch (format) {
    case "json":
      return JSON.stringify(session);
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
