import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { openRecall } from "./helpers/open-store.js";
import type { IndexStore } from "../src/store.js";
import { searchSessions } from "../src/api/search.js";
import { startEarlyLook } from "../src/sessions/discover.js";
import { readWhileSyncing, syncIndex } from "../src/sync/sync.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { userMessage } from "./helpers/fixture-files.js";
import { holdWriterLock } from "./helpers/lock-holder.js";

let agent: AgentDir;
afterEach(() => agent?.cleanup());

const open = () => openRecall({ env: agent.env });
const ids = async (query: string, store?: IndexStore) =>
  (await searchSessions(store ?? (await open()), { query, limit: 50 })).map((h) => h.id);
const S1 =
  "--home-dev-shop-api--/2026-10-01T09-00-00-000Z_01a0f6b1-2680-79e3-a1fa-30b6f0582ef5.jsonl";
const S1_ID = "01a0f6b1-2680-79e3-a1fa-30b6f0582ef5";
const S3_ID = "01a0f71f-0380-71ce-a5f6-9af2c7be0ad4";

describe("sync", () => {
  it("indexes every session file, then costs nothing when nothing changed", async () => {
    agent = makeAgentDir();
    const first = await syncIndex(await open());
    expect(first).toMatchObject({
      discovered: 11,
      indexed: 11,
      appended: 0,
      removed: 0,
      failed: [],
    });
    expect(first.malformedLines).toBe(2);
    const second = await syncIndex(await open());
    expect(second).toMatchObject({ discovered: 11, indexed: 0, unchanged: 11 });
  });

  it("with nothing changed, writes nothing: no commit, no tag database", async () => {
    agent = makeAgentDir();
    const store = await open();
    await syncIndex(store);
    const meta = join(store.locations.cacheDir, "index", "meta.json");
    const committed = readFileSync(meta, "utf8");
    expect(await syncIndex(await open())).toMatchObject({
      unchanged: 11,
      rebuilt: false,
      indexed: 0,
      appended: 0,
    });
    expect(readFileSync(meta, "utf8")).toBe(committed);
    expect(existsSync(join(store.locations.dataDir, "tags.db"))).toBe(false);
    appendFileSync(
      join(agent.sessionsDir, S1),
      userMessage("c0000009", "afterquietword", Date.parse("2026-11-02T00:00:00Z")),
    );
    expect(await syncIndex(await open())).toMatchObject({
      appended: 1,
      indexed: 0,
      unchanged: 10,
      rebuilt: false,
    });
    expect(await ids("afterquietword")).toEqual([S1_ID]);
  });

  it("reads session files without changing their access time, so `recall watch` does not hear of its own reads", async () => {
    agent = makeAgentDir();
    const file = join(agent.sessionsDir, S1);
    // An access time before the last change: a plain read would move it (relatime).
    const { mtime } = statSync(file);
    utimesSync(file, new Date(mtime.getTime() - 60_000), mtime);
    const before = statSync(file).atimeMs;
    expect(await syncIndex(await open())).toMatchObject({ indexed: 11 });
    expect(statSync(file).atimeMs).toBe(before);
  });

  it("reads while it checks freshness, and reads again only when the check found something to sync", async () => {
    agent = makeAgentDir();
    const store = await open();
    await syncIndex(store);
    let reads = 0;
    const read = () => {
      reads++;
      return ids("overlapword", store);
    };
    expect(await readWhileSyncing(store, read)).toMatchObject({
      value: [],
      report: { unchanged: 11 },
    });
    expect(reads).toBe(1);
    appendFileSync(
      join(agent.sessionsDir, S1),
      userMessage("c0000010", "overlapword", Date.parse("2026-11-02T00:00:00Z")),
    );
    expect(await readWhileSyncing(store, read)).toMatchObject({
      value: [S1_ID],
      report: { appended: 1 },
    });
    expect(reads).toBe(3);
  });

  it("takes a look at the files started early for its own freshness check, once", async () => {
    agent = makeAgentDir();
    const store = await open();
    await syncIndex(store);
    const early = startEarlyLook(store.locations);
    // The look has long finished (11 files) when the file grows: the check reports what it saw.
    await new Promise((resolve) => setTimeout(resolve, 300));
    appendFileSync(
      join(agent.sessionsDir, S1),
      userMessage("c0000011", "earlyword", Date.parse("2026-11-02T00:00:00Z")),
    );
    expect(await readWhileSyncing(store, () => ids("earlyword", store), early)).toMatchObject({
      value: [],
      report: { unchanged: 11 },
    });
    // Used up: the next check looks for itself.
    expect(await readWhileSyncing(store, () => ids("earlyword", store), early)).toMatchObject({
      value: [S1_ID],
      report: { appended: 1 },
    });
  });

  it("picks up new, appended and deleted files", async () => {
    agent = makeAgentDir();
    await syncIndex(await open());
    const newDir = join(agent.sessionsDir, "--home-dev-new--");
    mkdirSync(newDir);
    writeFileSync(
      join(newDir, "2026-11-01T00-00-00-000Z_new-session.jsonl"),
      `${JSON.stringify({ type: "session", version: 3, id: "new-session", timestamp: "2026-11-01T00:00:00.000Z", cwd: "/home/dev/new" })}\n` +
        userMessage("c0000001", "brandnewword appears", Date.parse("2026-11-01T00:00:01Z")),
    );
    appendFileSync(
      join(agent.sessionsDir, S1),
      userMessage("c0000002", "appendedlaterword", Date.parse("2026-11-02T00:00:00Z")),
    );
    rmSync(
      join(
        agent.sessionsDir,
        "--home-dev-blog--/2026-10-01T12-00-00-000Z_01a0f755-f200-7250-a372-48336bf4923d.jsonl",
      ),
    );

    const report = await syncIndex(await open());
    expect(report).toMatchObject({ indexed: 1, appended: 1, removed: 1 });
    expect(await ids("brandnewword")).toEqual(["new-session"]);
    expect(await ids("appendedlaterword")).toEqual([S1_ID]);
    expect(await ids("naive")).toEqual([]);
    // The appended session kept its earlier messages and its metadata moved on.
    expect(await ids("kubectl")).toContain(S1_ID);
    const [hit] = await searchSessions(await open(), { query: "appendedlaterword" });
    expect(hit!.modified).toBe("2026-11-02T00:00:00.000Z");
  });

  it("an appended session reads the same as a fresh index of it", async () => {
    agent = makeAgentDir();
    await syncIndex(await open());
    appendFileSync(
      join(agent.sessionsDir, S1),
      userMessage(
        "c0000003",
        "one more staging deploy question",
        Date.parse("2026-11-02T00:00:00Z"),
      ),
    );
    await syncIndex(await open());
    const incremental = await searchSessions(await open(), {
      query: "staging deploy kubectl",
      now: 0,
    });
    await syncIndex(await open(), { rebuild: true });
    const rebuilt = await searchSessions(await open(), { query: "staging deploy kubectl", now: 0 });
    expect(incremental.map((h) => [h.id, h.message?.index, h.snippet])).toEqual(
      rebuilt.map((h) => [h.id, h.message?.index, h.snippet]),
    );
  });

  it("a fork's copied history is found once, in its parent, until the parent is deleted", async () => {
    agent = makeAgentDir();
    await syncIndex(await open());
    expect(await ids("kubectl rollout")).toContain(S1_ID);
    const [forkHit] = await searchSessions(await open(), { query: "forkonlyword" });
    expect(forkHit!.id).toBe(S3_ID);
    const copiedHits = (
      await searchSessions(await open(), { query: '"kubectl rollout restart"' })
    ).map((h) => h.id);
    expect(copiedHits).toEqual([S1_ID]);
    rmSync(join(agent.sessionsDir, S1));
    await syncIndex(await open());
    expect(await ids('"kubectl rollout restart"')).toEqual([S3_ID]);
  });

  it("reports a session file it cannot look at, and keeps what was indexed of it", async () => {
    agent = makeAgentDir();
    await syncIndex(await open());
    const path = join(agent.sessionsDir, S1);
    renameSync(path, `${path}.moved`);
    symlinkSync(join(agent.root, "nowhere.jsonl"), path); // a dangling link: stat fails
    const report = await syncIndex(await open());
    expect(report.failed).toEqual([{ path, reason: expect.stringMatching(/ENOENT/) }]);
    expect(report.removed).toBe(0);
    expect(await ids("kubectl")).toContain(S1_ID);
  });

  it.skipIf(process.getuid?.() === 0)(
    `reports a file it may not read${process.getuid?.() === 0 ? " (skipped: root may read every file)" : ""}`,
    async () => {
      agent = makeAgentDir();
      await syncIndex(await open());
      const path = join(agent.sessionsDir, S1);
      appendFileSync(
        path,
        userMessage("c0000005", "deniedword", Date.parse("2026-11-02T00:00:00Z")),
      );
      chmodSync(path, 0o000);
      const report = await syncIndex(await open());
      chmodSync(path, 0o644);
      expect(report.failed).toEqual([{ path, reason: expect.stringMatching(/EACCES/) }]);
      expect(await ids("kubectl")).toContain(S1_ID);
    },
  );

  it("rebuilds a corrupt index from the session files, with a notice", async () => {
    agent = makeAgentDir();
    const store = await open();
    await syncIndex(store);
    const meta = join(store.locations.cacheDir, "index", "meta.json");
    writeFileSync(meta, "{ not json");
    const reopened = await open();
    expect(reopened.notices.join("\n")).toMatch(/rebuilding/);
    const report = await syncIndex(reopened);
    expect(report.indexed).toBe(11);
    expect(await ids("forkonlyword", reopened)).toEqual([S3_ID]);
  });

  it("rebuilds an index written by an older schema, and drops the files that older recall kept beside it", async () => {
    agent = makeAgentDir();
    const store = await open();
    await syncIndex(store);
    const meta = join(store.locations.cacheDir, "index", "meta.json");
    const metas = JSON.parse(readFileSync(meta, "utf8")) as { payload: string };
    metas.payload = JSON.stringify({ ...JSON.parse(metas.payload), schema: 1 });
    writeFileSync(meta, JSON.stringify(metas));
    for (const old of ["state.json", "fingerprint.json"])
      writeFileSync(join(store.locations.cacheDir, old), "{}");
    const reopened = await open();
    expect(reopened.notices.join("\n")).toMatch(/schema version 1.*rebuilding/);
    for (const old of ["state.json", "fingerprint.json"])
      expect(existsSync(join(store.locations.cacheDir, old))).toBe(false);
    expect(await syncIndex(reopened)).toMatchObject({ indexed: 11 });
    expect(await ids("forkonlyword", reopened)).toEqual([S3_ID]);
  });

  it("indexes everything again when the index folder was deleted", async () => {
    agent = makeAgentDir();
    const store = await open();
    await syncIndex(store);
    rmSync(join(store.locations.cacheDir, "index"), { recursive: true });
    const report = await syncIndex(await open());
    expect(report).toMatchObject({ indexed: 11, appended: 0, removed: 0 });
    expect(await ids("forkonlyword")).toEqual([S3_ID]);
  });

  it("waits for another writer, then says the index is busy; readers are not blocked", async () => {
    agent = makeAgentDir();
    await syncIndex(await open());
    appendFileSync(
      join(agent.sessionsDir, S1),
      userMessage("c0000004", "whilelockedword", Date.parse("2026-11-02T00:00:00Z")),
    );
    const holder = await holdWriterLock(agent.agentDir);
    const busy = await syncIndex(await open(), { lockTimeoutMs: 200 });
    expect(busy.busy).toBe(true);
    expect(await ids("kubectl")).toContain(S1_ID); // searching still works
    expect(await ids("whilelockedword")).toEqual([]);
    await holder.release();
    const after = await syncIndex(await open(), { lockTimeoutMs: 200 });
    expect(after).toMatchObject({ busy: false, appended: 1 });
    expect(await ids("whilelockedword")).toEqual([S1_ID]);
  });

  it("two processes syncing at once both finish, and nothing is indexed twice", async () => {
    agent = makeAgentDir();
    const script = `import { Recall } from ${JSON.stringify(new URL("../dist/index.js", import.meta.url).href)};
      const report = await Recall.open({ env: { PI_CODING_AGENT_DIR: ${JSON.stringify(agent.agentDir)} } }).sync({ lockTimeoutMs: 30000 });
      process.stdout.write(JSON.stringify(report));`;
    const run = () =>
      new Promise<{ indexed: number; unchanged: number }>((resolve, reject) => {
        const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
          stdio: ["ignore", "pipe", "inherit"],
        });
        let out = "";
        child.stdout.on("data", (d) => (out += d));
        child.on("close", (code) =>
          code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`exit ${code}`)),
        );
      });
    const [a, b] = await Promise.all([run(), run()]);
    expect(a.indexed + b.indexed).toBe(11);
    const store = await open();
    // The header-only file has nothing to index.
    expect((await store.native.stats()).sessions).toBe(10);
    expect(await ids("forkonlyword", store)).toEqual([S3_ID]);
  });

  describe("a session file deleted while the sync runs (Pi deletes sessions)", () => {
    const header = (id: string, parent?: string) =>
      `${JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-11-01T00:00:00.000Z", cwd: "/home/dev/gone", ...(parent ? { parentSession: parent } : {}) })}\n`;
    const folder = () => join(agent.sessionsDir, "--home-dev-gone--");
    const kept = () => join(folder(), "2026-11-01T00-00-00-000Z_0aaa.jsonl");
    const deleted = () => join(folder(), "2026-11-01T00-00-01-000Z_0bbb.jsonl");

    it("while it is read: the sync goes on, and the file is gone rather than broken", async () => {
      agent = makeAgentDir({ withFixtures: false });
      mkdirSync(folder());
      writeFileSync(
        kept(),
        header("0aaa") + userMessage("c1", "keptfileword", Date.parse("2026-11-01T00:00:01Z")),
      );
      // A fork whose parent is nowhere: after reading it, the sync looks for the parent in the
      // sessions folder (a native listing, off this thread), and the file goes meanwhile.
      writeFileSync(
        deleted(),
        header("0bbb", "/nowhere/2026-01-01T00-00-00-000Z_0ccc.jsonl") +
          userMessage("c2", "deletedfileword", Date.parse("2026-11-01T00:00:02Z")),
      );
      const report = await syncIndex(await open(), {
        onProgress: ({ filesDone }) => {
          if (filesDone === 1) queueMicrotask(() => rmSync(deleted()));
        },
      });
      expect(existsSync(deleted())).toBe(false);
      expect(report).toMatchObject({ indexed: 1, removed: 0, failed: [] });
      expect(await ids("keptfileword")).toEqual(["0aaa"]);
      expect(await ids("deletedfileword")).toEqual([]);
      expect(await syncIndex(await open())).toMatchObject({
        indexed: 0,
        appended: 0,
        removed: 0,
        unchanged: 1,
        failed: [],
      });
    });

    it("before it is read: what the index had of it is removed, and nothing is reported broken", async () => {
      agent = makeAgentDir({ withFixtures: false });
      mkdirSync(folder());
      writeFileSync(
        kept(),
        header("0aaa") + userMessage("c1", "keptfileword", Date.parse("2026-11-01T00:00:01Z")),
      );
      writeFileSync(
        deleted(),
        header("0bbb") + userMessage("c2", "deletedfileword", Date.parse("2026-11-01T00:00:02Z")),
      );
      await syncIndex(await open());
      appendFileSync(
        kept(),
        userMessage("c3", "keptlaterword", Date.parse("2026-11-01T00:00:03Z")),
      );
      appendFileSync(
        deleted(),
        userMessage("c4", "deletedlaterword", Date.parse("2026-11-01T00:00:04Z")),
      );
      const report = await syncIndex(await open(), {
        onProgress: ({ filesDone }) => {
          if (filesDone === 1) rmSync(deleted());
        },
      });
      expect(report).toMatchObject({ appended: 1, indexed: 0, removed: 1, failed: [] });
      expect(await ids("keptlaterword")).toEqual(["0aaa"]);
      expect(await ids("deletedfileword")).toEqual([]);
      expect(await syncIndex(await open())).toMatchObject({
        indexed: 0,
        appended: 0,
        removed: 0,
        unchanged: 1,
      });
    });
  });
});
