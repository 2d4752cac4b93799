/**
 * A query while another process builds the index from scratch (issue 20): it answers from what
 * that process has committed, or waits a bounded time for its first commit, and never says "no
 * session matches" only because nothing is committed yet. The builder is a real process holding
 * the writer lock on an empty index (helpers/slow-first-index.ts), longer than a query waits
 * for the lock.
 */
import { afterEach, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "../helpers/agent-dir.js";
import { jsonLines, runRecall } from "../helpers/run-cli.js";
import { startSlowFirstIndex } from "../helpers/slow-first-index.js";

let agent: AgentDir | undefined;
afterEach(() => agent?.cleanup());

describe("a query while another process builds the index from scratch", () => {
  it("waits for that process's first commit and answers from it", async () => {
    agent = makeAgentDir();
    // Longer than the 5 s a search waits for the writer lock: before, it then answered from the
    // empty index, "no session matches", exit 1.
    const builder = await startSlowFirstIndex(agent.env, 7_000);
    const [search, list] = await Promise.all([
      runRecall(["search", "migration", "--json"], { env: agent.env, timeoutMs: 60_000 }),
      runRecall(["list", "--json"], { env: agent.env, timeoutMs: 60_000 }),
    ]);
    expect(await builder.done).toBe(0);
    expect(search.stderr).not.toMatch(/no session matches/);
    expect(search.code).toBe(0);
    expect(jsonLines(search.stdout).length).toBeGreaterThan(0);
    expect(list.code).toBe(0);
    expect(jsonLines(list.stdout)).toHaveLength(10);
  }, 90_000);

  it("says the index is still being built when nothing is committed within the wait", async () => {
    agent = makeAgentDir();
    const builder = await startSlowFirstIndex(agent.env, Infinity);
    try {
      const search = await runRecall(["search", "migration"], {
        env: agent.env,
        timeoutMs: 60_000,
      });
      expect(search.timedOut).toBeUndefined();
      expect(search.code).toBe(2);
      expect(search.stdout).toBe("");
      expect(search.stderr).toMatch(
        /^recall: another recall process is building the index in .* and has not committed any session yet; try again in a moment\n$/,
      );
    } finally {
      await builder.stop();
    }
  }, 90_000);

  it("a builder that lets go of the lock without committing leaves the query to index and answer itself", async () => {
    agent = makeAgentDir();
    const builder = await startSlowFirstIndex(agent.env, Infinity);
    const searching = runRecall(["search", "migration", "--json"], {
      env: agent.env,
      timeoutMs: 60_000,
    });
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    await builder.stop();
    const search = await searching;
    expect(search.code).toBe(0);
    expect(jsonLines(search.stdout).length).toBeGreaterThan(0);
  }, 90_000);
});
