#!/usr/bin/env node
// The meaning index on a benchmark corpus (issue 31), in one Node process through the library:
//  1. the word index (`recall.sync()`, timed);
//  2. the real meaning build (`recall.indexMeaning`, the model on one thread) for --embed-seconds,
//     newest messages first: texts per second, the time the whole corpus would take at that rate,
//     and the peak RSS of the process;
//  3. the rest of the store filled with synthetic unit vectors (native/examples/meaning_fill.rs),
//     so a search reads as many vectors as the whole corpus has units (what it costs does not
//     depend on where they point);
//  4. `recall.search` by words, meaning and both for the bench queries, the query's embedding
//     included: p50/p95 over --runs after a warm-up; and the sizes on disk of the two indexes.
//
//   node bench/meaning-search.mjs --agent <corpus agent folder> [--runs 30] [--embed-seconds 60]
//        [--cache DIR] [--json]
//
// The corpus is only read (its cache goes to --cache, default .cache/bench/meaning-search/cache:
// one per corpus, or each run indexes the other corpus again); the model is found as
// the eval finds it (RECALL_MODEL_DIR, else .cache/model-minilm).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { folderBytes, LIBRARY_URL, machineInfo, now, REPO_ROOT, summarize } from "./lib.mjs";
import { QUERIES } from "./queries.mjs";

const { values } = parseArgs({
  options: {
    agent: { type: "string" },
    runs: { type: "string", default: "30" },
    "embed-seconds": { type: "string", default: "60" },
    cache: { type: "string" },
    json: { type: "boolean", default: false },
  },
});
if (!values.agent) throw new Error("--agent <corpus agent folder> is required");
const modelDir = process.env.RECALL_MODEL_DIR ?? join(REPO_ROOT, ".cache", "model-minilm");
if (!existsSync(join(modelDir, "model.onnx")))
  throw new Error(`no model package in ${modelDir} (scripts/model-package.sh)`);
const cacheDir = values.cache ?? join(REPO_ROOT, ".cache", "bench", "meaning-search", "cache");
mkdirSync(cacheDir, { recursive: true });
const log = (m) => process.stderr.write(`${m}\n`);

const { Recall } = await import(LIBRARY_URL);
const recall = Recall.open({
  env: {
    PI_CODING_AGENT_DIR: values.agent,
    RECALL_CACHE_DIR: cacheDir,
    RECALL_MODEL_DIR: modelDir,
  },
});
const result = { machine: machineInfo() };

let t = now();
const synced = await recall.sync();
result.wordIndex = { ms: now() - t, indexed: synced.indexed };
log(`word index: ${synced.indexed} files indexed in ${((now() - t) / 1000).toFixed(1)} s`);

const before = await recall.meaning.coverage();
const stop = new AbortController();
const timer = setTimeout(() => stop.abort(), Number(values["embed-seconds"]) * 1000);
t = now();
const built = await recall.meaning.build({ signal: stop.signal });
clearTimeout(timer);
const seconds = (now() - t) / 1000;
const perSecond = built.added / seconds;
result.build = {
  added: built.added,
  seconds,
  textsPerSecond: perSecond,
  messages: built.messages,
  alreadyEmbedded: before.embedded,
  projectedMinutes: (built.messages - before.embedded) / perSecond / 60,
  peakRssMb: process.resourceUsage().maxRSS / 1024,
};
log(
  `meaning build: ${built.added} texts in ${seconds.toFixed(1)} s (${perSecond.toFixed(1)}/s); ${built.messages} messages would take ${result.build.projectedMinutes.toFixed(1)} min; peak RSS ${result.build.peakRssMb.toFixed(0)} MB`,
);

// The store's identity as the library names it (the model's package, version and arithmetic).
const { modelIdentity } = await import(new URL("../dist/api/meaning.js", import.meta.url).href);
const identity = modelIdentity(modelDir);
const filled = execFileSync(
  join(REPO_ROOT, "native", "target", "release", "examples", "meaning_fill"),
  [cacheDir, identity],
  { encoding: "utf8" },
).trim();
log(`store filled: ${filled}`);
result.sizes = {
  wordIndexBytes: folderBytes(join(cacheDir, "index")),
  meaningBytes: folderBytes(join(cacheDir, "meaning")),
  coverage: await recall.meaning.coverage(),
};
if (result.sizes.coverage.embedded < result.sizes.coverage.messages)
  throw new Error(
    `the filled store covers ${result.sizes.coverage.embedded} of ${result.sizes.coverage.messages} messages: not the library's identity?`,
  );

result.search = {};
const runs = Number(values.runs);
for (const match of ["words", "meaning", "both"]) {
  for (const { key, lib } of QUERIES.filter((q) => q.lib && !q.lib.prefix)) {
    const search = () => recall.search({ ...lib, limit: 20, sync: false, match });
    await search();
    const samples = [];
    for (let i = 0; i < runs; i++) {
      t = now();
      await search();
      samples.push(now() - t);
    }
    result.search[`${match}:${key}`] = summarize(samples);
  }
}
recall.close();

if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
else {
  console.log(
    `sizes: word index ${(result.sizes.wordIndexBytes / 1e6).toFixed(1)} MB, meaning index ${(result.sizes.meaningBytes / 1e6).toFixed(1)} MB (${result.sizes.coverage.messages} messages)`,
  );
  for (const [name, s] of Object.entries(result.search))
    console.log(
      `${name.padEnd(28)} p50 ${String(s.median).padStart(7)} ms  p95 ${String(s.p95).padStart(7)} ms`,
    );
}
