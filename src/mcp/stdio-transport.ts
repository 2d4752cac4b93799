/**
 * The server's stdio transport, on the SDK's public `Transport` interface: newline-delimited
 * JSON-RPC on stdin and stdout, as the SDK's own StdioServerTransport, but a line the server cannot
 * use never ends or silences it. Each line is judged first (json-rpc-line.ts) and answered with a
 * JSON-RPC error if it is not a valid message; a line over MAX_LINE_BYTES is not kept, only
 * skipped to its end and answered, so memory stays bounded whatever a client sends. When stdin
 * ends, every request already received is answered first (the SDK answers each one, unless the
 * client cancelled it), what was written reaches stdout, and only then does the transport close;
 * it closes at once when stdout breaks.
 */
import type { Readable, Writable } from "node:stream";
import {
  serializeMessage,
  type JSONRPCMessage,
  type Transport,
} from "@modelcontextprotocol/server";
import {
  errorResponse,
  INVALID_REQUEST,
  judgeLine,
  leadingId,
  type ErrorResponse,
} from "./json-rpc-line.js";

/** The longest line read; a request of this server is a few kilobytes. */
export const MAX_LINE_BYTES = 1024 * 1024;
/** What is kept of a longer line: enough to find the id a client usually writes first. */
const HEAD_BYTES = 256;
const NEWLINE = 0x0a;

export class LineStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** The line read so far: its chunks, or (past MAX_LINE_BYTES) only its head. */
  private chunks: Buffer[] = [];
  private bytes = 0;
  private oversized: string | undefined;
  private closed = false;
  /** stdin has ended: the transport closes once `unanswered` is empty. */
  private inputEnded = false;
  /**
   * Requests handed to the server and not answered yet, by id (a count: a client may reuse an id).
   */
  private readonly unanswered = new Map<string | number, number>();
  /** Writes stdout has not taken yet; close waits for them. */
  private readonly writing = new Set<Promise<void>>();

  constructor(
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
  ) {}

  async start(): Promise<void> {
    this.stdin.on("data", this.onData);
    this.stdin.on("error", this.onInputError);
    this.stdin.on("end", this.onEnd);
    this.stdin.on("close", this.onEnd);
    this.stdout.on("error", this.onOutputError);
    if (this.stdin.readableEnded || this.stdin.destroyed) setImmediate(this.onEnd);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    try {
      await this.write(serializeMessage(message));
    } finally {
      if (
        "id" in message &&
        ("result" in message || "error" in message) &&
        message.id !== undefined &&
        message.id !== null
      )
        this.answered(message.id);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off("data", this.onData);
    this.stdin.off("error", this.onInputError);
    this.stdin.off("end", this.onEnd);
    this.stdin.off("close", this.onEnd);
    this.stdin.pause();
    this.chunks = [];
    // What was written reaches stdout before the process may end (a late reader gets whole lines).
    await Promise.allSettled([...this.writing]);
    this.onclose?.();
  }

  /** A request on its way to the server: stdin's end waits for its answer. */
  private received(message: JSONRPCMessage): void {
    if ("method" in message && "id" in message) {
      this.unanswered.set(message.id, (this.unanswered.get(message.id) ?? 0) + 1);
    } else if ("method" in message && message.method === "notifications/cancelled") {
      // The SDK does not answer a request the client cancelled (as MCP says).
      const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if ((typeof id === "string" || typeof id === "number") && this.unanswered.has(id))
        this.answered(id);
    }
  }

  private answered(id: string | number): void {
    const count = this.unanswered.get(id);
    if (count === undefined) return;
    if (count > 1) this.unanswered.set(id, count - 1);
    else this.unanswered.delete(id);
    if (this.inputEnded && this.unanswered.size === 0) this.closeQuietly();
  }

  private readonly onData = (chunk: Buffer): void => {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      this.take(chunk.subarray(start, end));
      this.endLine();
      start = end + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start));
  };

  private take(part: Buffer): void {
    if (part.length === 0) return;
    if (this.oversized !== undefined) return;
    this.bytes += part.length;
    this.chunks.push(part);
    if (this.bytes <= MAX_LINE_BYTES) return;
    this.oversized = Buffer.concat(this.chunks).subarray(0, HEAD_BYTES).toString("utf8");
    this.chunks = [];
  }

  private endLine(): void {
    const oversized = this.oversized;
    const line = oversized === undefined ? Buffer.concat(this.chunks).toString("utf8") : "";
    this.chunks = [];
    this.bytes = 0;
    this.oversized = undefined;
    if (oversized !== undefined) {
      this.answer(
        errorResponse(
          leadingId(oversized),
          INVALID_REQUEST,
          `Invalid Request: the message is longer than ${MAX_LINE_BYTES} bytes`,
        ),
      );
      return;
    }
    const judged = judgeLine(line.endsWith("\r") ? line.slice(0, -1) : line);
    if ("message" in judged) {
      this.received(judged.message);
      this.onmessage?.(judged.message);
    } else if ("answer" in judged) this.answer(judged.answer);
  }

  private answer(response: ErrorResponse | ErrorResponse[]): void {
    this.write(`${JSON.stringify(response)}\n`).catch((error: unknown) =>
      this.onerror?.(error as Error),
    );
  }

  private write(text: string): Promise<void> {
    if (this.closed) return Promise.reject(new Error("the stdio transport is closed"));
    const written = new Promise<void>((resolve, reject) => {
      this.stdout.write(text, (error) => (error ? reject(error) : resolve()));
    });
    this.writing.add(written);
    const done = () => this.writing.delete(written);
    written.then(done, done);
    return written;
  }

  private readonly onInputError = (error: Error): void => {
    this.onerror?.(error);
  };

  private readonly onOutputError = (error: Error): void => {
    if (this.closed) return;
    this.onerror?.(error);
    this.closeQuietly();
  };

  private readonly onEnd = (): void => {
    if (this.inputEnded) return;
    this.inputEnded = true;
    // A last line without its newline is a line too.
    if (this.bytes > 0 || this.oversized !== undefined) this.endLine();
    if (this.unanswered.size === 0) this.closeQuietly();
  };

  /** Closes from an event handler: a failure to close is the output's error, reported as one. */
  private closeQuietly(): void {
    this.close().catch((error: Error) => this.onerror?.(error));
  }
}
