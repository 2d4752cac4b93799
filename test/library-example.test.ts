/**
 * The library, used as an adapter uses it — the example ARCHITECTURE.md walks through, run
 * against a copy of the fixture sessions. Every call here goes through src/index.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_LIMIT, Recall, RecallError } from "../src/index.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";

const STAGING = "01a0f6b1-2680-79e3-a1fa-30b6f0582ef5";

describe("the library, from open to read", () => {
  let agent: AgentDir;
  let recall: Recall;

  beforeAll(() => {
    agent = makeAgentDir();
  });
  afterAll(() => {
    recall?.close();
    agent.cleanup();
  });

  it("opens a sessions folder without touching it", () => {
    // Where Pi keeps its sessions is Pi's business: the same environment, the same folder.
    recall = Recall.open({ env: agent.env, cwd: agent.root });
    expect(recall.locations.sessionsDir).toBe(agent.sessionsDir);
    expect(recall.takeNotices()).toEqual([]);
  });

  it("syncs: the first time reads every session file", async () => {
    const report = await recall.sync();
    expect(report.indexed).toBeGreaterThan(5);
    expect(report.changed).toBe(true);
    // A second sync costs a stat per file and finds nothing to do.
    expect((await recall.sync()).changed).toBe(false);
  });

  it("stops a sync when asked, keeping what it read, and the next one goes on from there", async () => {
    const fresh = Recall.open({
      env: { ...agent.env, RECALL_CACHE_DIR: `${agent.root}/other-cache` },
      cwd: agent.root,
    });
    const stop = new AbortController();
    const first = await fresh.sync({
      signal: stop.signal,
      onProgress: (p) => p.filesDone === 2 && stop.abort(),
    });
    expect(first).toMatchObject({ stopped: true, indexed: 2 });
    const rest = await fresh.sync();
    expect(rest.stopped).toBe(false);
    expect(rest.indexed + first.indexed).toBe((await recall.sync({ rebuild: true })).indexed);
    fresh.close();
  });

  it("searches: the best session first, with the message that matched", async () => {
    const page = await recall.search({ query: "staging deploy", limit: 3 });
    const [best] = page.hits;
    expect(best!.id).toBe(STAGING);
    expect(best!.message?.role).toMatch(/user|assistant/);
    expect(best!.snippet.toLowerCase()).toContain("staging");
  });

  it("pages through results with the cursor each page ends with", async () => {
    const everything = await recall.search({ query: "the", limit: 50 });
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await recall.search({ query: "the", limit: 2, ...(cursor ? { cursor } : {}) });
      seen.push(...page.hits.map((h) => h.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(everything.hits.map((h) => h.id));
    expect(seen.length).toBeGreaterThan(2);
    // A cursor belongs to its search.
    const first = await recall.search({ query: "the", limit: 2 });
    await expect(
      recall.search({ query: "deploy", limit: 2, cursor: first.nextCursor! }),
    ).rejects.toMatchObject({ code: "CURSOR_MISMATCH" });
  });

  it("refuses a limit past MAX_LIMIT with a RecallError instead of trying it", async () => {
    for (const call of [
      () => recall.search({ query: "deploy", limit: MAX_LIMIT + 1 }),
      () => recall.list({ limit: 100_000_000 }),
    ]) {
      await expect(call()).rejects.toMatchObject({
        name: "RecallError",
        code: "BAD_INPUT",
        field: "limit",
      });
    }
    expect(
      (await recall.search({ query: "deploy", limit: MAX_LIMIT })).hits.length,
    ).toBeGreaterThan(0);
  });

  it("lists the latest sessions for an empty query", async () => {
    const listed = await recall.list({ limit: 5 });
    const searched = await recall.search({ query: "", limit: 5 });
    expect(searched.hits.map((h) => h.id)).toEqual(listed.map((s) => s.id));
  });

  it("names a session the way people do, and reads it a page at a time", async () => {
    const session = await recall.resolve(STAGING.slice(0, 8));
    expect(session.id).toBe(STAGING);
    const summary = await recall.get(session);
    expect(summary.messageCount).toBeGreaterThan(0);
    const { messages, page } = await recall.read(session, { limit: 2 });
    expect(messages).toHaveLength(2);
    expect(page.total).toBeGreaterThanOrEqual(2);
  });

  it("answers a focused question from one session, without a model", async () => {
    const { messages, summary } = await recall.context(STAGING, "readiness probe");
    expect(summary.matched).toBeGreaterThan(0);
    expect(messages.some((m) => m.text.toLowerCase().includes("readiness"))).toBe(true);
  });

  it("tags sessions, and a #tag query finds them", async () => {
    const session = await recall.resolve(STAGING);
    const edit = await recall.tags.add([session], ["#K8s"]);
    expect(edit.sessions[0]!.tags).toEqual(["k8s"]);
    const { hits } = await recall.search({ query: "#k8s" });
    expect(hits.map((h) => h.id)).toEqual([STAGING]);
    expect(await recall.tags.of(session)).toMatchObject({ manual: ["k8s"] });
    expect((await recall.tags.counts()).find((c) => c.tag === "k8s")).toMatchObject({
      sessions: 1,
    });
    expect((await recall.tags.untagged()).map((s) => s.id)).not.toContain(STAGING);
  });

  it("keeps the team archives behind recall.archive: none configured, none listed", () => {
    expect(recall.archive.remotes()).toEqual([]);
  });

  it("speaks in codes an adapter can word for its users", async () => {
    const error = await recall.resolve("ffffffff").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RecallError);
    expect(error).toMatchObject({ code: "NOT_FOUND" });
    const short = await recall.read(STAGING, { maxChars: 5 }).catch((e: unknown) => e);
    expect(short).toMatchObject({ code: "BAD_INPUT", field: "maxChars" });
  });
});
