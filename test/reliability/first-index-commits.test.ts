/**
 * A first index (not a rebuild) commits what it has read every FIRST_INDEX_COMMIT_MS, so that a
 * query meanwhile answers from it and a run after a crash goes on from there (src/sync/sync.ts).
 *
 * The indexer is a real process syncing through the library (the path `recall index` takes) into
 * a real index. Its progress callback, called after each file, makes the first file take longer
 * than the commit interval (a large file), and on the second file tells this test where it is and
 * waits to be killed with SIGKILL. Only an interim commit can put the first file in the index
 * by then; the next `recall index` must read only the files after it.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "../helpers/agent-dir.js";
import { runSpeaking } from "../helpers/child-line.js";
import { userMessage } from "../helpers/fixture-files.js";
import { jsonLines, runRecall, type CliResult } from "../helpers/run-cli.js";

const LIBRARY = new URL("../../dist/index.js", import.meta.url).href;
const SYNC = new URL("../../dist/sync/sync.js", import.meta.url).href;
const SESSIONS = 12;

let agent: AgentDir | undefined;
afterEach(() => agent?.cleanup());

function writeSessions(sessionsDir: string): void {
  const folder = join(sessionsDir, "--home-dev-commits--");
  mkdirSync(folder, { recursive: true });
  for (let n = 0; n < SESSIONS; n++) {
    const id = `01a3${n.toString(16).padStart(4, "0")}-0000-7000-8000-000000000000`;
    const start = Date.parse("2026-10-03T09:00:00Z") + n * 60_000;
    let text = `${JSON.stringify({ type: "session", version: 3, id, timestamp: new Date(start).toISOString(), cwd: "/home/dev/commits" })}\n`;
    for (let m = 0; m < 5; m++)
      text += userMessage(`m${n}x${m}`, `interimword session ${n} message ${m}`, start + m * 1000);
    writeFileSync(join(folder, `2026-10-03T09-00-00-000Z_${id}.jsonl`), text);
  }
}

/** Starts the first index; resolves once it has read two files and is waiting on the second. */
async function startPausedIndexer(
  env: NodeJS.ProcessEnv,
): Promise<{ kill(): Promise<NodeJS.Signals | null> }> {
  const child = runSpeaking(
    env,
    `import { Recall } from ${JSON.stringify(LIBRARY)};
     import { FIRST_INDEX_COMMIT_MS } from ${JSON.stringify(SYNC)};
     const recall = Recall.open({ env: process.env });
     await recall.sync({
       onProgress: ({ filesDone }) => {
         if (filesDone === 1) sleep(FIRST_INDEX_COMMIT_MS + 500);
         if (filesDone === 2) {
           writeSync(1, "paused\\n");
           for (;;) sleep(60_000);
         }
       },
     });
     writeSync(1, "finished\\n");`,
  );
  const said = await child.said;
  expect(said).toBe("paused");
  return child;
}

describe("the interim commits of a first index", () => {
  it("put what was read in the index while it runs, and a run after kill -9 reads only the rest", async () => {
    agent = makeAgentDir({ withFixtures: false });
    writeSessions(agent.sessionsDir);
    const indexer = await startPausedIndexer(agent.env);
    let during: CliResult;
    try {
      during = await runRecall(["list", "--json", "--no-sync", "--limit", "100"], {
        env: agent.env,
        timeoutMs: 30_000,
      });
    } finally {
      expect(await indexer.kill()).toBe("SIGKILL");
    }
    // The first file, committed while the second waited, uncommitted.
    expect(during.stderr).toBe("");
    expect(jsonLines(during.stdout)).toHaveLength(1);

    const after = await runRecall(["index", "--json"], { env: agent.env, timeoutMs: 60_000 });
    expect(after.code, after.stderr).toBe(0);
    expect(jsonLines(after.stdout).find((line) => line.type === "summary")).toMatchObject({
      discovered: SESSIONS,
      indexed: SESSIONS - 1,
      unchanged: 1,
      failed: 0,
    });
    const list = await runRecall(["list", "--json", "--no-sync", "--limit", "100"], {
      env: agent.env,
    });
    expect(jsonLines(list.stdout)).toHaveLength(SESSIONS);
  }, 90_000);
});
