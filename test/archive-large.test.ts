/**
 * One session file too large for a JavaScript string among others, pushed to a real OpenSearch
 * (scripts/opensearch.sh) by a remote that keeps files: it is reported and skipped, and every
 * file after it is still pushed (the push reads files as the sync's consumer, push-sink.ts). The
 * file is sparse: 600 MB of it take no disk. Peak memory on a large session is measured in
 * bench/memory.mjs, not here.
 */
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { engineApi, needsOpenSearch, openSearchMissing, openSearchUrl } from "./helpers/opensearch.js";
import { jsonLines, runRecall } from "./helpers/run-cli.js";

const INDEX = "recall-large-test";
const HUGE_ID = "00000000-1111-7222-8333-944445555666";
/** More characters than a JavaScript string may hold (V8: 2^29 - 24). */
const HUGE_BYTES = 600 << 20;

let url = "";
let agent: AgentDir;
let huge = "";

const api = (path: string, init?: { method?: string; body?: unknown }) => engineApi(url, path, init);

async function sessionsIn(index: string): Promise<Set<string>> {
  await api(`/${index}/_refresh`, { method: "POST" });
  const found = await api(`/${index}/_search`, { body: { size: 1000, _source: ["session_id"], query: { match_all: {} } } });
  return new Set((found.hits?.hits ?? []).map((h: any) => h._source.session_id));
}

describe.skipIf(openSearchMissing)(needsOpenSearch("a session file too large for a string, pushed to a real OpenSearch"), () => {
  beforeAll(async () => {
    url = await openSearchUrl();
    agent = makeAgentDir();
    // Listed first (the folder sorts before the fixtures'): a header, a line of 600 MB, a message.
    const folder = join(agent.sessionsDir, "--aaa--");
    mkdirSync(folder, { recursive: true });
    huge = join(folder, `2020-01-01T00-00-00-000Z_${HUGE_ID}.jsonl`);
    const at = Date.parse("2020-01-01T00:00:00Z");
    const fd = openSync(huge, "w");
    writeSync(fd, `${JSON.stringify({ type: "session", version: 3, id: HUGE_ID, timestamp: new Date(at).toISOString(), cwd: "/home/dev/aaa" })}\n`);
    // The hole: bytes never written read as zeros.
    const message = `\n${JSON.stringify({ type: "message", id: "a0000001", parentId: null, timestamp: new Date(at).toISOString(), message: { role: "user", content: "the huge session", timestamp: at } })}\n`;
    writeSync(fd, message, HUGE_BYTES);
    closeSync(fd);
    const added = await runRecall(["remote", "add", "team", url, "--index", INDEX, "--keep-files", "--machine", "laptop", "--user", "ada"], { env: agent.env });
    expect(added.stderr).toBe("");
  }, 300_000);
  afterAll(() => agent?.cleanup());

  it("is reported and skipped, in a dry run and a push, and the files after it still go", async () => {
    const dry = await runRecall(["push", "--remote", "team", "--dry-run", "--json"], { env: agent.env });
    expect(dry.stderr.trim().split("\n")).toEqual([expect.stringMatching(new RegExp(`^recall: ${huge}: too large to keep in remote team \\(601 MB; at most 48 MB\\)$`))]);
    expect(dry.code).toBe(2);
    const drySummary = jsonLines(dry.stdout).at(-1)!;
    expect(drySummary.sessions).toBeGreaterThan(5);

    const push = await runRecall(["push", "--remote", "team", "--json"], { env: agent.env });
    expect(push.stderr.trim().split("\n")).toEqual([expect.stringMatching(/too large to keep in remote team/)]);
    expect(push.code).toBe(2);
    const summary = jsonLines(push.stdout).at(-1)!;
    expect(summary).toMatchObject({ sessions: drySummary.sessions, messages: drySummary.messages, failed: [{ path: huge, reason: expect.stringMatching(/too large to keep/) }] });
    // Every other session is in the archive, and kept; the huge one's message went, its file did not.
    const archived = await sessionsIn(INDEX);
    const kept = await sessionsIn(`${INDEX}-files`);
    expect(archived.size).toBeGreaterThan(5);
    expect(archived).toContain(HUGE_ID);
    expect(kept).not.toContain(HUGE_ID);
    expect([...archived].filter((id) => id !== HUGE_ID && !kept.has(id))).toEqual([]);
  });
});
