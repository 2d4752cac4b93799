/**
 * Standard output and error without Node's streams for them: creating `process.stdout` costs a
 * few milliseconds (for a pipe it loads the net module), a good part of a short command. Writes
 * go straight to the file descriptor, synchronously, as Node's own stdout does for files and
 * terminals. If the reader of a non-blocking pipe falls behind (EAGAIN), that write and every
 * later one go through Node's stream, which waits for the reader. A reader that went away
 * (EPIPE, `recall search x | head -1`) ends the process with exit 0.
 */
import { fstatSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import type { Writable } from "node:stream";
import { nativeModule } from "../native/binding.js";

export class DirectOutput {
  private stream: NodeJS.WritableStream | undefined;

  /** `nodeStream` gives Node's stream for the same descriptor (process.stdout for 1). */
  constructor(
    private readonly fd: number,
    private readonly nodeStream: () => NodeJS.WritableStream,
  ) {}

  write(chunk: string | Uint8Array): boolean {
    if (this.stream) return this.stream.write(chunk);
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
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

/**
 * Whether the descriptor is a terminal, without creating Node's stream or loading its tty module
 * (which loads net and streams: ~4 ms): only a character device can be one (a terminal, or
 * /dev/null), and for those the search core answers. Without a loadable search core, tty does.
 */
export function isTerminal(fd: 1 | 2): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  try {
    return nativeModule().isTerminal(fd);
  } catch {
    return (createRequire(import.meta.url)("node:tty") as typeof import("node:tty")).isatty(fd);
  }
}
