/** The context of a command run from this process: its streams, environment and folder. */
import type { Readable } from "node:stream";
import type { RecallContext } from "./context.js";
import { DirectOutput } from "./direct-output.js";
import { isTerminal } from "../index.js";

/**
 * process.stdin, created when first read: creating it costs milliseconds (on a terminal it loads
 * tty and net), and only `-` arguments read it. Not a getter: clipanion copies the context with a
 * spread, which would call it. Only async iteration is offered, which is all recall uses.
 */
function lazyStdin(): Readable {
  const iterable: AsyncIterable<Buffer | string> = {
    [Symbol.asyncIterator]: () => process.stdin[Symbol.asyncIterator](),
  };
  return iterable as Readable;
}

export function defaultContext(): RecallContext {
  const stdoutIsTTY = isTerminal(1);
  return {
    stdin: lazyStdin(),
    // A terminal shows each line as it is written; a pipe or a file gets a turn's lines at once.
    stdout: new DirectOutput(1, () => process.stdout, !stdoutIsTTY).asWritable(),
    stderr: new DirectOutput(2, () => process.stderr).asWritable(),
    env: process.env,
    cwd: process.cwd(),
    stdoutIsTTY,
    stderrIsTTY: isTerminal(2),
    colorDepth: 1,
  };
}
