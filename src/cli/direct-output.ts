/**
 * Standard output and error without Node's streams for them: creating `process.stdout` costs a
 * few milliseconds (for a pipe it loads the net module), a good part of a short command. Writes
 * go straight to the file descriptor, synchronously, as Node's own stdout does for files and
 * terminals. If the reader of a non-blocking pipe falls behind (EAGAIN), that write and every
 * later one go through Node's stream, which waits for the reader. A reader that went away
 * (EPIPE, `recall search x | head -1`) ends the process with exit 0.
 *
 * A batched output (stdout that is not a terminal, as C's stdio does) gathers what one turn of the
 * event loop writes and writes it when the turn ends: one system call for a page of results rather
 * than one a line (~0.8 ms of a cold `recall search`), and still each event as it comes for
 * `recall watch`, which writes one a turn.
 */
import { writeSync } from "node:fs";
import type { Writable } from "node:stream";

/** A batch larger than this is written at once rather than at the end of the turn. */
const BATCH_BYTES = 1 << 16;

export class DirectOutput {
  /** Every output made, for `allWritten`. */
  private static readonly made: DirectOutput[] = [];

  /**
   * Writes what every output has gathered, and tells whether all that was written has left the
   * process: false while a write waits in Node's stream for a slow reader.
   */
  static allWritten(): boolean {
    return DirectOutput.made.every((output) => output.flush() && !output.stream?.writableLength);
  }

  private stream: (NodeJS.WritableStream & { writableLength?: number }) | undefined;
  private batch: Buffer[] = [];
  private batchBytes = 0;
  private flushScheduled = false;
  private flushedAtExit = false;

  /** `nodeStream` gives Node's stream for the same descriptor (process.stdout for 1). */
  constructor(
    private readonly fd: number,
    private readonly nodeStream: () => NodeJS.WritableStream,
    private readonly batched = false,
  ) {
    DirectOutput.made.push(this);
  }

  write(chunk: string | Uint8Array): boolean {
    if (!this.batched) return this.writeNow(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
    // A copy: the caller may reuse its buffer.
    const bytes = Buffer.from(chunk);
    this.batch.push(bytes);
    this.batchBytes += bytes.length;
    if (this.batchBytes >= BATCH_BYTES) return this.flush();
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
    if (!this.flushedAtExit) {
      this.flushedAtExit = true;
      // A process that exits before the turn ends (process.exit) still writes what it gathered.
      process.once("exit", () => this.flush());
    }
    return true;
  }

  /** Writes what the batch holds now. */
  flush(): boolean {
    this.flushScheduled = false;
    if (this.batch.length === 0) return true;
    const bytes =
      this.batch.length === 1 ? this.batch[0]! : Buffer.concat(this.batch, this.batchBytes);
    this.batch = [];
    this.batchBytes = 0;
    return this.writeNow(bytes);
  }

  private writeNow(bytes: Uint8Array): boolean {
    if (this.stream) return this.stream.write(bytes);
    let written = 0;
    try {
      while (written < bytes.length) written += writeSync(this.fd, bytes, written);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EPIPE") process.exit(0);
      if (code !== "EAGAIN") throw error;
      this.stream = this.nodeStream();
      this.stream.on("error", (streamError: NodeJS.ErrnoException) => {
        if (streamError.code === "EPIPE") process.exit(0);
        throw streamError;
      });
      return this.stream.write(bytes.subarray(written));
    }
  }

  /** What clipanion's context asks for; only `write` is ever called. */
  asWritable(): Writable {
    return this as unknown as Writable;
  }
}
