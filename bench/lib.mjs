/**
 * Small helpers shared by the benchmark scripts: statistics, timing, the machine, file sizes,
 * recall's folders.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
export const RECALL_BIN = join(REPO_ROOT, "bin", "recall.cjs");
export const LIBRARY_URL = new URL("../dist/index.js", import.meta.url).href;

export const now = () => performance.now();

/** Nearest-rank percentile of already sorted numbers. */
function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

function median(sorted) {
  if (sorted.length === 0) return null;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const round = (x, digits = 2) => (x === null || x === undefined ? null : Number(x.toFixed(digits)));

/** `{n, median, p95, min, max, mean}` of a list of samples (milliseconds or anything else). */
export function summarize(samples, digits = 2) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = sorted.length ? sorted.reduce((a, b) => a + b, 0) / sorted.length : null;
  return {
    n: sorted.length,
    median: round(median(sorted), digits),
    p95: round(percentile(sorted, 95), digits),
    min: round(sorted[0] ?? null, digits),
    max: round(sorted.at(-1) ?? null, digits),
    mean: round(mean, digits),
  };
}

/** Total apparent size of the files under a folder. */
export function folderBytes(dir) {
  let total = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += folderBytes(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

function tryExec(file, args) {
  try {
    return execFileSync(file, args, {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    return null;
  }
}

/** What the numbers were measured on. */
export function machineInfo() {
  const cpus = os.cpus();
  let cpuModel = cpus[0]?.model ?? "unknown";
  try {
    const line = readFileSync("/proc/cpuinfo", "utf8")
      .split("\n")
      .find((l) => l.startsWith("model name"));
    if (line) cpuModel = line.split(":")[1].trim();
  } catch {
    // not Linux
  }
  const rgVersion = tryExec("rg", ["--version"])?.split("\n")[0] ?? null;
  const gitRev = tryExec("git", ["-C", REPO_ROOT, "rev-parse", "--short", "HEAD"]);
  const gitDirty = tryExec("git", [
    "-C",
    REPO_ROOT,
    "status",
    "--porcelain",
    "--untracked-files=no",
  ]);
  return {
    hostname: os.hostname(),
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    nproc: Number(tryExec("nproc", [])) || os.availableParallelism?.() || cpus.length,
    cpuModel,
    memoryGiB: round(os.totalmem() / 2 ** 30, 1),
    node: process.version,
    rg: rgVersion,
    git: gitRev ? `${gitRev}${gitDirty ? " (working tree modified)" : ""}` : null,
  };
}

/** Load average (1, 5, 15 min) right now: the machine is shared, so every phase records it. */
export function load() {
  return os.loadavg().map((x) => round(x, 2));
}

function fileId(path) {
  try {
    const hash = createHash("sha256").update(readFileSync(path)).digest("hex").slice(0, 12);
    return { sha256: hash, mtime: statSync(path).mtime.toISOString() };
  } catch {
    return null;
  }
}

/** One hash over every `.js` file of the compiled library (dist/, without the CLI bundle). */
function libraryId() {
  const hash = createHash("sha256");
  const walk = (dir) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
        a.name < b.name ? -1 : 1,
      );
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== "bundle") walk(path);
      else if (entry.isFile() && entry.name.endsWith(".js"))
        hash.update(path).update(readFileSync(path));
    }
  };
  walk(join(REPO_ROOT, "dist"));
  return { sha256: hash.digest("hex").slice(0, 12) };
}

/**
 * Which build was measured: the native core, the CLI bundle and the compiled library. Other work
 * rebuilds them at any time, so a run compares their hashes at its start and its end.
 */
export function buildInfo() {
  return {
    native: fileId(join(REPO_ROOT, "native", "recall.node")),
    cliBundle: fileId(join(REPO_ROOT, "dist", "bundle", "cli.cjs")),
    library: libraryId(),
  };
}

/** The content hashes only: a rebuild that wrote the same bytes is the same build. */
export function sameBuild(a, b) {
  return (
    a.native?.sha256 === b.native?.sha256 &&
    a.cliBundle?.sha256 === b.cliBundle?.sha256 &&
    a.library?.sha256 === b.library?.sha256
  );
}

/**
 * The environment of a bench's recall: the corpus's sessions (its `agentDir`), and a home, cache
 * and data folder of its own under `work`, so nothing of the user's is read or written.
 */
export function benchEnv(agentDir, work) {
  mkdirSync(join(work, "home"), { recursive: true });
  return {
    PATH: process.env.PATH,
    HOME: join(work, "home"),
    LANG: "C.UTF-8",
    PI_CODING_AGENT_DIR: agentDir,
    RECALL_CACHE_DIR: join(work, "cache"),
    RECALL_DATA_DIR: join(work, "data"),
  };
}

/**
 * Brings the index of `env` up to date (`recall index -q`, by the CLI at `bin`), so every measured
 * call finds it fresh.
 */
export function indexCorpus(
  env,
  bin = RECALL_BIN,
  log = (line) => process.stderr.write(`${line}\n`),
) {
  log("bringing the index up to date (recall index)…");
  const indexed = spawnSync(process.execPath, [bin, "index", "-q"], {
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (indexed.status !== 0) throw new Error("recall index failed");
}
