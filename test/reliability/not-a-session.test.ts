/**
 * A file named by path that is not a Pi session (no session header, as Pi requires of the files
 * it opens) is an error for every command that reads a session, not an empty session.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "../helpers/agent-dir.js";
import { runRecall } from "../helpers/run-cli.js";

let agent: AgentDir;
beforeAll(() => {
  agent = makeAgentDir();
});
afterAll(() => agent.cleanup());

describe("a file that is not a Pi session", () => {
  it("is refused by read, context and resume in one line, exit 2", async () => {
    const log = join(agent.root, "app-log.jsonl");
    writeFileSync(log, '{"level":"info","msg":"started"}\n{"level":"warn","msg":"slow"}\n');
    const text = join(agent.root, "passwd");
    writeFileSync(
      text,
      "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n",
    );
    const empty = join(agent.root, "empty.jsonl");
    writeFileSync(empty, "");
    for (const path of [text, log, empty]) {
      for (const args of [
        ["read", path],
        ["read", path, "--json"],
        ["context", path, "deploy"],
        ["resume", path],
      ]) {
        const result = await runRecall(args, { env: agent.env });
        expect(result, args.join(" ")).toMatchObject({
          code: 2,
          stdout: "",
          stderr: `recall: ${path} is not a Pi session: it does not start with a session header\n`,
        });
      }
    }
  });

  it("while a session file given by path still reads, also one outside the sessions folder", async () => {
    const outside = join(agent.root, "copied.jsonl");
    const at = "2026-10-01T09:00:00.000Z";
    writeFileSync(
      outside,
      [
        {
          type: "session",
          version: 3,
          id: "0b0b0b0b-0000-7000-8000-000000000001",
          timestamp: at,
          cwd: "/home/dev/x",
        },
        {
          type: "message",
          id: "u1",
          parentId: null,
          timestamp: at,
          message: { role: "user", content: "copiedsessionword", timestamp: 0 },
        },
      ]
        .map((line) => JSON.stringify(line))
        .join("\n") + "\n",
    );
    const result = await runRecall(["read", outside], { env: agent.env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("copiedsessionword");
  });
});
