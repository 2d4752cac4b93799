#!/usr/bin/env node
/**
 * recall beside the seed's own implementation (joshbochu/pi-recall, the project the first seed
 * describes): its engine built from its public source in a scratch folder, driven in process
 * under Node 22 beside recall's library, on the same corpus, with the same queries, interleaved
 * (bench/seed-inproc.mjs).
 *
 *   node bench/seed-baseline.mjs --seed-source DIR [--corpus M] [--runs 200] [--content all]
 *   [--busy 2]
 *
 *   --seed-source DIR   a checkout (or `git archive`) of joshbochu/pi-recall; built once into
 *                       .cache/bench/seed-engine/<hash of its sources> (cargo, ~5 min on 2 cores)
 *   --corpus S|M|L      the corpus of `npm run bench` (generated if missing); default M
 *   --runs N            rounds over the query set; default 200
 *   --content KINDS     recall searches these kinds of text (`--content` of `recall search`); the
 *                       seed indexes conversation only, so it searches that either way
 *   --busy N            N busy processes (each a loop on one core) run beside the measurement, as
 *                       other work on the machine would; each stops when it ends, or after 30 min
 *   --node PATH         Node >= 22 to run under; default the Pi runtime's (.cache/pi-runtime)
 *   --json              print the result as JSON instead of the table
 *
 * Writes bench/results/seed-<corpus>[-<content>][-busy<N>]-<date>.json. The `#tag` query is left
 * out: tags live in each tool's own store.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { build } from "esbuild";
import { generateCorpus } from "./corpus.mjs";
import { load, machineInfo, REPO_ROOT, summarize } from "./lib.mjs";
import { QUERIES } from "./queries.mjs";

const { values } = parseArgs({
  options: {
    "seed-source": { type: "string" },
    corpus: { type: "string", default: "M" },
    seed: { type: "string", default: "1" },
    runs: { type: "string", default: "200" },
    content: { type: "string" },
    busy: { type: "string", default: "0" },
    node: {
      type: "string",
      default: join(REPO_ROOT, ".cache", "pi-runtime", "node_modules", ".bin", "node"),
    },
    json: { type: "boolean", default: false },
  },
});
if (!values["seed-source"])
  throw new Error(
    "usage: node bench/seed-baseline.mjs --seed-source <checkout of joshbochu/pi-recall> [--corpus M] [--runs 200] [--content all] [--busy 2]",
  );
if (!existsSync(values.node))
  throw new Error(`no Node 22 at ${values.node}: run scripts/pi-runtime.sh, or pass --node`);
const busy = Number(values.busy);
if (!Number.isInteger(busy) || busy < 0) throw new Error("--busy must be a whole number");
const log = values.json ? () => {} : (line) => process.stderr.write(`${line}\n`);

/** Every file of the seed's engine that its build reads, hashed: a changed source builds again. */
function sourceHash(dir) {
  const hash = createHash("sha256");
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else hash.update(relative(dir, path)).update(readFileSync(path));
    }
  };
  for (const part of [
    "native/src",
    "native/Cargo.toml",
    "native/Cargo.lock",
    "native/build.rs",
    "src",
  ]) {
    const path = join(dir, part);
    if (!existsSync(path))
      throw new Error(`${dir} is not a checkout of joshbochu/pi-recall: it has no ${part}`);
    if (part.includes(".")) hash.update(part).update(readFileSync(path));
    else walk(path);
  }
  return hash.digest("hex").slice(0, 12);
}

/** Builds the seed's addon and bundles its index module; returns the module's path. */
async function buildSeed(source) {
  const folder = join(REPO_ROOT, ".cache", "bench", "seed-engine", sourceHash(source));
  const module = join(folder, "src", "recall-index.bundle.mjs");
  if (!existsSync(join(folder, "native", "pi-recall-native-v2.node"))) {
    log(`building the seed's engine from ${source} in ${folder} (cargo build --release) …`);
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    // A cargo target folder the checkout has comes along: its dependencies need not compile again.
    for (const part of ["native", "src", "scripts"])
      cpSync(join(source, part), join(folder, part), { recursive: true });
    // Its own build script: cargo build --release, then the addon copied to where its loader looks.
    const built = spawnSync(process.execPath, [join(folder, "scripts", "build-native.mjs")], {
      cwd: folder,
      stdio: ["ignore", "inherit", "inherit"],
    });
    if (built.status !== 0)
      throw new Error(`building the seed's engine failed (exit ${built.status})`);
  }
  // One ES module beside its sources, so its loader's `../native/…` still resolves. It parses
  // session files with Pi's own parser: Pi stays a package of its own (this repository's pinned
  // dev copy, found up the folder tree), as it is for the seed inside Pi.
  await build({
    entryPoints: [join(folder, "src", "recall-index.ts")],
    outfile: module,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    external: ["@earendil-works/*"],
    logLevel: "warning",
  });
  return module;
}

const seedModule = await buildSeed(resolve(values["seed-source"]));
const corpus = await generateCorpus({ size: values.corpus, seed: Number(values.seed), log });
const work = join(REPO_ROOT, ".cache", "bench", `seed-run-${basename(corpus.outDir)}`);
const seedCache = join(work, "seed-cache");
mkdirSync(seedCache, { recursive: true });
const env = {
  PATH: process.env.PATH,
  HOME: join(work, "home"),
  LANG: "C.UTF-8",
  PI_CODING_AGENT_DIR: join(corpus.outDir, "agent"),
  // recall's index of the corpus in `npm run bench`'s work folder, if that ran; else made here.
  RECALL_CACHE_DIR: join(REPO_ROOT, ".cache", "bench", `run-${basename(corpus.outDir)}`, "cache"),
  RECALL_DATA_DIR: join(work, "recall-data"),
};
const queries = QUERIES.filter((q) => !q.needsTags);
const recallOptions = values.content ? { content: values.content.split(",") } : {};
const params = {
  seedModule: `file://${seedModule}`,
  agentDir: env.PI_CODING_AGENT_DIR,
  seedCache,
  runs: Number(values.runs),
  queries,
  recallOptions,
};

log(
  `corpus ${values.corpus}: ${corpus.files} files; ${values.runs} interleaved rounds of ${queries.length} queries under ${execFileSync(values.node, ["--version"], { encoding: "utf8" }).trim()} …`,
);
// Other work on the machine: loops that end with the measurement, or by themselves after 30 min.
const BUSY_LIMIT_MS = 30 * 60_000;
const busyLoops = Array.from({ length: busy }, () =>
  spawn(
    process.execPath,
    ["-e", `const end = Date.now() + ${BUSY_LIMIT_MS}; while (Date.now() < end);`],
    { stdio: "ignore" },
  ),
);
const loadAtStart = load();
const started = new Date();
let child;
try {
  child = spawnSync(
    values.node,
    [join(REPO_ROOT, "bench", "seed-inproc.mjs"), JSON.stringify(params)],
    { env, encoding: "utf8", maxBuffer: 256 << 20, stdio: ["ignore", "pipe", "inherit"] },
  );
} finally {
  for (const loop of busyLoops) loop.kill();
}
if (child.status !== 0) throw new Error(`bench/seed-inproc.mjs failed (exit ${child.status})`);
const measured = JSON.parse(child.stdout);

const rows = Object.entries(measured.queries).map(([key, q]) => ({
  key,
  label: q.label,
  seed: { ...summarize(q.seed.samples), hits: q.seed.hits },
  recall: { ...summarize(q.recall.samples), hits: q.recall.hits },
}));
const all = (engine) =>
  summarize(Object.values(measured.queries).flatMap((q) => q[engine].samples));
const overall = { seed: all("seed"), recall: all("recall") };
const result = {
  date: started.toISOString(),
  command: `node bench/seed-baseline.mjs --corpus ${values.corpus} --runs ${values.runs}${values.content ? ` --content ${values.content}` : ""}${busy ? ` --busy ${busy}` : ""}`,
  machine: machineInfo(),
  node: execFileSync(values.node, ["--version"], { encoding: "utf8" }).trim(),
  seedSource: {
    path: resolve(values["seed-source"]),
    commit: existsSync(join(values["seed-source"], "SOURCE_COMMIT"))
      ? readFileSync(join(values["seed-source"], "SOURCE_COMMIT"), "utf8").trim()
      : null,
  },
  corpus: { size: values.corpus, files: corpus.files, bytes: corpus.bytes },
  load: { start: loadAtStart, end: load() },
  content: values.content ?? "conversation",
  busyProcesses: busy,
  seedIndex: measured.seedIndex,
  peakRssMiB: measured.peakRssMiB,
  overall,
  queries: rows,
};
mkdirSync(join(REPO_ROOT, "bench", "results"), { recursive: true });
const out = join(
  REPO_ROOT,
  "bench",
  "results",
  `seed-${values.corpus}${values.content ? `-${values.content.replace(/,/g, "+")}` : ""}${busy ? `-busy${busy}` : ""}-${started.toISOString().slice(0, 10)}.json`,
);
writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);

if (values.json) {
  process.stdout.write(`${JSON.stringify(result)}\n`);
} else {
  const ratio = (a, b) => (a && b ? `${(a / b).toFixed(2)} ×` : "–");
  const lines = [
    `| query | seed p50 | seed p95 | recall p50 | recall p95 | p95 seed / recall | hits seed / recall |`,
    `|---|--:|--:|--:|--:|--:|--:|`,
    ...rows.map(
      (r) =>
        `| ${r.label} | ${r.seed.median} | ${r.seed.p95} | ${r.recall.median} | ${r.recall.p95} | ${ratio(r.seed.p95, r.recall.p95)} | ${r.seed.hits} / ${r.recall.hits} |`,
    ),
    `| **all queries** | ${overall.seed.median} | ${overall.seed.p95} | ${overall.recall.median} | ${overall.recall.p95} | **${ratio(overall.seed.p95, overall.recall.p95)}** | |`,
  ];
  log(
    `seed index: ${(measured.seedIndex.ms / 1000).toFixed(1)} s for ${measured.seedIndex.indexed} files; ${busy} busy processes beside it; load ${loadAtStart.join(" ")} → ${result.load.end.join(" ")}; written to ${relative(REPO_ROOT, out)}`,
  );
  process.stdout.write(`${lines.join("\n")}\n`);
}
