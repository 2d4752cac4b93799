#!/usr/bin/env node
/**
 * Interleaved A/B runs of two builds of the CLI: on a shared, noisy machine, the difference of two
 * runs made minutes apart is mostly the machine, so each round runs `node -e 0`, build A and build
 * B one after the other (alternating which build goes first), as a shell would, and the verdict
 * compares p10/p50 over the rounds.
 *
 *   node bench/ab.mjs --corpus L --runs 120 <folder A> <folder B> [-- search websocket reconnect]
 *
 * With --inproc, each round runs bench/inproc.mjs once per build instead (every query of
 * queries.mjs but the #tag one, conversation and `--content all`, --per-round searches of each in
 * one process) and it prints p50 and p95 per query over all rounds: the in-process latency of
 * `npm run bench`, for a change of the native core.
 *
 * A build folder holds `bin/recall.cjs` and `dist/` as `npm run build` leaves them (a copy of the
 * repository's, with `native/` and `node_modules/` beside them, e.g. as symbolic links). Both
 * builds search the index that `npm run bench -- --corpus <size>` made, in its work folder; run
 * that (or `recall index` with the same environment) first.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { REPO_ROOT, now } from "./lib.mjs";
import { QUERIES } from "./queries.mjs";

// What follows `--` is the command line, split off first: parseArgs would drop the `--`.
const argv = process.argv.slice(2);
const separator = argv.indexOf("--");
const { values, positionals } = parseArgs({
  args: separator < 0 ? argv : argv.slice(0, separator),
  allowPositionals: true,
  options: {
    corpus: { type: "string", default: "L" },
    seed: { type: "string", default: "1" },
    runs: { type: "string", default: "120" },
    inproc: { type: "boolean", default: false },
    "per-round": { type: "string", default: "20" },
  },
});
const builds = positionals.map((folder) => resolve(folder));
const args = separator < 0 ? ["search", "websocket", "reconnect"] : argv.slice(separator + 1);
if (builds.length !== 2)
  throw new Error(
    "usage: node bench/ab.mjs [--corpus L] [--runs N] <folder A> <folder B> [-- recall arguments]",
  );
for (const build of builds)
  if (!existsSync(join(build, "bin", "recall.cjs")))
    throw new Error(`${build} has no bin/recall.cjs`);

const corpus = join(REPO_ROOT, ".cache", "bench", `corpus-${values.corpus}-${values.seed}`);
const work = join(REPO_ROOT, ".cache", "bench", `run-corpus-${values.corpus}-${values.seed}`);
// The environment of bench/run.mjs: nothing inherited that changes how Node starts.
const env = {
  PATH: process.env.PATH,
  HOME: join(work, "home"),
  LANG: "C.UTF-8",
  PI_CODING_AGENT_DIR: join(corpus, "agent"),
  RECALL_CACHE_DIR: join(work, "cache"),
  RECALL_DATA_DIR: join(work, "data"),
};

function wall(argv) {
  const start = now();
  const child = spawnSync(process.execPath, argv, {
    env,
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 64 << 20,
  });
  const ms = now() - start;
  if (child.status !== 0 && child.status !== 1)
    throw new Error(`node ${argv.join(" ")} failed (${child.status}): ${child.stderr}`);
  return ms;
}

const at = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
const rounds = Number(values.runs);
const label = (name) => `${name} ${builds[name === "A" ? 0 : 1]}`;

if (values.inproc) {
  const queries = QUERIES.filter((q) => !q.needsTags).flatMap((q) => [
    { key: q.key, lib: q.lib },
    { key: `${q.key} (all)`, lib: { ...q.lib, content: ["all"] } },
  ]);
  const searches = { A: {}, B: {} };
  for (let round = 0; round < rounds; round++) {
    for (const name of round % 2 === 0 ? ["A", "B"] : ["B", "A"]) {
      const params = {
        runs: Number(values["per-round"]),
        appendRuns: 0,
        queries,
        append: null,
        library: join(builds[name === "A" ? 0 : 1], "dist", "index.js"),
      };
      const child = spawnSync(
        process.execPath,
        [join(REPO_ROOT, "bench", "inproc.mjs"), JSON.stringify(params)],
        { env, encoding: "utf8", maxBuffer: 64 << 20 },
      );
      if (child.status !== 0)
        throw new Error(`inproc.mjs failed for ${label(name)} (${child.status}): ${child.stderr}`);
      for (const [key, { samples }] of Object.entries(JSON.parse(child.stdout).search))
        (searches[name][key] ??= []).push(...samples);
    }
  }
  console.log(
    `in-process searches: ${rounds} interleaved rounds × ${values["per-round"]} on ${values.corpus}; A = ${builds[0]}, B = ${builds[1]}`,
  );
  console.log("| query | A p50 | B p50 | A p95 | B p95 |\n|---|--:|--:|--:|--:|");
  const worst = { A: 0, B: 0 };
  for (const { key } of queries) {
    const [a, b] = ["A", "B"].map((name) => [...searches[name][key]].sort((x, y) => x - y));
    worst.A = Math.max(worst.A, at(a, 95));
    worst.B = Math.max(worst.B, at(b, 95));
    console.log(
      `| ${key} | ${at(a, 50).toFixed(2)} | ${at(b, 50).toFixed(2)} | ${at(a, 95).toFixed(2)} | ${at(b, 95).toFixed(2)} |`,
    );
  }
  console.log(`worst query p95 (ms): A ${worst.A.toFixed(2)}, B ${worst.B.toFixed(2)}`);
  process.exit(0);
}

const samples = { "node -e 0": [], A: [], B: [] };
// A warm-up round first, not counted: it writes the builds' code caches.
for (let round = -1; round < rounds; round++) {
  const order = round % 2 === 0 ? ["A", "B"] : ["B", "A"];
  const times = { "node -e 0": wall(["-e", "0"]) };
  for (const name of order)
    times[name] = wall([join(builds[name === "A" ? 0 : 1], "bin", "recall.cjs"), ...args]);
  if (round >= 0) for (const [name, ms] of Object.entries(times)) samples[name].push(ms);
}

const base = [...samples["node -e 0"]].sort((a, b) => a - b);
console.log(`recall ${args.join(" ")}: ${rounds} interleaved rounds on ${values.corpus}`);
for (const [name, list] of Object.entries(samples)) {
  const sorted = [...list].sort((a, b) => a - b);
  console.log(
    `${name === "node -e 0" ? name : label(name)}: p10 ${at(sorted, 10).toFixed(1)} ms, p50 ${at(sorted, 50).toFixed(1)} ms (${(at(sorted, 50) / at(base, 50)).toFixed(2)} × node -e 0)`,
  );
}
