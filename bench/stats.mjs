#!/usr/bin/env node
/**
 * The pictures of the work and the export (issue 42): `Recall.stats` over every session, in
 * process, cold (the first call, no stats cache) and warm (the calls after it in the same process,
 * as the activity page of `recall serve` makes them, with the freshness check and without it; and
 * the first call of a new process with the cache on disk), a window of the last 30 days of the
 * corpus, `recall stats` as a command, and `recall export` of the corpus's largest session to
 * Markdown and to HTML. Every answer is checked to be the cold one's; `--against DIR` also counts
 * once with another build's library (a checkout with its dist/ built: the build before a change)
 * and checks that it gives the same answer.
 *
 *   node bench/stats.mjs --corpus M|L | --sessions N [--seed 1] [--rounds N] [--against DIR]
 *   [--work DIR] [--json]
 *
 * The corpus is generated (or reused) by corpus.mjs; recall's cache, data and HOME live in
 * `.cache/bench/stats-<corpus folder>/` (the index is built there once, then brought up to date).
 * Results go to bench/results/stats-<corpus>-<date>.json (`--no-save`: not written).
 */
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { isDeepStrictEqual, parseArgs } from "node:util";
import { REFERENCE_DATE, generateCorpus } from "./corpus.mjs";
import { RECALL_BIN, REPO_ROOT, buildInfo, load, machineInfo, now, summarize } from "./lib.mjs";

const { values } = parseArgs({
  options: {
    corpus: { type: "string" },
    sessions: { type: "string" },
    seed: { type: "string", default: "1" },
    "corpus-dir": { type: "string" },
    rounds: { type: "string" },
    against: { type: "string" },
    work: { type: "string" },
    results: { type: "string" },
    "no-save": { type: "boolean", default: false },
    json: { type: "boolean", default: false },
  },
});
const size = values.sessions ? Number(values.sessions) : (values.corpus ?? "M").toUpperCase();
if (typeof size === "number" && (!Number.isInteger(size) || size < 1))
  throw new Error("--sessions must be a positive whole number");
if (typeof size === "string" && !["S", "M", "L"].includes(size))
  throw new Error("--corpus must be S, M or L (or use --sessions N)");
const label = typeof size === "number" ? `n${size}` : size;
const rounds = values.rounds === undefined ? 5 : Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1)
  throw new Error("--rounds must be a positive whole number");
const log = (line) => !values.json && process.stderr.write(`[stats] ${line}\n`);
const BENCH_DIR = join(REPO_ROOT, "bench");
/** Calls of `Recall.stats` in one process: the first cold, the others warm. */
const CALLS = 4;
const WINDOW_SINCE = Date.parse(REFERENCE_DATE) - 30 * 24 * 3600_000;

if (
  !existsSync(join(REPO_ROOT, "dist", "index.js")) ||
  !existsSync(join(REPO_ROOT, "dist", "bundle", "cli.cjs"))
)
  throw new Error("dist/ is not built: run `npm run prepare` first");

const corpus = await generateCorpus({
  size,
  seed: Number(values.seed),
  outDir: values["corpus-dir"] ? resolve(values["corpus-dir"]) : undefined,
  log: values.json ? () => {} : log,
});
const manifest = JSON.parse(readFileSync(corpus.manifestPath, "utf8"));
const work = values.work
  ? resolve(values.work)
  : join(REPO_ROOT, ".cache", "bench", `stats-${basename(corpus.outDir)}`);
const cacheDir = join(work, "cache");
const cacheFile = join(cacheDir, "stats-facts.bin");
mkdirSync(join(work, "home"), { recursive: true });
const env = {
  PATH: process.env.PATH,
  HOME: join(work, "home"),
  LANG: "C.UTF-8",
  TZ: "UTC",
  PI_CODING_AGENT_DIR: corpus.agentDir,
  RECALL_CACHE_DIR: cacheDir,
  RECALL_DATA_DIR: join(work, "data"),
};

function run(file, args) {
  const start = now();
  const child = spawnSync(file, args, {
    env,
    encoding: "utf8",
    maxBuffer: 256 << 20,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const wall = now() - start;
  if (child.error) throw child.error;
  if (child.status !== 0)
    throw new Error(
      `${basename(file)} ${args.join(" ")} failed (${child.status}): ${child.stderr.trim()}`,
    );
  return { wall, stdout: child.stdout, stderr: child.stderr };
}

function inProcess(request) {
  const child = run(process.execPath, [
    join(BENCH_DIR, "stats-inproc.mjs"),
    JSON.stringify({ cacheFile, ...request }),
  ]);
  return JSON.parse(child.stdout.trim().split("\n").at(-1));
}

/** Wall time, and peak RSS where /usr/bin/time is there. */
function timedCommand(args) {
  const time = existsSync("/usr/bin/time");
  const child = time
    ? run("/usr/bin/time", ["-f", "%M", process.execPath, RECALL_BIN, ...args])
    : run(process.execPath, [RECALL_BIN, ...args]);
  return {
    wall: child.wall,
    rssMiB: time ? Number(child.stderr.trim().split("\n").at(-1)) / 1024 : null,
  };
}

const started = new Date();
const results = {
  schema: 1,
  date: started.toISOString(),
  command: `node bench/stats.mjs ${process.argv.slice(2).join(" ")}`.trim(),
  machine: machineInfo(),
  build: buildInfo(),
  load: { start: load() },
  corpus: {
    label,
    seed: Number(values.seed),
    files: corpus.files,
    bytes: corpus.bytes,
    messages: (manifest.counts.messages?.user ?? 0) + (manifest.counts.messages?.assistant ?? 0),
  },
  rounds,
};

log(
  `corpus ${label}: ${corpus.files} files, ${(corpus.bytes / 1e6).toFixed(0)} MB; index in ${cacheDir}`,
);
const indexStart = now();
run(process.execPath, [RECALL_BIN, "index", "--quiet"]);
log(`index up to date in ${((now() - indexStart) / 1000).toFixed(1)} s`);

const cold = [];
const warm = [];
const coldCpu = [];
const warmCpu = [];
const newProcess = [];
const newProcessCpu = [];
const unsynced = [];
const unsyncedCpu = [];
const windowed = [];
const command = [];
const floor = [];
let same = true;
let reference;
for (let round = 0; round < rounds; round++) {
  const first = inProcess({
    cold: true,
    calls: CALLS,
    unsynced: CALLS - 1,
    since: WINDOW_SINCE,
    answers: round === 0,
  });
  cold.push(first.callsMs[0]);
  warm.push(...first.callsMs.slice(1));
  coldCpu.push(first.cpuMs[0]);
  warmCpu.push(...first.cpuMs.slice(1));
  unsynced.push(...first.unsyncedMs);
  unsyncedCpu.push(...first.unsyncedCpuMs);
  windowed.push(first.windowMs);
  const again = inProcess({ cold: false, calls: 1, answers: round === 0 });
  newProcess.push(again.callsMs[0]);
  newProcessCpu.push(again.cpuMs[0]);
  same &&= first.same && again.same;
  if (round === 0) {
    reference = first.answer;
    same &&= isDeepStrictEqual(again.answer, reference);
    results.answer = {
      sessions: first.sessions,
      messages: first.messages,
      cacheBytes: statSync(cacheFile).size,
    };
  }
  floor.push(run(process.execPath, ["-e", "0"]).wall);
  command.push(run(process.execPath, [RECALL_BIN, "stats", "--json"]).wall);
  log(
    `round ${round + 1}/${rounds}: cold ${first.callsMs[0].toFixed(0)} ms, warm ${first.callsMs
      .slice(1)
      .map((x) => x.toFixed(1))
      .join(
        " ",
      )} ms, new process ${again.callsMs[0].toFixed(1)} ms, window ${first.windowMs.toFixed(1)} ms; load ${load()[0]}`,
  );
}
results.stats = {
  coldMs: summarize(cold),
  coldCpuMs: summarize(coldCpu),
  warmMs: summarize(warm),
  warmCpuMs: summarize(warmCpu),
  warmUnsyncedMs: summarize(unsynced),
  warmUnsyncedCpuMs: summarize(unsyncedCpu),
  newProcessWarmMs: summarize(newProcess),
  newProcessWarmCpuMs: summarize(newProcessCpu),
  window30dWarmMs: summarize(windowed),
  commandMs: summarize(command),
  nodeFloorMs: summarize(floor),
  sameAnswer: same,
};

if (values.against) {
  const library = pathToFileURL(join(resolve(values.against), "dist", "index.js")).href;
  const before = inProcess({ library, cold: true, calls: 1, answers: true });
  results.stats.against = {
    dir: resolve(values.against),
    firstCallMs: before.callsMs[0],
    sameAnswer: isDeepStrictEqual(before.answer, reference),
  };
  log(
    `against ${values.against}: ${before.callsMs[0].toFixed(0)} ms, the same answer: ${results.stats.against.sameAnswer}`,
  );
}

// The export of the largest session.
const largest = [...manifest.sessions].sort((a, b) => b.bytes - a.bytes)[0];
const sessionPath = join(dirname(corpus.manifestPath), largest.path);
const out = mkdtempSync(join(tmpdir(), "recall-bench-export-"));
results.export = { session: { id: largest.id, bytes: largest.bytes, entries: largest.entries } };
try {
  for (const format of ["md", "html"]) {
    const file = join(out, `x.${format}`);
    const samples = [];
    for (let round = 0; round < rounds; round++)
      samples.push(timedCommand(["export", sessionPath, "--format", format, "-o", file]));
    results.export[format] = {
      wallMs: summarize(samples.map((s) => s.wall)),
      peakRssMiB: samples[0].rssMiB === null ? null : summarize(samples.map((s) => s.rssMiB)),
      outBytes: statSync(file).size,
    };
    log(
      `export --format ${format}: ${results.export[format].wallMs.median} ms, ${(results.export[format].outBytes / 1e6).toFixed(1)} MB out`,
    );
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
results.load.end = load();

if (!values["no-save"]) {
  const file = values.results
    ? resolve(values.results)
    : join(BENCH_DIR, "results", `stats-${label}-${started.toISOString().slice(0, 10)}.json`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  log(`results in ${file}`);
}
if (values.json) process.stdout.write(`${JSON.stringify(results)}\n`);
else {
  const s = results.stats;
  const row = (name, stat) => `| ${name} | ${stat.median} | ${stat.p95} | ${stat.n} |`;
  const lines = [
    `corpus ${label} (${corpus.files} sessions, ${results.answer.messages} messages counted), load ${results.load.start[0]}–${results.load.end[0]}; the same answer every time: ${s.sameAnswer}`,
    "| measured (ms) | median | p95 | n |",
    "|---|--:|--:|--:|",
    row("Recall.stats cold (no cache)", s.coldMs),
    row("  its processor time", s.coldCpuMs),
    row("Recall.stats warm (in process)", s.warmMs),
    row("  its processor time", s.warmCpuMs),
    row("Recall.stats warm, sync: false", s.warmUnsyncedMs),
    row("  its processor time", s.warmUnsyncedCpuMs),
    row("Recall.stats, new process, cache on disk", s.newProcessWarmMs),
    row("  its processor time", s.newProcessWarmCpuMs),
    row("Recall.stats --since 30 days, warm", s.window30dWarmMs),
    row("recall stats --json (command)", s.commandMs),
    row("node -e 0", s.nodeFloorMs),
    row(
      `recall export --format md (${(largest.bytes / 1e6).toFixed(1)} MB session)`,
      results.export.md.wallMs,
    ),
    row("recall export --format html", results.export.html.wallMs),
  ];
  if (s.against)
    lines.push(
      `against ${s.against.dir}: first call ${s.against.firstCallMs.toFixed(0)} ms, the same answer: ${s.against.sameAnswer}`,
    );
  process.stdout.write(`${lines.join("\n")}\n`);
}
if (!results.stats.sameAnswer || results.stats.against?.sameAnswer === false) process.exitCode = 1;
