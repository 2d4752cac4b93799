/**
 * `recall read` of a huge session takes the memory of the page it prints, not of the session
 * (issue 20): the CLI runs with a V8 heap smaller than the file, on a session of a few hundred MB
 * written here with a few huge messages, and must print the right pages. Reading the whole tree
 * (the entries' values kept for the transcript) runs out of heap on the same file.
 */
import { spawn } from "node:child_process";
import { closeSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "../helpers/agent-dir.js";
import { jsonLines, RECALL_BIN, type CliResult } from "../helpers/run-cli.js";

const HUGE_MESSAGES = 14;
const HUGE_CHARS = 20 << 20;
/** Well under the file's size (about 280 MB), well over one huge message. */
const HEAP_MB = 160;
const ID = "01a40000-0000-7000-8000-000000000000";

let agent: AgentDir;
let path: string;

/** Message `n` of the session: huge ones start with `hugestart<n>` and end with `hugeend<n>`. */
function entry(n: number, text: string): string {
  const role = n % 2 === 0 ? "user" : "assistant";
  const content = role === "user" ? text : [{ type: "text", text }];
  const ms = Date.parse("2026-10-04T09:00:00Z") + n * 1000;
  return `${JSON.stringify({ type: "message", id: `e${n}`, parentId: n === 0 ? null : `e${n - 1}`, timestamp: new Date(ms).toISOString(), message: { role, content, timestamp: ms } })}\n`;
}

beforeAll(() => {
  agent = makeAgentDir({ withFixtures: false });
  path = join(agent.sessionsDir, `2026-10-04T09-00-00-000Z_${ID}.jsonl`);
  const fd = openSync(path, "w");
  try {
    writeSync(
      fd,
      `${JSON.stringify({ type: "session", version: 3, id: ID, timestamp: "2026-10-04T09:00:00.000Z", cwd: "/home/dev/huge" })}\n`,
    );
    const filler = "lots of words in a huge message ".repeat(HUGE_CHARS / 32);
    for (let n = 0; n < HUGE_MESSAGES; n++)
      writeSync(fd, entry(n, `hugestart${n} ${filler}hugeend${n}`));
    writeSync(fd, entry(HUGE_MESSAGES, "smallquestionword after all that"));
    writeSync(fd, entry(HUGE_MESSAGES + 1, "smallanswerword to end with"));
  } finally {
    closeSync(fd);
  }
});

afterAll(() => agent?.cleanup());

function readWithSmallHeap(args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [`--max-old-space-size=${HEAP_MB}`, RECALL_BIN, "read", path, "--json", ...args],
      { env: agent.env, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (data: Buffer) => (stdout += data.toString()));
    child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

interface Line {
  type: string;
  entryId?: string;
  text?: string;
  textOffset?: number;
  textLength?: number;
  total?: number;
  from?: number;
  nextCursor?: string | null;
}

describe(`recall read of a ${HUGE_MESSAGES} × ${HUGE_CHARS >> 20} MiB session with a ${HEAP_MB} MB heap`, () => {
  it("prints the first page, a piece of the first huge message, and the page its cursor names", async () => {
    const first = await readWithSmallHeap([]);
    expect(first.code, first.stderr).toBe(0);
    const [message, page] = jsonLines<Line>(first.stdout);
    expect(message).toMatchObject({
      type: "message",
      entryId: "e0",
      textOffset: 0,
      textLength: HUGE_CHARS + "hugestart0 hugeend0".length,
    });
    expect(message!.text!.startsWith("hugestart0 lots of words")).toBe(true);
    expect(page).toMatchObject({ type: "page", total: HUGE_MESSAGES + 2, from: 0 });

    const second = await readWithSmallHeap(["--cursor", page!.nextCursor!]);
    expect(second.code, second.stderr).toBe(0);
    const [next] = jsonLines<Line>(second.stdout);
    expect(next).toMatchObject({
      type: "message",
      entryId: "e0",
      textOffset: message!.text!.length,
    });
  }, 120_000);

  it("prints the latest messages", async () => {
    const latest = await readWithSmallHeap(["--limit", "2"]);
    expect(latest.code, latest.stderr).toBe(0);
    const lines = jsonLines<Line>(latest.stdout);
    expect(lines.map((l) => l.text)).toEqual([
      "smallquestionword after all that",
      "smallanswerword to end with",
      undefined,
    ]);
    expect(lines[2]).toMatchObject({
      type: "page",
      total: HUGE_MESSAGES + 2,
      from: HUGE_MESSAGES,
      nextCursor: null,
    });
  }, 120_000);
});
