/**
 * `match` in the pi_session_search tool, through the MCP server (the Pi extension's tool reads the
 * same semantics, api/session-tools/session-query.ts): "meaning" finds a session by a paraphrase
 * once `recall index --meaning` has run; without the model package it is a tool error naming it,
 * and a match the tool does not know is an invalid argument. Model tests skip, visibly, without
 * the package.
 */
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { MODEL_PACKAGE, MODEL_SKIP_REASON } from "./helpers/model-package.js";
import { runRecall } from "./helpers/run-cli.js";

const BIN = new URL("../bin/recall-mcp.cjs", import.meta.url).pathname;

let agent: AgentDir;
let client: Client | undefined;

async function connect(env: NodeJS.ProcessEnv): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "--default-scope", "all"],
    env: env as Record<string, string>,
    stderr: "pipe",
  });
  client = new Client({ name: "recall-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

async function call(name: string, args: Record<string, unknown>) {
  const result = await client!.callTool({ name, arguments: args });
  const [content] = result.content as { type: string; text: string }[];
  return {
    isError: result.isError === true,
    s: result.structuredContent as Record<string, any>,
    text: content!.text,
  };
}

async function search(env: NodeJS.ProcessEnv, args: Record<string, unknown>) {
  await connect(env);
  return call("pi_session_search", args);
}

/**
 * Another process building the meaning index: it holds the meaning index's writer lock (flock)
 * until released.
 */
async function holdMeaningLock(env: NodeJS.ProcessEnv): Promise<() => Promise<void>> {
  const folder = join(env.PI_CODING_AGENT_DIR!, "cache", "recall", "meaning");
  mkdirSync(folder, { recursive: true });
  const holder = spawn("flock", [join(folder, "writer.lock"), "-c", "echo held; cat"], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  await new Promise<void>((resolve) => holder.stdout.once("data", () => resolve()));
  return async () => {
    holder.stdin.end();
    await new Promise((resolve) => holder.on("close", resolve));
  };
}

beforeEach(() => {
  agent = makeAgentDir();
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  agent.cleanup();
});

describe("pi_session_search with match", () => {
  it("without the model package, is a tool error that names it; an unknown match is refused", async () => {
    const meaning = await search(agent.env, { query: "deploy", match: "meaning" });
    expect(meaning.isError).toBe(true);
    expect(meaning.s).toMatchObject({
      error: {
        code: "INVALID_ARGUMENT",
        message: expect.stringContaining("recall-pi-model-minilm"),
      },
    });
    await client!.close();
    expect((await search(agent.env, { query: "deploy", match: "vibes" })).isError).toBe(true);
  });

  it.skipIf(!MODEL_PACKAGE)(
    `"meaning" finds a session by a paraphrase that shares none of its words${MODEL_SKIP_REASON}`,
    async () => {
      const env = { ...agent.env, RECALL_MODEL_DIR: MODEL_PACKAGE };
      expect(
        (await runRecall(["index", "--meaning", "-q"], { env, timeoutMs: 120_000 })).code,
      ).toBe(0);
      const found = await search(env, {
        query: "the rollout to the pre-production cluster never finished",
        match: "meaning",
        limit: 3,
      });
      expect(found.isError).toBe(false);
      expect(found.s.results[0]).toMatchObject({
        title: "Fix staging deploy: readiness probe and nginx ingress",
        matched_words: [],
        matched_by: "meaning",
      });
    },
    120_000,
  );

  it.skipIf(!MODEL_PACKAGE)(
    `says while the meaning index is incomplete: index_complete false, its coverage, a note; each result says what found it${MODEL_SKIP_REASON}`,
    async () => {
      const env = { ...agent.env, RECALL_MODEL_DIR: MODEL_PACKAGE };
      // Another process is building the meaning index and has embedded nothing yet: the server
      // leaves the build to it.
      const release = await holdMeaningLock(env);
      try {
        const partial = await search(env, { query: "staging deploy" });
        expect(partial.isError).toBe(false);
        expect(partial.s.index_complete).toBe(false);
        expect(partial.s.meaning_coverage).toEqual({ embedded: 0, messages: expect.any(Number) });
        expect(partial.s.meaning_coverage.messages).toBeGreaterThan(0);
        expect(partial.s.note).toMatch(/the meaning index covers 0 of \d+ messages searched/);
        expect(partial.text).toMatch(/index_complete: false, meaning_coverage: 0 of \d+ messages/);
        expect(partial.s.results.length).toBeGreaterThan(0);
        for (const result of partial.s.results) expect(result.matched_by).toBe("words");
        const related = await call("pi_session_related", {
          session_ref: partial.s.results[0].session_ref,
        });
        expect(related.s.meaning_coverage).toMatchObject({ embedded: 0 });
        // One word is the words' alone: the meaning index has no part in it, so nothing is said.
        const oneWord = await search(env, { query: "deploy" });
        expect(oneWord.s.index_complete).toBe(true);
        expect(oneWord.s.note ?? "").not.toMatch(/meaning index/);
        expect(oneWord.s.results.length).toBeGreaterThan(0);
      } finally {
        await release();
        await client?.close();
      }
      expect(
        (await runRecall(["index", "--meaning", "-q"], { env, timeoutMs: 120_000 })).code,
      ).toBe(0);
      // A session is said found by both when the words hold it and it is near enough in meaning
      // that the meaning alone would list it (MEANING_FLOOR).
      const complete = await search(env, { query: "staging deploy readiness probe" });
      expect(complete.s.index_complete).toBe(true);
      expect(complete.s.note ?? "").not.toMatch(/meaning index/);
      expect(complete.s.meaning_coverage.embedded).toBe(complete.s.meaning_coverage.messages);
      expect(complete.s.results.map((r: { matched_by: string }) => r.matched_by)).toContain("both");
      expect(complete.text).toMatch(/matched_by: both/);
    },
    180_000,
  );

  it("pi_session_related's description says the meaning model takes part where it is installed", async () => {
    await connect(agent.env);
    const { tools } = await client!.listTools();
    const related = tools.find((tool) => tool.name === "pi_session_related")!;
    expect(related.description).not.toMatch(/no model/i);
    expect(related.description).toMatch(/meaning model is installed, by meaning/);
  });
});
