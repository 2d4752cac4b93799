/**
 * One line of the stdio stream, judged as JSON-RPC 2.0: the message to hand to the SDK's server,
 * or the error response that answers it (-32700 for text that is not JSON, -32600 for JSON that is
 * no valid request, notification or response, or that nests deeper than MAX_DEPTH). Every line a
 * client waits on is answered: the SDK drops what it cannot parse without a word, so nothing
 * reaches it before this check.
 */
import { parseJSONRPCMessage, type JSONRPCMessage } from "@modelcontextprotocol/server";

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

type Id = string | number | null;

/**
 * The deepest nesting of objects and arrays a message may have. An MCP request nests a few
 * levels; thousands would overflow the stack of a recursive parse or check (JSON.parse's reviver,
 * the SDK's schema), which would then lose the request's id.
 */
export const MAX_DEPTH = 64;

export interface ErrorResponse {
  jsonrpc: "2.0";
  id: Id;
  error: { code: number; message: string };
}

export type Judged =
  { message: JSONRPCMessage } | { answer: ErrorResponse | ErrorResponse[] } | { ignore: true };

export function errorResponse(id: Id, code: number, message: string): ErrorResponse {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

/** The id to answer with: the message's own if it is a valid one, else null (as JSON-RPC says). */
function idOf(value: unknown): Id {
  if (typeof value !== "object" || value === null || !("id" in value)) return null;
  const id = (value as { id: unknown }).id;
  return typeof id === "string" || (typeof id === "number" && Number.isInteger(id)) ? id : null;
}

/** What is wrong with one message object, or its parse by the SDK's schema. */
function check(value: unknown): JSONRPCMessage | string {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return "a message must be a JSON object";
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== "2.0") return 'jsonrpc must be "2.0"';
  if ("method" in message) {
    if (typeof message.method !== "string") return "method must be a string";
    if (
      "params" in message &&
      (typeof message.params !== "object" ||
        message.params === null ||
        Array.isArray(message.params))
    )
      return "params must be an object";
    if ("id" in message && idOf(message) === null) return "id must be a string or an integer";
  } else if (!("id" in message) || !("result" in message || "error" in message)) {
    return "a message needs a method (a request or notification) or an id with a result or error (a response)";
  }
  try {
    return parseJSONRPCMessage(message);
  } catch {
    return "the message does not follow the MCP schema";
  }
}

function invalid(value: unknown, why: string): ErrorResponse {
  return errorResponse(idOf(value), INVALID_REQUEST, `Invalid Request: ${why}`);
}

/** One message object: the SDK's parse of it, or the error that answers it. */
function judgeOne(
  value: unknown,
  forbidden: boolean,
): { message: JSONRPCMessage } | { answer: ErrorResponse } {
  // A key named __proto__ would set an object's prototype wherever a copy assigns it.
  if (forbidden) return { answer: invalid(value, "a key named __proto__ is not accepted") };
  const checked = check(value);
  return typeof checked === "string" ? { answer: invalid(value, checked) } : { message: checked };
}

/**
 * The id of a request whose line is refused unread, if the line starts with it
 * (`{"jsonrpc":"2.0","id":7,…` or `{"id":7,…`).
 */
export function leadingId(head: string): string | number | null {
  const match =
    /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d{1,15}(?![.\deE])|"(?:[^"\\]|\\.){0,100}")/.exec(
      head,
    );
  if (!match) return null;
  try {
    return JSON.parse(match[1]!) as string | number;
  } catch {
    return null;
  }
}

/**
 * Whether the text nests objects and arrays deeper than MAX_DEPTH (brackets inside strings are
 * text).
 */
function tooDeep(line: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_DEPTH) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** A line of the stream (without its newline). */
export function judgeLine(line: string): Judged {
  if (line.trim() === "") return { ignore: true };
  if (tooDeep(line))
    return {
      answer: errorResponse(
        leadingId(line.slice(0, 256)),
        INVALID_REQUEST,
        `Invalid Request: the message nests objects and arrays deeper than ${MAX_DEPTH} levels`,
      ),
    };
  let forbidden = false;
  let value: unknown;
  try {
    value = JSON.parse(line, function (key, v: unknown) {
      if (key === "__proto__") forbidden = true;
      return v;
    });
  } catch {
    return { answer: errorResponse(null, PARSE_ERROR, "Parse error: the line is not JSON") };
  }
  if (!Array.isArray(value)) return judgeOne(value, forbidden);
  // MCP has no batches (since 2025-06-18): each element with an id is refused with it, in one batch
  // response.
  if (value.length === 0) return { answer: invalid(value, "an empty batch") };
  const why = "batches are not supported: send each message on a line of its own";
  const answers = value
    .filter((element) => idOf(element) !== null)
    .map((element) => invalid(element, why));
  return { answer: answers.length > 0 ? answers : invalid(value, why) };
}
