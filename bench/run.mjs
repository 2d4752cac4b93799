#!/usr/bin/env node
/**
 * The benchmark harness (issue 7): one command measures indexing, freshness, `recall search` as a
 * new process, in-process search through the library, opening the picker, and the baselines
 * (`node -e 0`, `rg` over the raw JSONL, Pi's own session list), all in the same run so the ratios
 * mean something on a noisy machine. Writes bench/results/<corpus>-<date>.json and prints a table
 * with every target marked met / not met.
 *
 *   npm run bench -- --corpus M
 *   node bench/run.mjs --corpus S|M|L | --sessions N  [options]
 *
 * Options:
 *   --corpus S|M|L        corpus size (default S); --sessions N for any other count
 *   --seed N              corpus seed (default 1)
 *   --shape output        a corpus whose bytes are mostly tool output (~85 % of the bytes)
 *   --corpus-dir DIR where the corpus is (or is generated); default
 *   .cache/bench/corpus-<size>-<seed> --work DIR recall's cache, data and HOME for the run; default
 *   .cache/bench/run-<corpus folder> --results FILE where to write the JSON (default
 *   bench/results/<corpus>-<date>.json) --no-save do not write a results file --runs N rounds of
 *   `recall search` processes (and baselines) per query --index-runs N full index runs (each from
 *   an empty cache) --inproc-runs N in-process rounds (no-change sync, every query) --picker-runs N
 *   fresh processes opening the picker --append-runs N appended messages --pi-runs N runs of Pi's
 *   SessionManager.listAll() (0 skips it) --quick few runs of everything (the smoke test) --json
 *   print the results JSON instead of the table
 *
 * The corpus is read only, except that the append measurement appends lines to one ~2 MB session
 * and then cuts the file back to its size and resets its times.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { generateCorpus } from "./corpus.mjs";
import {
  REPO_ROOT,
  RECALL_BIN,
  buildInfo,
  folderBytes,
  sameBuild,
  load,
  machineInfo,
  now,
  summarize,
} from "./lib.mjs";
import { PICKER_QUERY, QUERIES, BENCH_TAG, rgArgs } from "./queries.mjs";
import { evaluateTargets, formatTable } from "./report.mjs";

const BENCH_DIR = join(REPO_ROOT, "bench");
/** The in-process key suffix of a query run with `content: ["all"]`. */
const ALL_CONTENT = ":all";
const PI_RUNTIME = join(REPO_ROOT, ".cache", "pi-runtime", "node_modules");
const PI_NODE = join(PI_RUNTIME, ".bin", "node");
const PI_INDEX = join(PI_RUNTIME, "@earendil-works", "pi-coding-agent", "dist", "index.js");

const DEFAULT_RUNS = {
  S: { runs: 10, indexRuns: 3, inprocRuns: 100, pickerRuns: 10, appendRuns: 15, piRuns: 3 },
  M: { runs: 40, indexRuns: 3, inprocRuns: 100, pickerRuns: 15, appendRuns: 15, piRuns: 3 },
  L: { runs: 25, indexRuns: 1, inprocRuns: 100, pickerRuns: 11, appendRuns: 15, piRuns: 1 },
  quick: { runs: 2, indexRuns: 1, inprocRuns: 5, pickerRuns: 2, appendRuns: 2, piRuns: 0 },
};

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      corpus: { type: "string" },
      sessions: { type: "string" },
      seed: { type: "string", default: "1" },
      shape: { type: "string", default: "default" },
      "corpus-dir": { type: "string" },
      work: { type: "string" },
      results: { type: "string" },
      "no-save": { type: "boolean", default: false },
      runs: { type: "string" },
      "index-runs": { type: "string" },
      "inproc-runs": { type: "string" },
      "picker-runs": { type: "string" },
      "append-runs": { type: "string" },
      "pi-runs": { type: "string" },
      quick: { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(
      `${readFileSync(new URL(import.meta.url), "utf8")
        .split("\n")
        .slice(2, 29)
        .map((l) => l.replace(/^ \* ?/, ""))
        .join("\n")}\n`,
    );
    process.exit(0);
  }
  const size = values.sessions ? Number(values.sessions) : (values.corpus ?? "S").toUpperCase();
  if (typeof size === "number" && (!Number.isInteger(size) || size < 1))
    throw new Error(`--sessions must be a positive whole number`);
  if (typeof size === "string" && !["S", "M", "L"].includes(size))
    throw new Error(`--corpus must be S, M or L (or use --sessions N)`);
  const label = `${typeof size === "number" ? `n${size}` : size}${values.shape === "default" ? "" : `-${values.shape}`}`;
  const base = values.quick
    ? DEFAULT_RUNS.quick
    : DEFAULT_RUNS[typeof size === "string" ? size : size >= 5000 ? "L" : size >= 1000 ? "M" : "S"];
  const count = (name, key) => {
    if (values[name] === undefined) return base[key];
    const n = Number(values[name]);
    if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number`);
    return n;
  };
  return {
    size,
    label,
    seed: Number(values.seed),
    shape: values.shape,
    corpusDir: values["corpus-dir"] ? resolve(values["corpus-dir"]) : undefined,
    work: values.work ? resolve(values.work) : undefined,
    results: values.results ? resolve(values.results) : undefined,
    save: !values["no-save"],
    json: values.json,
    quick: values.quick,
    runs: Math.max(1, count("runs", "runs")),
    indexRuns: Math.max(1, count("index-runs", "indexRuns")),
    inprocRuns: Math.max(1, count("inproc-runs", "inprocRuns")),
    pickerRuns: Math.max(1, count("picker-runs", "pickerRuns")),
    appendRuns: count("append-runs", "appendRuns"),
    piRuns: count("pi-runs", "piRuns"),
  };
}

const log = (message) => process.stderr.write(`[bench] ${message}\n`);
const ms = (start) => now() - start;
const r2 = (x) => Math.round(x * 100) / 100;

/** Runs a program to completion and times it from spawn to exit, as a shell would see it. */
function timed(file, args, env, options = {}) {
  const start = now();
  const child = spawnSync(file, args, {
    env,
    encoding: "utf8",
    maxBuffer: 256 << 20,
    stdio: ["ignore", "pipe", "pipe"],
    ...options,
  });
  const wall = ms(start);
  if (child.error) throw child.error;
  return { wall, status: child.status, stdout: child.stdout, stderr: child.stderr };
}

function nodeChild(script, arg, env) {
  const child = timed(process.execPath, [join(BENCH_DIR, script), JSON.stringify(arg)], env);
  if (child.status !== 0)
    throw new Error(`${script} failed (${child.status}): ${child.stderr.trim()}`);
  return { ...JSON.parse(child.stdout.trim().split("\n").at(-1)), processMs: child.wall };
}

function recall(args, env) {
  const child = timed(process.execPath, [RECALL_BIN, ...args], env);
  if (child.status === 2 || child.status === null)
    throw new Error(`recall ${args.join(" ")} failed (${child.status}): ${child.stderr.trim()}`);
  return child;
}

/**
 * `recall watch` in the background, once it says the index is fresh (the word in its lock file,
 * which `recall search` also reads). `untilReady` waits for that again (a sync it ran makes it
 * unready for a moment); `stop` ends it with SIGTERM.
 */
async function startWatcher(env, cacheDir) {
  const lockFile = join(cacheDir, "watch.lock");
  // The word an earlier watcher left (a killed one cannot clear it) must not pass for this one's.
  rmSync(lockFile, { force: true });
  const child = spawn(process.execPath, [RECALL_BIN, "watch", "--quiet"], {
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d) => (stderr += d));
  const exited = new Promise((resolve) => child.on("exit", resolve));
  const ready = () => existsSync(lockFile) && readFileSync(lockFile, "utf8").trim() === "ready";
  // Ready, and still ready a moment later: a watcher that just synced may hear of its own
  // folder listings once more (see src/sync/watch.ts), and would share the cores with the search.
  const untilReady = async () => {
    const deadline = Date.now() + 120_000;
    for (let quietSince = now(); now() - quietSince < 100;) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`recall watch did not get ready: ${stderr.trim()}`);
      if (!ready()) quietSince = now();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  try {
    await untilReady();
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return {
    untilReady,
    stop: async () => {
      child.kill("SIGTERM");
      if ((await exited) !== 0) throw new Error(`recall watch failed: ${stderr.trim()}`);
    },
  };
}

/** A session near 2 MB that is neither a fork nor forked from: its text lives in this file only. */
function appendTarget(manifest, corpusDir) {
  const parents = new Set(manifest.sessions.map((s) => s.parentSessionId).filter(Boolean));
  const candidates = manifest.sessions.filter((s) => !s.parentSession && !parents.has(s.id));
  if (candidates.length === 0) return null;
  const best = candidates.reduce((a, b) =>
    Math.abs(b.bytes - 2e6) < Math.abs(a.bytes - 2e6) ? b : a,
  );
  return { path: join(corpusDir, best.path), sessionId: best.id, bytes: best.bytes };
}

/** `recall tag` exists once the tags work lands; until then the tag query is not measured. */
function tagSupport(env) {
  const help = spawnSync(process.execPath, [RECALL_BIN, "--help"], { env, encoding: "utf8" });
  return /recall tag\b/.test(`${help.stdout}${help.stderr}`);
}

function tagSessions(env) {
  const found = recall(["search", "--json", "--no-sync", "-n", "5", "websocket"], env);
  const ids = found.stdout
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l).id);
  const tagged = [];
  for (const id of ids) {
    const child = timed(process.execPath, [RECALL_BIN, "tag", id, `#${BENCH_TAG}`], env);
    if (child.status !== 0)
      throw new Error(
        `recall tag ${id} #${BENCH_TAG} failed (${child.status}): ${child.stderr.trim()}`,
      );
    tagged.push(id);
  }
  return tagged;
}

async function main() {
  const opts = parseOptions(process.argv.slice(2));
  const started = new Date();
  const machine = machineInfo();
  log(
    `machine: ${machine.nproc} cores, ${machine.memoryGiB} GiB, ${machine.cpuModel}; load ${load().join(" ")}`,
  );
  if (
    !existsSync(join(REPO_ROOT, "dist", "index.js")) ||
    !existsSync(join(REPO_ROOT, "dist", "bundle", "cli.cjs"))
  ) {
    throw new Error("dist/ is not built: run `npm run prepare` first");
  }

  // The corpus.
  const corpus = await generateCorpus({
    size: opts.size,
    seed: opts.seed,
    shape: opts.shape,
    outDir: opts.corpusDir,
    log: opts.json ? () => {} : log,
  });
  const manifest = JSON.parse(readFileSync(corpus.manifestPath, "utf8"));
  const messages = manifest.counts.entryTypes?.message ?? 0;
  log(
    `corpus ${opts.label}: ${corpus.files} files, ${(corpus.bytes / 1e6).toFixed(0)} MB, ${messages} message entries (${corpus.reused ? "reused" : `generated in ${(corpus.ms / 1000).toFixed(1)} s`})`,
  );

  // recall's own folders for this run, outside the corpus.
  const work = opts.work ?? join(REPO_ROOT, ".cache", "bench", `run-${basename(corpus.outDir)}`);
  const cacheDir = join(work, "cache");
  const dataDir = join(work, "data");
  const home = join(work, "home");
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(home, { recursive: true });
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    LANG: "C.UTF-8",
    PI_CODING_AGENT_DIR: corpus.agentDir,
    RECALL_CACHE_DIR: cacheDir,
    RECALL_DATA_DIR: dataDir,
  };

  const results = {
    schema: 1,
    date: started.toISOString(),
    command: `npm run bench -- ${process.argv.slice(2).join(" ")}`.trim(),
    machine,
    build: buildInfo(),
    load: { start: load() },
    corpus: {
      label: opts.label,
      shape: opts.shape,
      seed: opts.seed,
      dir: relative(REPO_ROOT, corpus.outDir) || corpus.outDir,
      files: corpus.files,
      bytes: corpus.bytes,
      messageEntries: messages,
      userAssistantMessages:
        (manifest.counts.messages?.user ?? 0) + (manifest.counts.messages?.assistant ?? 0),
      projects: manifest.projects.length,
    },
    runs: {
      cliRounds: opts.runs,
      indexRuns: opts.indexRuns,
      inprocRounds: opts.inprocRuns,
      pickerRuns: opts.pickerRuns,
      appendRuns: opts.appendRuns,
      piRuns: opts.piRuns,
    },
    queries: QUERIES.map((q) => ({
      key: q.key,
      label: q.label,
      cli: `recall search ${q.cli.join(" ")}`,
      rg: q.rg ? `rg ${rgArgs(q, "<sessions>").join(" ")}` : null,
    })),
    measurements: {},
    notes: [],
  };
  const m = results.measurements;

  // 1. Full index, from an empty cache each time, as `recall index` in a child process.
  log(`full index × ${opts.indexRuns} …`);
  const timeBin = existsSync("/usr/bin/time") ? "/usr/bin/time" : null;
  const index = {
    wallMs: [],
    syncMs: [],
    maxRssKiB: [],
    indexBytes: null,
    cacheBytes: null,
    documents: null,
  };
  results.load.index = load();
  for (let i = 0; i < opts.indexRuns; i++) {
    rmSync(cacheDir, { recursive: true, force: true });
    const rssFile = join(work, "rss.txt");
    const args = [RECALL_BIN, "index", "--json"];
    const child = timeBin
      ? timed(timeBin, ["-f", "%M", "-o", rssFile, process.execPath, ...args], env)
      : timed(process.execPath, args, env);
    if (child.status !== 0)
      throw new Error(`recall index failed (${child.status}): ${child.stderr.trim()}`);
    const summary = child.stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .find((o) => o.type === "summary");
    if (!summary || summary.indexed !== corpus.files)
      throw new Error(
        `recall index read ${summary?.indexed} of ${corpus.files} files: ${child.stdout}`,
      );
    index.wallMs.push(child.wall);
    index.syncMs.push(summary.elapsedMs);
    if (timeBin)
      index.maxRssKiB.push(Number(readFileSync(rssFile, "utf8").trim().split("\n").at(-1)));
    log(
      `  run ${i + 1}: ${(child.wall / 1000).toFixed(2)} s${timeBin ? `, peak RSS ${(index.maxRssKiB.at(-1) / 1024).toFixed(0)} MiB` : ""}`,
    );
  }
  index.indexBytes = folderBytes(join(cacheDir, "index"));
  index.cacheBytes = folderBytes(cacheDir);
  const wall = summarize(index.wallMs);
  m.index = {
    wallMs: wall,
    syncMs: summarize(index.syncMs),
    mbPerS: r2(corpus.bytes / 1e6 / (wall.median / 1000)),
    messagesPerS: Math.round(messages / (wall.median / 1000)),
    peakRssMiB: index.maxRssKiB.length
      ? summarize(
          index.maxRssKiB.map((k) => k / 1024),
          1,
        )
      : null,
    indexBytes: index.indexBytes,
    cacheBytes: index.cacheBytes,
    indexRatio: Number((index.cacheBytes / corpus.bytes).toFixed(4)),
    samples: { wallMs: index.wallMs.map(r2), maxRssKiB: index.maxRssKiB },
  };

  // Tags, when the command exists.
  const tags = { available: tagSupport(env), tagged: [] };
  if (tags.available) {
    try {
      tags.tagged = tagSessions(env);
      log(`tagged ${tags.tagged.length} sessions #${BENCH_TAG}`);
    } catch (error) {
      tags.available = false;
      tags.error = error.message;
      log(`tagging failed, the tag query is skipped: ${error.message}`);
    }
  } else {
    results.notes.push(
      "tag query: n/a (tags not landed: `recall tag` does not exist in this build)",
    );
  }
  m.tags = tags;
  const queries = QUERIES.filter((q) => !q.needsTags || tags.available);

  // 2. In-process: no-change freshness, search latency, appended message until searchable.
  log(`in-process: ${opts.inprocRuns} rounds, ${opts.appendRuns} appends …`);
  results.load.inproc = load();
  const target = appendTarget(manifest, corpus.outDir);
  // Each query twice: the default search (the conversation) and `--content all`.
  const inprocQueries = queries.flatMap((q) => [
    { key: q.key, lib: q.lib },
    { key: `${q.key}${ALL_CONTENT}`, lib: { ...q.lib, content: ["all"] } },
  ]);
  const inproc = nodeChild(
    "inproc.mjs",
    { runs: opts.inprocRuns, appendRuns: opts.appendRuns, queries: inprocQueries, append: target },
    env,
  );
  m.freshness = {
    noChangeSyncMs: summarize(inproc.noChangeSync),
    append: inproc.append
      ? {
          fileBytes: inproc.append.fileBytes,
          totalMs: summarize(inproc.append.totalMs),
          syncMs: summarize(inproc.append.syncMs),
          searchMs: summarize(inproc.append.searchMs),
          found: inproc.append.found,
          runs: inproc.append.runs,
          incremental: inproc.append.appendedReports,
        }
      : null,
  };
  const inProcess = (suffix) =>
    Object.fromEntries(
      queries.map((q) => [
        q.key,
        {
          ...summarize(inproc.search[q.key + suffix].samples, 3),
          hits: inproc.search[q.key + suffix].hits,
        },
      ]),
    );
  m.inProcess = inProcess("");
  m.inProcessAllContent = inProcess(ALL_CONTENT);

  // 3. New processes: `recall search` (with and without the sync, and with `recall watch`
  // running), `node -e 0`, `rg`, interleaved.
  log(
    `processes: ${opts.runs} rounds × (node -e 0, ${queries.length} × recall search with recall watch running, recall search, --no-sync, rg) …`,
  );
  results.load.cli = load();
  const samples = { node: [], cli: {}, cliNoSync: {}, cliWatched: {}, rg: {}, syncOverhead: [] };
  const hits = { cli: {}, rg: {} };
  for (const q of queries) {
    samples.cli[q.key] = [];
    samples.cliNoSync[q.key] = [];
    samples.cliWatched[q.key] = [];
    if (q.rg && machine.rg) samples.rg[q.key] = [];
  }
  for (let round = -1; round < opts.runs; round++) {
    const keep = round >= 0; // round -1 warms the page cache and the CPU
    const node = timed(process.execPath, ["-e", "0"], env);
    if (keep) samples.node.push(node.wall);
    // Each round starts with another query: the first search after the watcher stops runs ~3-5 ms
    // slower than the next ones, and always the same query there would bias its numbers.
    const start = (round + 1) % queries.length;
    const inOrder = [...queries.slice(start), ...queries.slice(0, start)];
    // The same searches while `recall watch` says the index is fresh, so they skip their freshness
    // check.
    const watcher = await startWatcher(env, cacheDir);
    try {
      for (const q of inOrder) {
        await watcher.untilReady();
        const watched = recall(["search", ...q.cli], env);
        if (keep) samples.cliWatched[q.key].push(watched.wall);
      }
    } finally {
      await watcher.stop();
    }
    for (const q of inOrder) {
      const synced = recall(["search", ...q.cli], env);
      const unsynced = recall(["search", "--no-sync", ...q.cli], env);
      hits.cli[q.key] =
        synced.status === 0
          ? synced.stdout.split("\n").filter((l) => /^ {2}\/.*\.jsonl$/.test(l)).length
          : 0;
      if (keep) {
        samples.cli[q.key].push(synced.wall);
        samples.cliNoSync[q.key].push(unsynced.wall);
        samples.syncOverhead.push(synced.wall - unsynced.wall);
      }
      if (q.rg && machine.rg) {
        const rg = timed("rg", rgArgs(q, corpus.sessionsDir), env);
        if (rg.status !== 0 && rg.status !== 1)
          throw new Error(`rg failed (${rg.status}): ${rg.stderr.trim()}`);
        hits.rg[q.key] = rg.stdout.split("\n").filter(Boolean).length;
        if (keep) samples.rg[q.key].push(rg.wall);
      }
    }
  }

  m.nodeFloorMs = summarize(samples.node);
  m.cliSearch = Object.fromEntries(
    queries.map((q) => [
      q.key,
      {
        ...summarize(samples.cli[q.key]),
        hits: hits.cli[q.key],
        noSync: summarize(samples.cliNoSync[q.key]),
        watched: summarize(samples.cliWatched[q.key]),
      },
    ]),
  );
  m.freshness.cliSyncOverheadMs = summarize(samples.syncOverhead);
  if (!machine.rg)
    results.notes.push(
      "rg baseline: not measured (ripgrep is not installed: apt-get install ripgrep)",
    );
  m.rg = Object.fromEntries(
    queries
      .filter((q) => q.rg && machine.rg)
      .map((q) => [q.key, { ...summarize(samples.rg[q.key]), files: hits.rg[q.key] }]),
  );

  // 4. Opening the picker with results, each time in a fresh process.
  log(`picker: ${opts.pickerRuns} fresh processes …`);
  results.load.picker = load();
  const picker = [];
  for (let i = 0; i < opts.pickerRuns; i++) picker.push(nodeChild("picker.mjs", PICKER_QUERY, env));
  const pick = (key) => summarize(picker.map((p) => p[key]));
  m.picker = {
    query: PICKER_QUERY,
    fromOpenMs: pick("fromOpenMs"),
    fromImportMs: pick("fromImportMs"),
    importMs: pick("importMs"),
    openMs: pick("openMs"),
    syncMs: pick("syncMs"),
    searchMs: pick("searchMs"),
    processMs: pick("processMs"),
    hits: picker[0].hits,
  };

  // 5. Pi's own session list, when the pinned Pi runtime is installed.
  m.piListAll = null;
  if (opts.piRuns > 0 && existsSync(PI_NODE) && existsSync(PI_INDEX)) {
    log(`Pi SessionManager.listAll() × ${opts.piRuns} …`);
    results.load.pi = load();
    const runs = [];
    for (let i = 0; i < opts.piRuns; i++) {
      const child = timed(PI_NODE, [join(BENCH_DIR, "pi-list.mjs"), PI_INDEX], env);
      if (child.status !== 0)
        throw new Error(`pi-list.mjs failed (${child.status}): ${child.stderr.trim()}`);
      runs.push({ ...JSON.parse(child.stdout.trim().split("\n").at(-1)), processMs: child.wall });
    }
    m.piListAll = {
      listMs: summarize(runs.map((r) => r.listMs)),
      importMs: summarize(runs.map((r) => r.importMs)),
      processMs: summarize(runs.map((r) => r.processMs)),
      sessions: runs[0].sessions,
    };
  } else if (opts.piRuns > 0) {
    results.notes.push(
      "Pi's SessionManager.listAll(): not measured (no .cache/pi-runtime; run scripts/pi-runtime.sh)",
    );
  }

  results.load.end = load();
  const buildAtEnd = buildInfo();
  if (!sameBuild(buildAtEnd, results.build)) {
    results.buildAtEnd = buildAtEnd;
    results.notes.push(
      "the build (native/recall.node or dist/) changed during this run: some measurements used the new one",
    );
    log("warning: the build changed during the run");
  }
  results.elapsedS = Math.round((Date.now() - started.getTime()) / 1000);
  results.targets = evaluateTargets(results);

  if (opts.save) {
    const file =
      opts.results ??
      join(BENCH_DIR, "results", `${opts.label}-${started.toISOString().slice(0, 10)}.json`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(results, null, 1)}\n`);
    log(`results: ${relative(process.cwd(), file) || file}`);
  }
  if (opts.json) process.stdout.write(`${JSON.stringify(results, null, 1)}\n`);
  else process.stdout.write(`${formatTable(results)}\n`);
}

main().catch((error) => {
  process.stderr.write(`[bench] ${error.stack ?? error}\n`);
  process.exit(2);
});
