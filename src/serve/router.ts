/**
 * The server's routes: a method and a path pattern each, matched in order, and what an answer
 * is (JSON, a page or a file, an error). A handler gets the path's parameters and the query.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { RecallError, type RecallErrorCode } from "../index.js";
import type { ErrorAnswer } from "./wire.js";

export interface Request {
  url: URL;
  params: Record<string, string>;
  raw: IncomingMessage;
  /** The JSON body of a change (at most 64 KiB). */
  json(): Promise<unknown>;
}

export type Answer =
  | { kind: "json"; value: unknown; status?: number }
  | { kind: "body"; body: string | Buffer; type: string; headers?: Record<string, string> }
  /** A handler that writes the response itself (the live feed). */
  | { kind: "held" };

export type Handler = (request: Request, response: ServerResponse) => Promise<Answer> | Answer;

interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
}

const MAX_BODY = 64 * 1024;

export class Router {
  private readonly routes: Route[] = [];

  on(method: string, path: string, handler: Handler): this {
    // `:name` is one path segment.
    const pattern = new RegExp(`^${path.replace(/:([a-z]+)/gi, "(?<$1>[^/]+)")}$`);
    this.routes.push({ method, pattern, handler });
    return this;
  }

  /** The answer of the route that matches, or null when none does. */
  async answer(raw: IncomingMessage, url: URL, response: ServerResponse): Promise<Answer | null> {
    for (const route of this.routes) {
      const found = route.pattern.exec(url.pathname);
      if (
        !found ||
        (route.method !== raw.method && !(route.method === "GET" && raw.method === "HEAD"))
      )
        continue;
      const params: Record<string, string> = {};
      for (const [name, value] of Object.entries(found.groups ?? {}))
        params[name] = decodeURIComponent(value);
      return route.handler({ url, params, raw, json: () => readJson(raw) }, response);
    }
    return null;
  }
}

async function readJson(raw: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of raw as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new RecallError("BAD_INPUT", "the request's body is over 64 KiB");
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new RecallError("BAD_INPUT", "the request's body is not JSON");
  }
}

/** The HTTP status of a library error. */
const STATUS: Partial<Record<RecallErrorCode, number>> = {
  BAD_INPUT: 400,
  BAD_CURSOR: 400,
  CURSOR_MISMATCH: 400,
  AMBIGUOUS: 400,
  NOT_FOUND: 404,
  UNSAFE_FILE: 403,
  FILE_TOO_LARGE: 413,
  STALE_CURSOR: 409,
  SESSION_REPLACED: 409,
  FOLDER_GONE: 409,
  MODEL_UNAVAILABLE: 400,
  REMOTE_UNAVAILABLE: 502,
  LOCKED: 503,
};

export function errorAnswer(error: unknown): { status: number; body: ErrorAnswer } {
  if (error instanceof RecallError)
    return { status: STATUS[error.code] ?? 500, body: { error: error.message, code: error.code } };
  return {
    status: 500,
    body: { error: error instanceof Error ? error.message : String(error), code: "INTERNAL" },
  };
}
