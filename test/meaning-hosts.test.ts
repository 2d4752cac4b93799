/**
 * The meaning index built in the background by the long-lived hosts, with no `recall index
 * --meaning`: the MCP server from its start and after each sync that changes the index, the Pi
 * extension (the real Pi 1.6.0, in RPC mode) from a session's start, and the library's
 * `followMeaning` under them, which stops with `close()`. Each waits for the meaning index to
 * cover the conversation, as another process sees it. Skipped, visibly, without the model package
 * (and the Pi test without the Pi runtime).
 */
import { spawn } from "node:child_process";
import { appendFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Recall, type MeaningCoverage } from "../src/index.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { MODEL_PACKAGE, MODEL_SKIP_REASON } from "./helpers/model-package.js";
import { makePiHome, PI_RUNTIME, PI_SKIP_REASON, type PiRuntime } from "./helpers/pi-env.js";

const BIN = new URL("../bin/recall-mcp.cjs", import.meta.url).pathname;

/** The meaning index's coverage as another process reads it: the index as committed, no sync. */
async function coverage(env: NodeJS.ProcessEnv): Promise<MeaningCoverage> {
  const reader = Recall.open({ env });
  try {
    return (await reader.meaning.coverage())!;
  } finally {
    reader.close();
  }
}

/**
 * Waits until the meaning index covers every message of the index, and more than `after` of them.
 */
async function untilCovered(env: NodeJS.ProcessEnv, after = 0): Promise<MeaningCoverage> {
  const deadline = Date.now() + 100_000;
  for (;;) {
    const now = await coverage(env);
    if (now.messages > after && now.embedded === now.messages) return now;
    if (Date.now() > deadline)
      throw new Error(`the meaning index covers ${now.embedded} of ${now.messages} messages`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A message appended to a session file, as Pi appends one. */
function appendMessage(file: string, text: string): void {
  const at = "2026-10-05T10:00:00.000Z";
  appendFileSync(
    file,
    `${JSON.stringify({ type: "message", id: "f0f0f0f0", parentId: null, timestamp: at, message: { role: "user", content: text, timestamp: Date.parse(at) } })}\n`,
  );
}

function firstSessionFile(sessionsDir: string): string {
  const file = readdirSync(sessionsDir, { recursive: true, encoding: "utf8" }).find((p) =>
    p.endsWith(".jsonl"),
  )!;
  return join(sessionsDir, file);
}

describe.skipIf(!MODEL_PACKAGE)(
  `the meaning index built by long-lived hosts${MODEL_SKIP_REASON}`,
  () => {
    let agent: AgentDir;
    let env: NodeJS.ProcessEnv;
    let client: Client | undefined;
    beforeEach(() => {
      agent = makeAgentDir();
      env = { ...agent.env, RECALL_MODEL_DIR: MODEL_PACKAGE };
    });
    afterEach(async () => {
      await client?.close();
      client = undefined;
      agent.cleanup();
    });

    it("the MCP server builds it from its start, then embeds what a sync adds", async () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [BIN, "--default-scope", "all"],
        env: env as Record<string, string>,
        stderr: "pipe",
      });
      let stderr = "";
      transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
      client = new Client({ name: "recall-test", version: "1.0.0" });
      await client.connect(transport);
      const first = await untilCovered(env);
      expect(first.messages).toBeGreaterThan(10);

      appendMessage(
        firstSessionFile(agent.sessionsDir),
        "The quokka exporter kept leaking sockets until the pool was capped",
      );
      // A query syncs first; the sync changed the index, so the meaning index follows it.
      const found = await client.callTool({
        name: "pi_session_search",
        arguments: { query: "quokka" },
      });
      expect((found.structuredContent as { results: unknown[] }).results).toHaveLength(1);
      const after = await untilCovered(env, first.messages);
      expect(after.messages).toBe(first.messages + 1);
      const byMeaning = await client.callTool({
        name: "pi_session_search",
        arguments: {
          query: "a connection leak in the metrics shipper",
          match: "meaning",
          limit: 1,
        },
      });
      expect(byMeaning.isError).not.toBe(true);
      expect(stderr).not.toMatch(/meaning index could not/);
    }, 180_000);

    it("Recall.followMeaning does nothing without the model package, and close() stops it", async () => {
      const without = Recall.open({ env: agent.env, background: true });
      expect(without.meaning.follow()).toBe(false);
      without.close();
      const recall = Recall.open({ env, background: true });
      const failures: unknown[] = [];
      expect(recall.meaning.follow((error) => failures.push(error))).toBe(true);
      await recall.sync();
      await untilCovered(env);
      recall.close();
      // Closed: a change is no longer followed.
      const before = await coverage(env);
      appendMessage(
        firstSessionFile(agent.sessionsDir),
        "The narwhal cache warmed itself twice on every deploy",
      );
      const other = Recall.open({ env });
      await other.sync();
      other.close();
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const later = await coverage(env);
      expect(later).toEqual({ embedded: before.embedded, messages: before.messages + 1 });
      expect(failures).toEqual([]);
    }, 180_000);
  },
);

describe.skipIf(!MODEL_PACKAGE || !PI_RUNTIME)(
  `the meaning index built by the Pi extension${MODEL_SKIP_REASON || PI_SKIP_REASON}`,
  () => {
    it("starts with a Pi session and covers the conversation, with no recall command run", async () => {
      const runtime = PI_RUNTIME as PiRuntime;
      const home = makePiHome();
      const env = { ...home.env, RECALL_MODEL_DIR: MODEL_PACKAGE };
      const pi = spawn(
        runtime.node,
        [runtime.cli, "-e", home.pkg, "--mode", "rpc", "--no-session"],
        { env, cwd: home.projects["shop-api"], stdio: ["pipe", "pipe", "pipe"] },
      );
      try {
        const covered = await untilCovered(env);
        expect(covered.messages).toBeGreaterThan(10);
      } finally {
        pi.kill("SIGTERM");
        home.cleanup();
      }
    }, 180_000);
  },
);
