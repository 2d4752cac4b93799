/**
 * The `recall` tool's results: its details, its defaults, an answer framed as historical data and
 * capped, a failure.
 */
import { capOutput, HISTORICAL_DATA_NOTE } from "./format.js";

export interface RecallToolDetails {
  action: string;
  /** Sessions or messages returned. */
  count: number;
  truncated: boolean;
}

export const DEFAULT_SEARCH_LIMIT = 10;
export const DEFAULT_READ_LIMIT = 20;
/** Characters of message text a read asks for; the output cap cuts further if needed. */
export const READ_MAX_CHARS = 60_000;

export type ToolResult = {
  content: { type: "text"; text: string }[];
  details: RecallToolDetails;
  isError?: boolean;
};

export function result(action: string, lines: string[], count: number, hint: string): ToolResult {
  const capped = capOutput([HISTORICAL_DATA_NOTE, "", ...lines], hint);
  return {
    content: [{ type: "text", text: capped.text }],
    details: { action, count, truncated: capped.truncated },
  };
}

export function failure(action: string, text: string): ToolResult {
  return {
    content: [{ type: "text", text }],
    details: { action, count: 0, truncated: false },
    isError: true,
  };
}
