// The CLI writes straight to its file descriptors (src/cli/direct-output.ts). When the descriptor
// is a non-blocking pipe whose reader falls behind, the writes must go on through Node's stream,
// every byte and in order.
import { execFileSync, spawnSync } from "node:child_process";
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync } from "node:fs";
import { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { DirectOutput } from "../src/cli/direct-output.js";

let folder: string | undefined;
afterEach(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** Reads a non-blocking descriptor until every writer has closed it. */
async function drain(fd: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const buffer = Buffer.alloc(1 << 16);
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, buffer);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
      await sleep(5);
      continue;
    }
    if (n === 0) return Buffer.concat(chunks);
    chunks.push(Buffer.from(buffer.subarray(0, n)));
  }
}

describe("DirectOutput", () => {
  it.each([
    ["line by line", false],
    ["batched", true],
  ])(
    "hands a full non-blocking pipe to Node's stream and loses nothing (%s)",
    async (_label, batched) => {
      folder = mkdtempSync(join(tmpdir(), "recall-output-"));
      const fifo = join(folder, "out.fifo");
      execFileSync("mkfifo", [fifo]);
      const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
      const writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
      let fellBack = false;
      let socket: Socket | undefined;
      const output = new DirectOutput(
        writer,
        () => {
          fellBack = true;
          socket = new Socket({ fd: writer, readable: false, writable: true });
          return socket;
        },
        batched,
      );
      // Far more than a pipe holds (64 KiB), in lines that can be told apart.
      const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i} of a long answer\n`);
      for (const line of lines) output.write(line);
      output.flush();
      expect(fellBack).toBe(true);
      const closed = new Promise<void>((resolve) => socket!.end(() => resolve()));
      const received = await drain(reader);
      await closed;
      closeSync(reader);
      expect(received.toString("utf8")).toBe(lines.join(""));
    },
  );

  it("when batched, writes what a turn of the event loop wrote once the turn ends", async () => {
    folder = mkdtempSync(join(tmpdir(), "recall-output-"));
    const fifo = join(folder, "out.fifo");
    execFileSync("mkfifo", [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    const output = new DirectOutput(writer, () => process.stdout, true);
    const buffer = Buffer.alloc(1024);
    const readNow = (): string => {
      try {
        return buffer.toString("utf8", 0, readSync(reader, buffer));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EAGAIN") return "";
        throw error;
      }
    };
    output.write("first\n");
    output.write(Buffer.from("second\n"));
    expect(readNow()).toBe("");
    await new Promise((resolve) => setImmediate(resolve));
    expect(readNow()).toBe("first\nsecond\n");
    output.write("third\n");
    await new Promise((resolve) => setImmediate(resolve));
    expect(readNow()).toBe("third\n");
    closeSync(writer);
    closeSync(reader);
  });

  it("when batched, still writes what it gathered if the process exits in the same turn", () => {
    const module = new URL("../dist/cli/direct-output.js", import.meta.url).href;
    const script = `const { DirectOutput } = await import(${JSON.stringify(module)});
      const output = new DirectOutput(1, () => process.stdout, true);
      output.write("gathered\\n");
      process.exit(3);`;
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
    });
    expect(child.stderr).toBe("");
    expect(child.stdout).toBe("gathered\n");
    expect(child.status).toBe(3);
  });
});
