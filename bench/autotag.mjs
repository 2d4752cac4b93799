/**
 * Batch auto-tagging against a local model: `recall autotag --all-untagged --yes` over N
 * untagged sessions (one `pi --mode rpc` process for the batch) beside one `recall autotag <id>`
 * process per session (a `pi -p` each), on the same corpus, the same model server answering at
 * once. What the batch saves is Pi's start per session; the model's own time is not in it.
 *
 * Runs under Pi's Node from the pinned runtime (it imports the tests' TypeScript helpers, whose
 * types Node 22 strips):
 *
 *   .cache/pi-runtime/node_modules/.bin/node bench/autotag.mjs [--sessions 50]
 *
 * Prints a JSON object: per mode, the time to the first session and the median time per session
 * after it (ms).
 */
import { spawn } from "node:child_process";
import { chmodSync, cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { generateCorpus } from "./corpus.mjs";
import { startModelServer } from "../test/helpers/model-server.ts";
import { piRuntime } from "../test/helpers/pi-env.ts";

const { values } = parseArgs({ options: { sessions: { type: "string", default: "50" } } });
const count = Number(values.sessions);
const root = new URL("..", import.meta.url).pathname;
const recallBin = join(root, "bin", "recall.cjs");
const runtime = piRuntime();
if (!runtime) throw new Error("no Pi runtime: run scripts/pi-runtime.sh first");

const work = mkdtempSync(join(tmpdir(), "recall-bench-autotag-"));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A fresh agent folder with the corpus's sessions, the model registered, no tags. */
async function agentFolder(name, corpus, server) {
  const agentDir = join(work, name, "agent");
  cpSync(corpus.sessionsDir, join(agentDir, "sessions"), { recursive: true });
  server.register(agentDir);
  const pi = join(work, name, "pi");
  writeFileSync(
    pi,
    `#!/bin/sh\nexec ${JSON.stringify(runtime.node)} ${JSON.stringify(runtime.cli)} "$@"\n`,
  );
  chmodSync(pi, 0o755);
  return {
    PATH: process.env.PATH,
    HOME: join(work, name),
    PI_CODING_AGENT_DIR: agentDir,
    RECALL_PI: pi,
    PI_OFFLINE: "1",
  };
}

/** Runs recall; calls `onLine(ms)` as each stdout line arrives. */
function recall(args, env, onLine = () => {}) {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    // The project's Node (on PATH), which its native addons were built for: this script runs on
    // Pi's.
    const child = spawn("node", [recallBin, ...args], {
      env,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d) => {
      out += d;
      for (const _ of d.matchAll(/\n/g)) onLine(performance.now() - started);
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out, ms: performance.now() - started }));
  });
}

try {
  const corpus = await generateCorpus({ size: count, seed: 7, outDir: join(work, "corpus") });
  const server = await startModelServer();
  server.script({ text: '{"tags": ["alpha", "beta", "gamma"]}' });

  // One rpc process for the batch: arrival time of each session's line.
  const batchEnv = await agentFolder("batch", corpus, server);
  await recall(["index", "-q"], batchEnv);
  const arrivals = [];
  const batch = await recall(
    ["autotag", "--all-untagged", "--yes", "--json", "-n", String(count)],
    batchEnv,
    (ms) => arrivals.push(ms),
  );
  if (batch.code !== 0) throw new Error(`the batch failed: ${batch.out}`);
  const perSession = arrivals.slice(1, count).map((ms, i) => ms - arrivals[i]);

  // One process per session.
  const eachEnv = await agentFolder("each", corpus, server);
  await recall(["index", "-q"], eachEnv);
  const ids = (await recall(["list", "--json", "-n", String(count)], eachEnv)).out
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l).id);
  const each = [];
  for (const id of ids) each.push((await recall(["autotag", id, "--json"], eachEnv)).ms);

  await server.close();
  process.stdout.write(
    `${JSON.stringify({
      sessions: ids.length,
      requests: server.requests.length,
      rpcBatch: {
        firstMs: Math.round(arrivals[0]),
        perSessionAfterFirstMs: Math.round(median(perSession)),
        totalMs: Math.round(batch.ms),
      },
      processPerSession: {
        firstMs: Math.round(each[0]),
        perSessionAfterFirstMs: Math.round(median(each.slice(1))),
        totalMs: Math.round(each.reduce((a, b) => a + b, 0)),
      },
    })}\n`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
