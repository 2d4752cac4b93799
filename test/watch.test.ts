import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openRecall } from "./helpers/open-store.js";
import { readWhileSyncing } from "../src/sync/sync.js";
import { Recall } from "../src/index.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { RECALL_BIN, jsonLines, runRecall } from "./helpers/run-cli.js";

const S1 =
  "--home-dev-shop-api--/2026-10-01T09-00-00-000Z_01a0f6b1-2680-79e3-a1fa-30b6f0582ef5.jsonl";
const S1_ID = "01a0f6b1-2680-79e3-a1fa-30b6f0582ef5";
const BLOG =
  "--home-dev-blog--/2026-10-01T12-00-00-000Z_01a0f755-f200-7250-a372-48336bf4923d.jsonl";

let agent: AgentDir;
let watcher: ChildProcessWithoutNullStreams | undefined;
afterEach(() => {
  watcher?.kill("SIGKILL");
  watcher = undefined;
  agent?.cleanup();
});

function userMessage(id: string, text: string): string {
  const ms = Date.parse("2026-11-02T00:00:00Z");
  return `${JSON.stringify({ type: "message", id, parentId: null, timestamp: new Date(ms).toISOString(), message: { role: "user", content: text, timestamp: ms } })}\n`;
}

/**
 * `recall watch --json`, once it says the index is fresh. Checking that syncs an index the watcher
 * has not synced yet: a caller that needs the watcher's first line waits for it with `firstLine`.
 */
async function startWatcher(
  ...args: string[]
): Promise<{ lines: () => Record<string, unknown>[]; stderr: () => string }> {
  const firstLine = args[0] === "--first-line";
  if (firstLine) args = args.slice(1);
  const child = spawn(process.execPath, [RECALL_BIN, "watch", "--json", ...args], {
    env: agent.env,
  });
  watcher = child;
  let stdout = "";
  let stderr = "";
  let exited: string | undefined;
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.on("exit", (code) => (exited = `recall watch exited with ${code}: ${stderr}`));
  if (firstLine) await eventually(async () => stdout.includes("\n") || Boolean(exited), 40_000);
  // Ready comes once a sync finds nothing waiting (a first sync that changed nothing prints no
  // line): listing a folder can change its access time, which the watcher also hears of.
  await eventually(async () => {
    if (exited) throw new Error(exited);
    return searchTrustsWatcher(...args);
  }, 40_000);
  return { lines: () => jsonLines(stdout), stderr: () => stderr };
}

const searchIndexOnly = async (query: string) =>
  jsonLines<{ id: string }>(
    (await runRecall(["search", "--no-sync", "--json", query], { env: agent.env })).stdout,
  ).map((h) => h.id);

/** Polls until `check` holds; the watcher works in the background. */
async function eventually(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Whether a search now skips its own freshness check (a null report: a watcher says the index is
 * fresh).
 */
async function searchTrustsWatcher(...args: string[]): Promise<boolean> {
  const sessionsDir = args[0] === "--sessions-dir" ? args[1] : undefined;
  const { report } = await readWhileSyncing(
    await openRecall({ env: agent.env, sessionsDir }),
    async () => undefined,
  );
  return report === null;
}

describe("recall watch", () => {
  it(
    "indexes appended messages, new folders and files, and deletions as they happen",
    { timeout: 60_000 },
    async () => {
      agent = makeAgentDir();
      const { lines } = await startWatcher("--first-line");
      expect(lines()[0]).toMatchObject({ type: "sync", discovered: 11, indexed: 11 });

      // --no-sync: only the watcher can have put these in the index.
      appendFileSync(join(agent.sessionsDir, S1), userMessage("c0000001", "watchedappendword"));
      await eventually(async () => (await searchIndexOnly("watchedappendword")).includes(S1_ID));

      const folder = join(agent.sessionsDir, "--home-dev-new--");
      mkdirSync(folder);
      writeFileSync(
        join(folder, "2026-11-01T00-00-00-000Z_new-session.jsonl"),
        `${JSON.stringify({ type: "session", version: 3, id: "new-session", timestamp: "2026-11-01T00:00:00.000Z", cwd: "/home/dev/new" })}\n` +
          userMessage("c0000002", "watchednewfolderword"),
      );
      await eventually(async () =>
        (await searchIndexOnly("watchednewfolderword")).includes("new-session"),
      );
      // A file added later to that new folder: the folder is watched too.
      writeFileSync(
        join(folder, "2026-11-01T01-00-00-000Z_newer-session.jsonl"),
        `${JSON.stringify({ type: "session", version: 3, id: "newer-session", timestamp: "2026-11-01T01:00:00.000Z", cwd: "/home/dev/new" })}\n` +
          userMessage("c0000003", "watchedsecondfileword"),
      );
      await eventually(async () =>
        (await searchIndexOnly("watchedsecondfileword")).includes("newer-session"),
      );

      rmSync(join(agent.sessionsDir, BLOG));
      await eventually(async () => (await searchIndexOnly("naive")).length === 0);
      expect(
        lines()
          .slice(1)
          .every((line) => line.type === "sync"),
      ).toBe(true);
    },
  );

  it(
    "prints nothing for a first sync that changed nothing, then a line for a change",
    { timeout: 60_000 },
    async () => {
      agent = makeAgentDir();
      expect((await runRecall(["index"], { env: agent.env })).code).toBe(0);
      const child = spawn(process.execPath, [RECALL_BIN, "watch", "--json"], { env: agent.env });
      watcher = child;
      let stdout = "";
      child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
      // Ready: its first sync is done, and found nothing to do.
      await eventually(() => searchTrustsWatcher());
      expect(stdout).toBe("");
      appendFileSync(join(agent.sessionsDir, S1), userMessage("c0000009", "firstsyncquietword"));
      await eventually(async () => stdout.includes("\n"));
      expect(jsonLines(stdout)).toEqual([expect.objectContaining({ type: "sync", appended: 1 })]);
    },
  );

  it("watches a custom sessions folder (flat layout) too", { timeout: 60_000 }, async () => {
    agent = makeAgentDir({ withFixtures: false });
    const custom = join(agent.root, "custom-sessions");
    mkdirSync(custom);
    await startWatcher("--sessions-dir", custom);
    writeFileSync(
      join(custom, "2026-11-01T00-00-00-000Z_flat-session.jsonl"),
      `${JSON.stringify({ type: "session", version: 3, id: "flat-session", timestamp: "2026-11-01T00:00:00.000Z", cwd: "/home/dev/flat" })}\n` +
        userMessage("c0000005", "watchedflatword"),
    );
    const search = async () =>
      jsonLines<{ id: string }>(
        (
          await runRecall(
            ["search", "--no-sync", "--json", "--sessions-dir", custom, "watchedflatword"],
            { env: agent.env },
          )
        ).stdout,
      ).map((h) => h.id);
    await eventually(async () => (await search()).includes("flat-session"));
  });

  it(
    "stops on SIGTERM with exit 0, after which searches check for themselves again",
    { timeout: 60_000 },
    async () => {
      agent = makeAgentDir();
      await startWatcher();
      const lockFile = join(agent.agentDir, "cache", "recall", "watch.lock");
      expect(readFileSync(lockFile, "utf8").trim()).toBe("ready");
      const exited = new Promise<number | null>((resolve) => watcher!.on("exit", resolve));
      watcher!.kill("SIGTERM");
      expect(await exited).toBe(0);
      expect(await searchTrustsWatcher()).toBe(false);
      // Nor does the file say ready to anyone who reads it without taking the lock.
      expect(readFileSync(lockFile, "utf8").trim()).toBe("");
    },
  );

  it("a killed watcher is not trusted: its lock goes with it", { timeout: 60_000 }, async () => {
    agent = makeAgentDir();
    await startWatcher();
    const exited = new Promise((resolve) => watcher!.on("exit", resolve));
    watcher!.kill("SIGKILL");
    await exited;
    expect(await searchTrustsWatcher()).toBe(false);
    appendFileSync(join(agent.sessionsDir, S1), userMessage("c0000004", "afterkillword"));
    const found = await runRecall(["search", "--json", "afterkillword"], { env: agent.env });
    expect(jsonLines<{ id: string }>(found.stdout).map((h) => h.id)).toEqual([S1_ID]);
  });

  it(
    "carries on when the cache folder is deleted under it, and gives way to a watcher started since",
    { timeout: 60_000 },
    async () => {
      agent = makeAgentDir();
      await startWatcher();
      const cacheDir = join(agent.agentDir, "cache", "recall");
      rmSync(cacheDir, { recursive: true });
      appendFileSync(join(agent.sessionsDir, S1), userMessage("c0000006", "afterdeletedcacheword"));
      await eventually(async () =>
        (await searchIndexOnly("afterdeletedcacheword")).includes(S1_ID),
      );
      await eventually(() => searchTrustsWatcher());

      // Deleted again, and a second watcher starts before the first hears of any change.
      const first = watcher!;
      const firstExit = new Promise<number | null>((resolve) => first.on("exit", resolve));
      let firstStderr = "";
      first.stderr.on("data", (d: string) => (firstStderr += d));
      rmSync(cacheDir, { recursive: true });
      await startWatcher();
      const second = watcher!;
      appendFileSync(join(agent.sessionsDir, S1), userMessage("c0000007", "secondwatcherword"));
      expect(await firstExit).toBe(2);
      expect(firstStderr).toMatch(
        /^recall: another watcher is already keeping the index of .* up to date\n$/,
      );
      await eventually(async () => (await searchIndexOnly("secondwatcherword")).includes(S1_ID));
      second.kill("SIGKILL");
    },
  );

  it(
    "opens a new index when only the index folder is deleted under it",
    { timeout: 60_000 },
    async () => {
      agent = makeAgentDir();
      const { stderr } = await startWatcher();
      rmSync(join(agent.agentDir, "cache", "recall", "index"), { recursive: true });
      appendFileSync(join(agent.sessionsDir, S1), userMessage("c0000008", "afterdeletedindexword"));
      await eventually(async () =>
        (await searchIndexOnly("afterdeletedindexword")).includes(S1_ID),
      );
      // The lock file stayed where it was, and the watcher still holds it.
      await eventually(() => searchTrustsWatcher());
      expect(stderr()).toBe("");
    },
  );

  it(
    "is trusted by a library with a background thread (the Pi extension, the MCP server) as by the CLI",
    { timeout: 60_000 },
    async () => {
      agent = makeAgentDir();
      await startWatcher();
      const recall = Recall.open({ env: agent.env, background: true });
      try {
        // Frozen, the watcher still says the index is fresh, but hears of nothing: what a search
        // finds then shows whether it checked for itself.
        watcher!.kill("SIGSTOP");
        appendFileSync(join(agent.sessionsDir, S1), userMessage("c0000009", "frozenwatcherword"));
        expect((await recall.search({ query: "frozenwatcherword" })).hits).toEqual([]);
        watcher!.kill("SIGCONT");
        await eventually(
          async () => (await recall.search({ query: "frozenwatcherword" })).hits.length === 1,
        );
      } finally {
        watcher!.kill("SIGCONT");
        recall.close();
      }
    },
  );

  it(
    "refuses to run twice on one index, and says why on one line",
    { timeout: 60_000 },
    async () => {
      agent = makeAgentDir();
      await startWatcher();
      const second = await runRecall(["watch"], { env: agent.env });
      expect(second.code).toBe(2);
      expect(second.stderr).toMatch(
        /^recall: another watcher is already keeping the index of .* up to date\n$/,
      );
    },
  );

  it("says so when there is no sessions folder to watch", async () => {
    agent = makeAgentDir();
    rmSync(agent.sessionsDir, { recursive: true });
    const result = await runRecall(["watch"], { env: agent.env });
    expect(result).toMatchObject({ code: 2, stdout: "" });
    expect(result.stderr).toMatch(/^recall: there is no sessions folder at .* to watch\n$/);
  });
});
