/**
 * The server's first index runs in the background from `initialize`: a call while it is not done
 * answers from what is indexed, flagged (`index_complete: false`) with a note saying how far
 * indexing got, instead of blocking until every file is read. The first index is held back
 * deterministically by another process holding the index's writer lock with nothing committed
 * (a builder stuck in the long first minutes of a large history); no timer is asserted.
 */
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { startSlowFirstIndex, type SlowBuilder } from "./helpers/slow-first-index.js";
import { runRecall } from "./helpers/run-cli.js";
import { watchProgress, type ProgressOnWire } from "./helpers/progress-on-wire.js";

const BIN = new URL("../bin/recall-mcp.cjs", import.meta.url).pathname;
const FIXTURE_SESSION = new URL(
  "./fixtures/agent/sessions/--home-dev-blog--/2026-09-11T09-00-00-000Z_2d9abfc1-ce2a-46a6-a446-f9bb2819c0a3.jsonl",
  import.meta.url,
).pathname;

let agent: AgentDir | undefined;
let client: Client | undefined;
let builder: SlowBuilder | undefined;
let progress: ProgressOnWire | undefined;

afterEach(async () => {
  await builder?.stop();
  await client?.close();
  agent?.cleanup();
});

async function connect(env: NodeJS.ProcessEnv): Promise<void> {
  client = new Client({ name: "recall-first-index-test", version: "1.0.0" });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "--default-scope", "all"],
    env: env as Record<string, string>,
    stderr: "pipe",
  });
  await client.connect(transport);
  progress = watchProgress(transport);
}

type Structured = Record<string, any>;
async function search(query: string): Promise<{ s: Structured; text: string; progress: number[] }> {
  progress!.take();
  // A progress token is sent only with an onprogress handler.
  const result = await client!.callTool(
    { name: "pi_session_search", arguments: { query } },
    { onprogress: () => {} },
  );
  expect(result.isError).toBeFalsy();
  const text =
    (result.content as { type: string; text?: string }[]).find((b) => b.type === "text")?.text ??
    "";
  return { s: result.structuredContent as Structured, text, progress: progress!.take() };
}

describe("recall mcp's first index", () => {
  it(
    "answers while the first index is not done, saying so, and completely once it is",
    { timeout: 120_000 },
    async () => {
      agent = makeAgentDir();
      builder = await startSlowFirstIndex(agent.env, Infinity);
      await connect(agent.env);

      const partial = await search("deploy");
      expect(partial.s.index_complete).toBe(false);
      expect(partial.s.note).toMatch(/the index is still being built .*may be incomplete/);
      expect(partial.text).toMatch(/index_complete: false/);
      expect(partial.text).toMatch(/note: .*still being built/);
      // With a progress token, the answer also reports how far indexing got.
      expect(partial.progress.length).toBeGreaterThan(0);

      await builder.stop();
      builder = undefined;
      // Calls answer at once while the index is built; the test waits for the one that says it is
      // complete however long that takes on a loaded machine (no count of tries: the test's timeout
      // is the only bound), a call at a time, each after the last answered and a pause.
      let complete = partial;
      while (!complete.s.index_complete) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        complete = await search("deploy");
      }
      expect(complete.s.note ?? "").not.toMatch(/still being built/);
      expect(complete.s.results.length).toBeGreaterThan(0);
    },
  );

  it(
    "reads and gives context of a session while another process holds the index back, without waiting for it",
    { timeout: 120_000 },
    async () => {
      agent = makeAgentDir();
      // Indexed so far: the fixtures; a new session waits behind another process that holds the
      // writer lock and never lets go (so a call that waited for the lock would never answer).
      expect((await runRecall(["index", "--quiet"], { env: agent.env })).code).toBe(0);
      writeFileSync(
        join(agent.sessionsDir, "late.jsonl"),
        readFileSync(FIXTURE_SESSION, "utf8").replace(
          /2d9abfc1-ce2a-46a6-a446-f9bb2819c0a3/g,
          "3e8bbcd2-df3b-47b7-b557-0aac3920d1b4",
        ),
      );
      builder = await startSlowFirstIndex(agent.env, Infinity);
      await connect(agent.env);
      const found = await search("deploy");
      const sessionRef = found.s.results[0].session_ref as string;
      const read = await client!.callTool({
        name: "pi_session_read",
        arguments: { session_ref: sessionRef },
      });
      expect(read.isError).toBeFalsy();
      expect(JSON.stringify(read.structuredContent)).toMatch(/deploy/);
      const context = await client!.callTool({
        name: "pi_session_context",
        arguments: { session_ref: sessionRef, question: "deploy" },
      });
      expect(context.isError).toBeFalsy();
      expect(JSON.stringify(context.structuredContent)).toMatch(/deploy/);
    },
  );

  it("on a small history, the first call waits for the first index and answers completely", async () => {
    agent = makeAgentDir();
    await connect(agent.env);
    const first = await search("deploy");
    expect(first.s.index_complete).toBe(true);
    expect(first.s.results.length).toBeGreaterThan(0);
  });
});
