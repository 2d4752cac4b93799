#!/usr/bin/env node
// From a message appended to a session file to that message found by meaning, under `recall watch
// --meaning` (issue 31's target: ≤ 2 s), on a corpus whose meaning index is complete: the cache
// that bench/meaning-search.mjs leaves (its word index of the corpus, its store filled to every
// unit), so the watch has nothing to embed but what is appended.
//
//   node bench/meaning-search.mjs --agent <corpus agent folder>     (once, to make the cache)
//   node bench/meaning-watch.mjs --agent <corpus agent folder> [--rounds 10] [--json]
//
// The real CLI watches (a child process); this process appends, each round, one message of its own
// (user and assistant by turns) to a session file of its own in the corpus (removed at the end),
// and asks `Recall.search({ match: "meaning" })` every 20 ms, with the message's text as the query,
// until the best hit is that message: its time from the append is one sample.
import { spawn } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { LIBRARY_URL, machineInfo, now, RECALL_BIN, REPO_ROOT, summarize } from "./lib.mjs";

const { values } = parseArgs({
  options: {
    agent: { type: "string" },
    rounds: { type: "string", default: "10" },
    json: { type: "boolean", default: false },
  },
});
if (!values.agent) throw new Error("--agent <corpus agent folder> is required");
const modelDir = process.env.RECALL_MODEL_DIR ?? join(REPO_ROOT, ".cache", "model-minilm");
const cacheDir = join(REPO_ROOT, ".cache", "bench", "meaning-search", "cache");
if (!existsSync(join(cacheDir, "meaning", "vectors")))
  throw new Error(
    `no meaning index in ${cacheDir}: run bench/meaning-search.mjs --agent ${values.agent} first`,
  );
const env = {
  ...process.env,
  PI_CODING_AGENT_DIR: values.agent,
  RECALL_CACHE_DIR: cacheDir,
  RECALL_MODEL_DIR: modelDir,
};
const log = (m) => process.stderr.write(`${m}\n`);

const { Recall } = await import(LIBRARY_URL);
const recall = Recall.open({ env });
const coverage = async () => (await recall.meaning.coverage()) ?? { embedded: 0, messages: 0 };

// The session this bench appends to, in a folder of its own.
const id = `0be0c4a7-0000-7000-8000-${String(process.pid).padStart(12, "0")}`;
const folder = join(values.agent, "sessions", "--bench-meaning-watch--");
const file = join(folder, `2026-12-01T00-00-00-000Z_${id}.jsonl`);
mkdirSync(folder, { recursive: true });
writeFileSync(
  file,
  `${JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-12-01T00:00:00.000Z", cwd: "/bench/meaning-watch" })}\n`,
);

const watcher = spawn(process.execPath, [RECALL_BIN, "watch", "--meaning", "--json"], {
  env,
  stdio: ["ignore", "pipe", "pipe"],
});
let watchErr = "";
watcher.stderr.setEncoding("utf8").on("data", (d) => (watchErr += d));
const samples = [];
try {
  // The watch's first sync indexes the new file; then its meaning index is complete again.
  for (;;) {
    await recall.reload();
    const { embedded, messages } = await coverage();
    if (messages > 0 && embedded === messages) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  log("watch ready: the meaning index is complete");
  const topics = [
    "the espresso machine leaks onto the floor",
    "a pager alert fired for the nightly backup",
    "the font on the invoice renders in the wrong weight",
    "the cron job ran twice after the clock change",
    "our staging database filled its disk with logs",
  ];
  for (let round = 0; round < Number(values.rounds); round++) {
    const text = `Round ${round}: ${topics[round % topics.length]} (${process.pid}-${round})`;
    const at = new Date(Date.parse("2026-12-01T00:00:00Z") + (round + 1) * 60_000).toISOString();
    const start = now();
    // User and assistant by turns: messages of one role in a row are one unit of the index.
    const role = round % 2 === 0 ? "user" : "assistant";
    appendFileSync(
      file,
      `${JSON.stringify({ type: "message", id: `b${String(round).padStart(7, "0")}`, parentId: null, timestamp: at, message: { role, content: [{ type: "text", text }] } })}\n`,
    );
    for (;;) {
      await recall.reload();
      const [hit] = (await recall.search({ query: text, match: "meaning", limit: 1, sync: false }))
        .hits;
      if (hit?.id === id && hit.message?.index === round) break;
      if (now() - start > 30_000)
        throw new Error(`round ${round}: not found by meaning after 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    samples.push(now() - start);
    log(`round ${round}: ${(now() - start).toFixed(0)} ms`);
  }
} finally {
  watcher.kill("SIGTERM");
  await new Promise((resolve) => watcher.on("exit", resolve));
  rmSync(folder, { recursive: true, force: true });
  recall.close();
}
if (watchErr) log(`recall watch said: ${watchErr.trim()}`);
const result = {
  machine: machineInfo(),
  corpus: values.agent,
  appendToFoundMs: summarize(samples),
};
console.log(values.json ? JSON.stringify(result) : JSON.stringify(result, null, 2));
