/**
 * Files that are not session files, given where a session is expected: a FIFO, a device, a
 * folder. Each is refused at once with one line naming it (reading a FIFO or /dev/zero used to
 * wait forever). And a file where recall's data folder should be.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "../helpers/agent-dir.js";
import { runRecall } from "../helpers/run-cli.js";

/** Long enough for a cold start on a busy machine; a hang goes on forever. */
const HANG_MS = 10_000;

let dir: AgentDir;
beforeEach(() => {
  dir = makeAgentDir();
});
afterEach(() => dir.cleanup());

function fifo(): string {
  const path = join(dir.root, "pipe.jsonl");
  execFileSync("mkfifo", [path]);
  return path;
}

function folder(): string {
  const path = join(dir.root, "folder.jsonl");
  mkdirSync(path);
  return path;
}

function aSession(): string {
  const project = join(dir.sessionsDir, readdirSync(dir.sessionsDir)[0]!);
  return join(project, readdirSync(project)[0]!);
}

describe("a session that is not a regular file", () => {
  const commands: [string, (path: string) => string[]][] = [
    ["read", (p) => ["read", p]],
    ["context", (p) => ["context", p, "deploy"]],
    ["tag", (p) => ["tag", p, "wip"]],
    ["tags", (p) => ["tags", p]],
    ["resume --print", (p) => ["resume", "--print", p]],
  ];

  for (const [name, args] of commands) {
    it(`${name} refuses a FIFO at once`, async () => {
      const path = fifo();
      const result = await runRecall(args(path), { env: dir.env, timeoutMs: HANG_MS });
      expect(result.timedOut).toBeUndefined();
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `recall: ${path} is not a regular file (a FIFO); a session is a .jsonl file\n`,
      );
    });

    it(`${name} refuses a folder with a clear line`, async () => {
      const path = folder();
      const result = await runRecall(args(path), { env: dir.env, timeoutMs: HANG_MS });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`recall: ${path} is a folder, not a session file\n`);
    });
  }

  it("read refuses /dev/zero at once", async () => {
    const result = await runRecall(["read", "/dev/zero"], { env: dir.env, timeoutMs: HANG_MS });
    expect(result.timedOut).toBeUndefined();
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "recall: /dev/zero is not a regular file (a character device); a session is a .jsonl file\n",
    );
  });

  it("read goes on with the other sessions after a bad one", async () => {
    const result = await runRecall(["read", fifo(), aSession()], {
      env: dir.env,
      timeoutMs: HANG_MS,
    });
    expect(result.timedOut).toBeUndefined();
    expect(result.code).toBe(2);
    expect(result.stdout).not.toBe("");
  });

  it("a FIFO among the session files is passed over by a sync, as a folder named *.jsonl is", async () => {
    const path = join(
      dir.sessionsDir,
      readdirSync(dir.sessionsDir)[0]!,
      "2026-11-01T00-00-00-000Z_0190aaaa-0000-7000-8000-000000000000.jsonl",
    );
    execFileSync("mkfifo", [path]);
    const result = await runRecall(["index"], { env: dir.env, timeoutMs: HANG_MS });
    expect(result.timedOut).toBeUndefined();
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/ 0 failed /);
  });
});

describe("a file where a folder should be", () => {
  it("RECALL_DATA_DIR naming a file: tag says so", async () => {
    const file = join(dir.root, "not-a-folder");
    writeFileSync(file, "");
    const result = await runRecall(["tag", aSession(), "wip"], {
      env: { ...dir.env, RECALL_DATA_DIR: file },
      timeoutMs: HANG_MS,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^recall: .*${file} is a file, not a folder`));
    expect(result.stderr).not.toContain("internal error");
  });

  it("~/.pi/agent/recall being a file: tag says so", async () => {
    writeFileSync(join(dir.agentDir, "recall"), "");
    const result = await runRecall(["tag", aSession(), "wip"], {
      env: dir.env,
      timeoutMs: HANG_MS,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(`^recall: .*${join(dir.agentDir, "recall")} is a file, not a folder`),
    );
  });
});
