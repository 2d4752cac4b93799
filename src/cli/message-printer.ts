/** How `read` and `context` print one message for a person: a header line, then the text. */
import type { Paint } from "../output/paint.js";
import { terminalText } from "../output/terminal-text.js";

export interface PrintableMessage {
  role: string;
  /** ISO 8601 */
  timestamp: string;
  entryId: string;
  text: string;
  branch?: "active" | "abandoned";
  toolName?: string;
  isError?: boolean;
}

/** Local time to the minute: `2026-10-01 10:02`. */
function localMinute(isoTime: string): string {
  const d = new Date(isoTime);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * `notes` are shown after the header (for example that the text is cut); `mark` styles the text
 * (marks words), after it was made safe for the terminal.
 */
export function messageLines(
  paint: Paint,
  message: PrintableMessage,
  notes: string[] = [],
  mark: (text: string) => string = (text) => text,
): string[] {
  const role = terminalText(
    message.toolName ? `${message.role} ${message.toolName}` : message.role,
  );
  const marks = [...notes];
  if (message.isError) marks.unshift(paint.red("error"));
  if (message.branch === "abandoned") marks.unshift(paint.yellow("abandoned branch"));
  const details = [localMinute(message.timestamp), terminalText(message.entryId), ...marks].join(
    " · ",
  );
  return [
    `${paint.dim("──")} ${paint.bold(role)} ${paint.dim(`· ${details}`)}`,
    mark(terminalText(message.text, { lines: true }).trimEnd()),
    "",
  ];
}
