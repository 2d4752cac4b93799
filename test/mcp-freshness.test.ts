/**
 * `recall mcp` keeps its index fresh while it runs (Recall's `live`: the session folders are
 * watched, a call checks the files only after a change): end to end through the official client,
 * a change made before a call is in that call's answer — with no wait, with `recall watch`
 * running beside it, and on a sessions folder it cannot watch.
 */
import { spawn, type ChildProcess } from "node:child_process";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_WATCHED_FOLDERS } from "../src/sync/live-freshness.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { RECALL_BIN } from "./helpers/run-cli.js";

const BIN = new URL("../bin/recall-mcp.cjs", import.meta.url).pathname;
const S1 =
  "--home-dev-shop-api--/2026-10-01T09-00-00-000Z_01a0f6b1-2680-79e3-a1fa-30b6f0582ef5.jsonl";
const S1_ID = "01a0f6b1-2680-79e3-a1fa-30b6f0582ef5";

let agent: AgentDir | undefined;
let client: Client | undefined;
let watcher: ChildProcess | undefined;
afterEach(async () => {
  watcher?.kill("SIGCONT");
  watcher?.kill("SIGKILL");
  watcher = undefined;
  await client?.close();
  client = undefined;
  agent?.cleanup();
  agent = undefined;
});

async function connect(env: NodeJS.ProcessEnv): Promise<Client> {
  const connected = new Client({ name: "recall-test", version: "1.0.0" });
  await connected.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "--default-scope", "all"],
      env: env as Record<string, string>,
      stderr: "pipe",
    }),
  );
  return connected;
}

/** The session ids a search finds. */
async function found(query: string): Promise<string[]> {
  const result = await client!.callTool({ name: "pi_session_search", arguments: { query } });
  expect(result.isError).toBeFalsy();
  return (result.structuredContent as { results: { session_id: string }[] }).results.map(
    (r) => r.session_id,
  );
}

function userMessage(id: string, text: string): string {
  const ms = Date.parse("2026-11-02T00:00:00Z");
  return `${JSON.stringify({ type: "message", id, parentId: null, timestamp: new Date(ms).toISOString(), message: { role: "user", content: text, timestamp: ms } })}\n`;
}

function sessionFile(id: string, cwd: string, text: string): string {
  return `${JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-11-01T00:00:00.000Z", cwd })}\n${userMessage(`${id.slice(0, 4)}0001`, text)}`;
}

/** Polls until `check` holds, for at most `timeoutMs`. */
async function eventually(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("recall mcp keeps the index fresh", () => {
  it(
    "answers the very next call with a message appended, a session added in a new folder, and a session deleted",
    { timeout: 60_000 },
    async () => {
      agent = makeAgentDir();
      client = await connect(agent.env);
      expect(await found("deploy")).not.toEqual([]);
      for (let round = 0; round < 10; round++) {
        appendFileSync(
          join(agent.sessionsDir, S1),
          userMessage(`a000000${round}`, `appendround${round}word`),
        );
        expect(await found(`appendround${round}word`)).toEqual([S1_ID]);
      }

      const folder = join(agent.sessionsDir, "--home-dev-fresh--");
      mkdirSync(folder);
      const added = join(folder, "2026-11-01T00-00-00-000Z_fresh-session.jsonl");
      writeFileSync(added, sessionFile("fresh-session", "/home/dev/fresh", "newsessionword"));
      expect(await found("newsessionword")).toEqual(["fresh-session"]);
      appendFileSync(added, userMessage("fres0002", "newfolderappendword"));
      expect(await found("newfolderappendword")).toEqual(["fresh-session"]);

      rmSync(join(agent.sessionsDir, S1));
      expect(await found("appendround9word")).toEqual([]);
      rmSync(folder, { recursive: true });
      expect(await found("newsessionword")).toEqual([]);
    },
  );

  it(
    "finds what another process writes while calls run, and all of it once that process is done",
    { timeout: 60_000 },
    async () => {
      agent = makeAgentDir();
      client = await connect(agent.env);
      const file = join(agent.sessionsDir, S1);
      const lines = Array.from({ length: 20 }, (_, i) =>
        userMessage(`b00000${String(i).padStart(2, "0")}`, `writerline${i}word`),
      );
      // Pi's way of writing: one append per entry, a moment apart.
      const script = `const fs = require("node:fs"); const lines = ${JSON.stringify(lines)}; let i = 0; const next = () => { if (i === lines.length) return; fs.appendFileSync(${JSON.stringify(file)}, lines[i++]); setTimeout(next, 20); }; next();`;
      const writer = spawn(process.execPath, ["-e", script], { stdio: "ignore" });
      const done = new Promise((resolve) => writer.on("exit", resolve));
      await eventually(async () => (await found("writerline5word")).length === 1);
      await done;
      expect(await found("writerline19word")).toEqual([S1_ID]);
    },
  );

  it(
    "beside `recall watch`, answers from its own watches rather than the watcher's word",
    { timeout: 60_000 },
    async () => {
      agent = makeAgentDir();
      const lockFile = join(agent.agentDir, "cache", "recall", "watch.lock");
      let watchStderr = "";
      watcher = spawn(process.execPath, [RECALL_BIN, "watch", "--quiet"], {
        env: agent.env,
        stdio: ["ignore", "ignore", "pipe"],
      });
      watcher.stderr!.setEncoding("utf8").on("data", (d: string) => (watchStderr += d));
      await eventually(
        async () => existsSync(lockFile) && readFileSync(lockFile, "utf8").trim() === "ready",
      );
      client = await connect(agent.env);
      expect(await found("deploy")).not.toEqual([]);

      // Frozen, the watcher still says the index is fresh but hears of nothing.
      watcher.kill("SIGSTOP");
      appendFileSync(join(agent.sessionsDir, S1), userMessage("c0000001", "frozenwatcherword"));
      expect(await found("frozenwatcherword")).toEqual([S1_ID]);
      watcher.kill("SIGCONT");

      // Both go on: the watcher catches up and says so again; the server answers the next change.
      await eventually(async () => readFileSync(lockFile, "utf8").trim() === "ready");
      appendFileSync(join(agent.sessionsDir, S1), userMessage("c0000002", "besidewatcherword"));
      expect(await found("besidewatcherword")).toEqual([S1_ID]);
      expect(watcher.exitCode).toBe(null);
      expect(watchStderr).toBe("");
    },
  );

  it(
    "answers fresh on a sessions folder it cannot watch: not there at its start",
    { timeout: 60_000 },
    async () => {
      agent = makeAgentDir();
      const away = `${agent.sessionsDir}-away`;
      renameSync(agent.sessionsDir, away);
      client = await connect(agent.env);
      expect(await found("deploy")).toEqual([]);
      renameSync(away, agent.sessionsDir);
      expect(await found("deploy")).not.toEqual([]);
      appendFileSync(join(agent.sessionsDir, S1), userMessage("d0000001", "cameafterstartword"));
      expect(await found("cameafterstartword")).toEqual([S1_ID]);
    },
  );

  it(
    "answers fresh on a sessions folder it cannot watch: more project folders than it watches",
    { timeout: 60_000 },
    async () => {
      agent = makeAgentDir();
      for (let i = 0; i <= MAX_WATCHED_FOLDERS; i++)
        mkdirSync(join(agent.sessionsDir, `--home-dev-empty-${i}--`));
      client = await connect(agent.env);
      expect(await found("deploy")).not.toEqual([]);
      // A file in a folder that is not watched.
      const folder = join(agent.sessionsDir, "--home-dev-empty-7--");
      writeFileSync(
        join(folder, "2026-11-01T00-00-00-000Z_unwatched-session.jsonl"),
        sessionFile("unwatched-session", "/home/dev/empty-7", "unwatchedfolderword"),
      );
      expect(await found("unwatchedfolderword")).toEqual(["unwatched-session"]);
      appendFileSync(
        join(folder, "2026-11-01T00-00-00-000Z_unwatched-session.jsonl"),
        userMessage("unwa0002", "unwatchedappendword"),
      );
      expect(await found("unwatchedappendword")).toEqual(["unwatched-session"]);
    },
  );
});
