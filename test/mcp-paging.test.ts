/**
 * Paging through pi_session_search to the end, as an agent does, on a static corpus of a few
 * hundred generated sessions where common words fill many messages of some sessions: every page
 * follows from the one before (no STALE_CURSOR while nothing changed), no session comes twice, none
 * is lost, and the pages together are the sessions, in the order, that one library search with a
 * limit large enough for all of them gives.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Recall } from "../src/index.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";

const BIN = new URL("../bin/recall-mcp.cjs", import.meta.url).pathname;
const SESSIONS = 320;
const WORDS = ["the", "node", "function", "error", "deploy"];
const FILLER = [
  "alpha",
  "bravo",
  "charlie",
  "delta",
  "echo",
  "foxtrot",
  "golf",
  "hotel",
  "india",
  "juliet",
];

/** A deterministic corpus: session i has 1 to 4 messages, every eleventh 80; words chosen by i. */
function writeCorpus(sessionsDir: string): void {
  const day = Date.parse("2026-06-01T00:00:00Z");
  for (let i = 0; i < SESSIONS; i++) {
    const project = `/home/dev/p${i % 7}`;
    const folder = join(sessionsDir, `--home-dev-p${i % 7}--`);
    mkdirSync(folder, { recursive: true });
    const id = `0000${i.toString(16).padStart(4, "0")}-0000-7000-8000-${i.toString(16).padStart(12, "0")}`;
    const start = day + i * 3_600_000;
    const lines = [
      { type: "session", version: 3, id, timestamp: new Date(start).toISOString(), cwd: project },
    ];
    const messages = i % 11 === 0 ? 80 : 1 + (i % 4);
    let parent: string | null = null;
    for (let m = 0; m < messages; m++) {
      const words = [
        FILLER[(i + m) % FILLER.length],
        ...WORDS.filter((_, w) => (i * 7 + m * 3 + w) % (w + 2) === 0),
        FILLER[(i * 3 + m) % FILLER.length],
      ];
      const entry = `${i.toString(16).padStart(4, "0")}${m.toString(16).padStart(4, "0")}`;
      const ms = start + m * 60_000;
      lines.push({
        type: "message",
        id: entry,
        parentId: parent,
        timestamp: new Date(ms).toISOString(),
        message: {
          role: m % 2 === 0 ? "user" : "assistant",
          content:
            m % 2 === 0
              ? `${words.join(" ")} ${i}`
              : [{ type: "text", text: `${words.join(" ")} ${i}` }],
          timestamp: ms,
        },
      } as never);
      parent = entry;
    }
    writeFileSync(
      join(folder, `${new Date(start).toISOString().replace(/[:.]/g, "-")}_${id}.jsonl`),
      lines.map((l) => JSON.stringify(l)).join("\n") + "\n",
    );
  }
}

let agent: AgentDir;
let client: Client;
const expected = new Map<string, string[]>();

beforeAll(async () => {
  agent = makeAgentDir({ withFixtures: false });
  writeCorpus(agent.sessionsDir);
  const recall = Recall.open({ env: agent.env });
  await recall.sync();
  for (const word of WORDS)
    expected.set(
      word,
      (await recall.search({ query: word, limit: 5_000, sync: false })).hits.map((hit) => hit.id),
    );
  recall.close();
  client = new Client({ name: "recall-paging-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "--default-scope", "all"],
      env: agent.env as Record<string, string>,
      stderr: "pipe",
    }),
  );
}, 180_000);
afterAll(async () => {
  await client?.close();
  agent?.cleanup();
});

type Structured = Record<string, any>;

/** Every page of a search, to the end; fails on an error page or a page that repeats a session. */
async function pageToEnd(query: string, limit: number): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 1_000; page++) {
    const result = await client.callTool({
      name: "pi_session_search",
      arguments: { query, limit, ...(cursor ? { cursor } : {}) },
    });
    const s = result.structuredContent as Structured;
    expect(result.isError, `${query}, page ${page + 1}: ${JSON.stringify(s)}`).toBeFalsy();
    expect(s.index_complete).toBe(true);
    seen.push(...s.results.map((r: Structured) => r.session_id));
    if (!s.has_more) return seen;
    expect(s.results).toHaveLength(limit);
    cursor = s.next_cursor;
  }
  throw new Error("more than 1,000 pages");
}

describe("pi_session_search pages to the end", () => {
  it("the corpus makes common words fill many messages: each word matches most sessions", () => {
    for (const word of WORDS)
      expect(expected.get(word)!.length, word).toBeGreaterThan(SESSIONS / 4);
  });

  for (const word of WORDS) {
    it(
      `"${word}": every session once, as one large library search orders them`,
      { timeout: 120_000 },
      async () => {
        const all = await pageToEnd(word, 25);
        expect(new Set(all).size).toBe(all.length);
        expect(all).toEqual(expected.get(word));
      },
    );
  }

  it("with an odd page size too", { timeout: 120_000 }, async () => {
    const all = await pageToEnd("the", 7);
    expect(all).toEqual(expected.get("the"));
  });
});
