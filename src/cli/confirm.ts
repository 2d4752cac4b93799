/**
 * A yes/no question to the person at the terminal, before work that may cost them something. The
 * answer is read from the terminal itself (/dev/tty), so it works when stdin carries session ids.
 */
import { closeSync, openSync, readSync } from "node:fs";

/** True for "y"/"yes"; false for anything else; undefined when there is no terminal to ask. */
export function confirm(question: string, stderr: NodeJS.WritableStream): boolean | undefined {
  let fd: number;
  try {
    fd = openSync("/dev/tty", "r");
  } catch {
    return undefined;
  }
  try {
    stderr.write(`${question} [y/N] `);
    const buffer = Buffer.alloc(256);
    let line = "";
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      line += buffer.subarray(0, read).toString("utf8");
      if (line.includes("\n")) break;
    }
    return /^\s*y(es)?\s*$/i.test(line.split("\n")[0]!);
  } finally {
    closeSync(fd);
  }
}
