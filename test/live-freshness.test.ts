/**
 * The freshness of a long-lived host (`Recall.open({ live: true })`, src/sync/live-freshness.ts):
 * after a sync the watches say "fresh" until a session file, a project folder or the tag data
 * changes, and say so at once, with no wait; without a sessions folder to watch they cannot say.
 */
import { appendFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Recall } from "../src/index.js";
import type { IndexStore } from "../src/store.js";
import { LiveFreshness } from "../src/sync/live-freshness.js";
import { syncIndex } from "../src/sync/sync.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { openRecall } from "./helpers/open-store.js";

const S1 =
  "--home-dev-shop-api--/2026-10-01T09-00-00-000Z_01a0f6b1-2680-79e3-a1fa-30b6f0582ef5.jsonl";

let agent: AgentDir;
let live: LiveFreshness | undefined;
afterEach(() => {
  live?.close();
  live = undefined;
  agent?.cleanup();
});

function userMessage(id: string, text: string): string {
  const ms = Date.parse("2026-11-02T00:00:00Z");
  return `${JSON.stringify({ type: "message", id, parentId: null, timestamp: new Date(ms).toISOString(), message: { role: "user", content: text, timestamp: ms } })}\n`;
}

/** A sync as the facade runs one for a live host: marked before it looks at any file. */
async function syncMarked(freshness: LiveFreshness, store: IndexStore): Promise<void> {
  const mark = freshness.syncing(store);
  const report = await syncIndex(store);
  expect(report.busy).toBe(false);
  freshness.synced(mark);
}

describe("live freshness", () => {
  it("is fresh after a sync, and changed at once by an append, a new file in a new folder, a removal or a tag edit", async () => {
    agent = makeAgentDir();
    const store = await openRecall({ env: agent.env });
    live = new LiveFreshness(store.locations);
    expect(await live.state(store)).toBe("changed");
    await syncMarked(live, store);
    expect(await live.state(store)).toBe("fresh");
    // Still fresh when asked again: neither a sync nor a look at the state is a change.
    expect(await live.state(store)).toBe("fresh");

    appendFileSync(join(agent.sessionsDir, S1), userMessage("f0000001", "liveappendword"));
    expect(await live.state(store)).toBe("changed");
    await syncMarked(live, store);
    expect(await live.state(store)).toBe("fresh");

    const folder = join(agent.sessionsDir, "--home-dev-live--");
    mkdirSync(folder);
    writeFileSync(
      join(folder, "2026-11-01T00-00-00-000Z_live-session.jsonl"),
      `${JSON.stringify({ type: "session", version: 3, id: "live-session", timestamp: "2026-11-01T00:00:00.000Z", cwd: "/home/dev/live" })}\n`,
    );
    expect(await live.state(store)).toBe("changed");
    await syncMarked(live, store);
    // The new folder is watched from then on.
    appendFileSync(
      join(folder, "2026-11-01T00-00-00-000Z_live-session.jsonl"),
      userMessage("f0000002", "livenewfolderword"),
    );
    expect(await live.state(store)).toBe("changed");
    await syncMarked(live, store);

    rmSync(join(agent.sessionsDir, S1));
    expect(await live.state(store)).toBe("changed");
    await syncMarked(live, store);
    expect(await live.state(store)).toBe("fresh");

    // A tag edit by another process is in the tag database, not in a session folder.
    const other = Recall.open({ env: agent.env });
    await other.tags.add([await other.resolve("live-session")], ["livetag"]);
    other.close();
    expect(await live.state(store)).toBe("changed");
  });

  it("counts a change made while a sync runs against that sync", async () => {
    agent = makeAgentDir();
    const store = await openRecall({ env: agent.env });
    live = new LiveFreshness(store.locations);
    const mark = live.syncing(store);
    appendFileSync(join(agent.sessionsDir, S1), userMessage("f0000003", "duringsyncword"));
    await syncIndex(store);
    live.synced(mark);
    expect(await live.state(store)).toBe("changed");
  });

  it("cannot say without a sessions folder to watch, and watches it once it is there", async () => {
    agent = makeAgentDir();
    const moved = `${agent.sessionsDir}-away`;
    renameSync(agent.sessionsDir, moved);
    const store = await openRecall({ env: agent.env });
    live = new LiveFreshness(store.locations);
    await syncMarked(live, store);
    expect(await live.state(store)).toBe("unknown");
    renameSync(moved, agent.sessionsDir);
    // The next sync sets the watches up before it looks at the files.
    await syncMarked(live, store);
    expect(await live.state(store)).toBe("fresh");
  });

  it("as the Pi extension opens it: what this process has just written (Pi's own session) is in the next search", async () => {
    agent = makeAgentDir();
    const recall = Recall.open({ env: agent.env, cwd: agent.root, background: true, live: true });
    try {
      expect((await recall.search({ query: "deploy" })).hits).not.toEqual([]);
      for (let round = 0; round < 5; round++) {
        appendFileSync(
          join(agent.sessionsDir, S1),
          userMessage(`e000000${round}`, `ownwriteround${round}word`),
        );
        expect(
          (await recall.search({ query: `ownwriteround${round}word` })).hits.map((h) => h.id),
        ).toEqual(["01a0f6b1-2680-79e3-a1fa-30b6f0582ef5"]);
      }
      rmSync(join(agent.sessionsDir, S1));
      expect((await recall.search({ query: "ownwriteround4word" })).hits).toEqual([]);
    } finally {
      recall.close();
    }
  });

  it("a search of tool output sees what another process indexed since (the depth index is read again too)", async () => {
    agent = makeAgentDir();
    const host = Recall.open({ env: agent.env, cwd: agent.root, live: true });
    try {
      // Opens the depth index (thinking, calls, output) in this process.
      expect(
        (await host.search({ query: "quuxtooloutput", content: ["outputs"] })).hits,
      ).not.toEqual([]);
      const output = {
        type: "message",
        id: "f0000009",
        parentId: null,
        timestamp: "2026-11-02T00:00:00.000Z",
        message: {
          role: "toolResult",
          toolCallId: "x1",
          toolName: "bash",
          content: [{ type: "text", text: "otherprocessoutputword" }],
          isError: false,
          timestamp: Date.parse("2026-11-02T00:00:00Z"),
        },
      };
      appendFileSync(join(agent.sessionsDir, S1), `${JSON.stringify(output)}\n`);
      const other = Recall.open({ env: agent.env });
      await other.sync();
      other.close();
      expect(
        (await host.search({ query: "otherprocessoutputword", content: ["outputs"] })).hits.map(
          (h) => h.id,
        ),
      ).toEqual(["01a0f6b1-2680-79e3-a1fa-30b6f0582ef5"]);
    } finally {
      host.close();
    }
  });

  it("is changed for another index in the cache folder's place", async () => {
    agent = makeAgentDir();
    const store = await openRecall({ env: agent.env });
    live = new LiveFreshness(store.locations);
    await syncMarked(live, store);
    expect(await live.state(await openRecall({ env: agent.env }))).toBe("changed");
  });
});
