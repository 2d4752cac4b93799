/**
 * `match` in the pi_session_search tool, through the MCP server (the Pi extension's tool reads the
 * same semantics, api/session-tools/session-query.ts): "meaning" finds a session by a paraphrase
 * once `recall index --meaning` has run; without the model package it is a tool error naming it,
 * and a match the tool does not know is an invalid argument. Model tests skip, visibly, without
 * the package.
 */
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { MODEL_PACKAGE, MODEL_SKIP_REASON } from "./helpers/model-package.js";
import { runRecall } from "./helpers/run-cli.js";

const BIN = new URL("../bin/recall-mcp.cjs", import.meta.url).pathname;

let agent: AgentDir;
let client: Client | undefined;

async function search(env: NodeJS.ProcessEnv, args: Record<string, unknown>) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "--default-scope", "all"], env: env as Record<string, string>, stderr: "pipe" });
  client = new Client({ name: "recall-test", version: "1.0.0" });
  await client.connect(transport);
  const result = await client.callTool({ name: "pi_session_search", arguments: args });
  return { isError: result.isError === true, s: result.structuredContent as Record<string, any> };
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
    expect(meaning.s).toMatchObject({ error: { code: "INVALID_ARGUMENT", message: expect.stringContaining("recall-pi-model-minilm") } });
    await client!.close();
    expect((await search(agent.env, { query: "deploy", match: "vibes" })).isError).toBe(true);
  });

  it.skipIf(!MODEL_PACKAGE)(`"meaning" finds a session by a paraphrase that shares none of its words${MODEL_SKIP_REASON}`, async () => {
    const env = { ...agent.env, RECALL_MODEL_DIR: MODEL_PACKAGE };
    expect((await runRecall(["index", "--meaning", "-q"], { env, timeoutMs: 120_000 })).code).toBe(0);
    const found = await search(env, { query: "the rollout to the pre-production cluster never finished", match: "meaning", limit: 3 });
    expect(found.isError).toBe(false);
    expect(found.s.results[0]).toMatchObject({ title: "Fix staging deploy: readiness probe and nginx ingress", matched_words: [] });
  }, 120_000);
});
