#!/usr/bin/env node
/**
 * The MCP server's speed (issue 16): `pi_session_search` as a tool call through the official
 * client over stdio, beside the same search in process through the library and beside a literal
 * scan of every session file (what pi-session-recall does for each search), all in one run; and
 * how long the server takes to be ready (spawn → initialize answered). Writes
 * bench/results/mcp-<corpus>-<date>.json and prints a table with each target met / not met.
 *
 *   node bench/mcp.mjs --corpus M|L  [--runs N] [--scan-runs N] [--ready-runs N] [--no-save]
 *   node bench/mcp.mjs --sessions N --corpus-dir DIR --work DIR --results FILE (any size; the smoke
 *   test)
 *   node bench/mcp.mjs --corpus M --cache DIR --match words,both (each match mode in the same
 *   rounds, interleaved: `both` against `words` as a client feels them)
 *
 * `--match` passes `match` to each call and search (without it, the server's default); a mode other
 * than words needs the model (RECALL_MODEL_DIR, else .cache/model-minilm, as the eval finds it) and
 * a built meaning index: `--cache` takes a cache folder that has one (bench/meaning-search.mjs
 * fills one for a corpus) instead of the work folder's.
 *
 * The index is brought up to date first (`recall index`), so every measured call finds it fresh;
 * the server's watches then say nothing changed, as they do for most real calls (a call after a
 * change pays one sync: see BENCHMARKS.md). Rounds interleave
 * the tool call and the in-process search, so a noisy moment of the shared machine hits both.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { generateCorpus } from "./corpus.mjs";
import {
  LIBRARY_URL,
  RECALL_BIN,
  REPO_ROOT,
  benchEnv,
  buildInfo,
  indexCorpus,
  load,
  machineInfo,
  now,
  summarize,
} from "./lib.mjs";
import { QUERIES } from "./queries.mjs";

const MCP_BIN = join(REPO_ROOT, "bin", "recall-mcp.cjs");
/**
 * The queries a tool call can ask as they are (MCP search has no prefix mode; the corpus has no
 * tags here).
 */
const MCP_QUERIES = QUERIES.filter((q) => !q.needsTags && !q.lib.prefix && q.lib.cwd === undefined);
const TARGETS = { p95Ms: 15, speedup: 50, readyMs: 1000 };

const { values } = parseArgs({
  options: {
    corpus: { type: "string", default: "M" },
    seed: { type: "string", default: "1" },
    runs: { type: "string", default: "60" },
    "scan-runs": { type: "string" },
    "ready-runs": { type: "string", default: "10" },
    sessions: { type: "string" },
    "corpus-dir": { type: "string" },
    work: { type: "string" },
    results: { type: "string" },
    "no-save": { type: "boolean", default: false },
    match: { type: "string" },
    cache: { type: "string" },
  },
});
/** The match modes measured, each query in each; [undefined]: the server's default. */
const modes = values.match ? values.match.split(",") : [undefined];
const size = values.sessions ? Number(values.sessions) : values.corpus.toUpperCase();
const label = typeof size === "number" ? `n${size}` : size;
const runs = Number(values.runs);
const scanRuns = Number(values["scan-runs"] ?? (size === "L" ? 1 : 3));
const readyRuns = Number(values["ready-runs"]);
const log = (line) => process.stderr.write(`${line}\n`);

const corpus = await generateCorpus({
  size,
  seed: Number(values.seed),
  outDir: values["corpus-dir"],
  log,
});
const work = values.work ?? join(REPO_ROOT, ".cache", "bench", `mcp-${basename(corpus.outDir)}`);
const env = benchEnv(corpus.agentDir, work);
if (values.cache) env.RECALL_CACHE_DIR = values.cache;
if (modes.some((mode) => mode !== undefined && mode !== "words"))
  env.RECALL_MODEL_DIR = process.env.RECALL_MODEL_DIR ?? join(REPO_ROOT, ".cache", "model-minilm");
Object.assign(process.env, env);

const started = new Date();
const results = {
  schema: 1,
  date: started.toISOString(),
  command: `node bench/mcp.mjs ${process.argv.slice(2).join(" ")}`.trim(),
  machine: machineInfo(),
  build: buildInfo(),
  load: { start: load() },
};
results.corpus = { label, seed: Number(values.seed), files: corpus.files, bytes: corpus.bytes };
results.runs = { rounds: runs, scanRuns, readyRuns };
if (values.match) results.match = modes;

indexCorpus(env, RECALL_BIN, log);

/** `recall watch`, once its lock says the index is fresh (and still does a moment later). */
async function startWatcher() {
  const lockFile = join(env.RECALL_CACHE_DIR, "watch.lock");
  rmSync(lockFile, { force: true });
  const child = spawn(process.execPath, [RECALL_BIN, "watch", "--quiet"], {
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise((resolve) => child.on("exit", resolve));
  const ready = () => existsSync(lockFile) && readFileSync(lockFile, "utf8").trim() === "ready";
  const deadline = Date.now() + 300_000;
  for (let quietSince = now(); now() - quietSince < 200;) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error("recall watch did not get ready");
    if (!ready()) quietSince = now();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return {
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

const serverArgs = [MCP_BIN, "--default-scope", "all"];
const connect = async () => {
  const client = new Client({ name: "recall-bench", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: serverArgs,
      env,
      stderr: "ignore",
    }),
  );
  return client;
};

// Ready: spawn → initialize answered (the client's connect resolves on the answer).
log(`server ready, ${readyRuns} starts…`);
// Beside it, interleaved, `node -e 0`: what starting Node costs on the machine right now, the
// yardstick of how loaded it is (about 21 ms on a quiet one, see the table above).
const ready = [];
const nodeStart = [];
for (let i = 0; i < readyRuns; i++) {
  let t = now();
  const client = await connect();
  ready.push(now() - t);
  await client.close();
  t = now();
  spawnSync(process.execPath, ["-e", "0"], { env, stdio: "ignore" });
  nodeStart.push(now() - t);
}

// Round trips and in-process searches, interleaved.
const client = await connect();
const { Recall } = await import(LIBRARY_URL);
// As the server opens it: watching the session folders, so the two differ by the hop over stdio
// alone.
const recall = Recall.open({ env, live: true });
const mcp = {};
const inproc = {};
/** Each query in each mode: its key, the tool's arguments and the library's search options. */
const asked = MCP_QUERIES.flatMap((q) =>
  modes.map((mode) => ({
    q,
    key: mode === undefined ? q.key : `${q.key}/${mode}`,
    label: mode === undefined ? q.label : `${q.label} (${mode})`,
    tool: { query: q.lib.query, ...(mode === undefined ? {} : { match: mode }) },
    lib: { query: q.lib.query, limit: 10, ...(mode === undefined ? {} : { match: mode }) },
  })),
);
for (const a of asked) {
  const warm = await client.callTool({ name: "pi_session_search", arguments: a.tool });
  if (warm.isError)
    throw new Error(`pi_session_search failed: ${JSON.stringify(warm.structuredContent)}`);
  await recall.search(a.lib);
  mcp[a.key] = { samples: [], hits: warm.structuredContent.results.length };
  inproc[a.key] = { samples: [] };
}
log(`tool calls and in-process searches, ${runs} rounds of ${asked.length} searches…`);
for (let i = 0; i < runs; i++) {
  for (const a of asked) {
    let t = now();
    await client.callTool({ name: "pi_session_search", arguments: a.tool });
    mcp[a.key].samples.push(now() - t);
    t = now();
    await recall.search(a.lib);
    inproc[a.key].samples.push(now() - t);
  }
}

// The same tool calls while `recall watch` runs beside the server (each watches the folders).
log("the same tool calls with recall watch running…");
const watcher = await startWatcher();
const watched = {};
for (const a of asked) watched[a.key] = { samples: [] };
for (let i = 0; i < runs; i++) {
  for (const a of asked) {
    const t = now();
    await client.callTool({ name: "pi_session_search", arguments: a.tool });
    watched[a.key].samples.push(now() - t);
  }
}
await watcher.stop();
await client.close();
recall.close();

// The literal scan: every session file read and searched, case-insensitively, for any of the words.
function sessionFiles(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith(".jsonl")) files.push(join(dir, entry.name));
    else if (entry.isDirectory())
      for (const f of readdirSync(join(dir, entry.name)))
        if (f.endsWith(".jsonl")) files.push(join(dir, entry.name, f));
  }
  return files;
}
const files = sessionFiles(join(corpus.agentDir, "sessions"));
const scan = {};
log(`literal scans of ${files.length} files, ${scanRuns} per query…`);
for (const q of MCP_QUERIES) {
  const needles = q.rg.patterns.map((p) => p.toLowerCase());
  scan[q.key] = { samples: [], files: 0 };
  for (let i = 0; i < scanRuns; i++) {
    const t = now();
    let matched = 0;
    for (const file of files) {
      const text = readFileSync(file, "utf8").toLowerCase();
      if (needles.some((n) => text.includes(n))) matched++;
    }
    scan[q.key].samples.push(now() - t);
    scan[q.key].files = matched;
  }
}
results.load.end = load();

const rows = asked.map((a) => {
  const call = summarize(mcp[a.key].samples);
  const withWatcher = summarize(watched[a.key].samples);
  const lib = summarize(inproc[a.key].samples);
  const literal = summarize(scan[a.q.key].samples, 0);
  return {
    key: a.key,
    label: a.label,
    hits: mcp[a.key].hits,
    scanFiles: scan[a.q.key].files,
    mcp: call,
    mcpWatched: withWatcher,
    inproc: lib,
    scan: literal,
    speedupP50: Number((literal.median / call.median).toFixed(0)),
    speedupP95: Number((literal.median / call.p95).toFixed(0)),
  };
});
results.ready = summarize(ready, 0);
results.nodeStart = summarize(nodeStart, 1);
results.queries = rows;
const worstP95 = Math.max(...rows.map((r) => r.mcp.p95));
const worstWatchedP95 = Math.max(...rows.map((r) => r.mcpWatched.p95));
const worstSpeedup = Math.min(...rows.map((r) => r.speedupP95));
results.targets = {
  p95: {
    target: `p95 <= ${TARGETS.p95Ms} ms${size === "L" ? "" : " (the target is for L)"}`,
    worst: worstP95,
    met: worstP95 <= TARGETS.p95Ms,
  },
  p95Watched: {
    target: `with recall watch running: p95 <= ${TARGETS.p95Ms} ms${size === "L" ? "" : " (the target is for L)"}`,
    worst: worstWatchedP95,
    met: worstWatchedP95 <= TARGETS.p95Ms,
  },
  speedup: {
    target: `>= ${TARGETS.speedup}x the literal scan (scan median / call p95)`,
    worst: worstSpeedup,
    met: worstSpeedup >= TARGETS.speedup,
  },
  ready: {
    target: `ready <= ${TARGETS.readyMs} ms (p95)`,
    p95: results.ready.p95,
    met: results.ready.p95 <= TARGETS.readyMs,
  },
};

const table = [
  `MCP ${label}: ${corpus.files} sessions, ${(corpus.bytes / 1e6).toFixed(0)} MB; load ${results.load.start.join(" ")} → ${results.load.end.join(" ")}`,
  "",
  "| query | hits | tool call p50 | tool call p95 | with `recall watch` p50 | p95 | in process p50 | in process p95 | literal scan p50 | scan ÷ call p95 |",
  "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
  ...rows.map(
    (r) =>
      `| ${r.label} | ${r.hits} | ${r.mcp.median} ms | ${r.mcp.p95} ms | ${r.mcpWatched.median} ms | ${r.mcpWatched.p95} ms | ${r.inproc.median} ms | ${r.inproc.p95} ms | ${r.scan.median} ms | ${r.speedupP95} × |`,
  ),
  "",
  `server ready (spawn → initialize answered): p50 ${results.ready.median} ms, p95 ${results.ready.p95} ms; \`node -e 0\` p50 ${results.nodeStart.median} ms`,
  "",
  ...Object.values(results.targets).map((t) => `${t.met ? "MET" : "NOT MET"}: ${t.target}`),
];
process.stdout.write(`${table.join("\n")}\n`);
if (!values["no-save"]) {
  const file =
    values.results ??
    join(REPO_ROOT, "bench", "results", `mcp-${label}-${started.toISOString().slice(0, 10)}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  log(`wrote ${file}`);
}
