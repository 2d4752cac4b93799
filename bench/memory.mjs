#!/usr/bin/env node
/**
 * Peak memory of recall on one large session: writes a single Pi session file of about
 * `--mb` MB (default 300) into a temporary agent folder — a long conversation, and agent runs of
 * tens of thousands of tool calls whose output is indexed whole (a few KB each) — then runs, each
 * as its own process under `/usr/bin/time`, `recall index` (a first index), `recall context` and
 * `recall read` (one page) of it, and prints each command's peak RSS. The file is seeded, so every
 * run measures the same bytes. With `--push URL` (an OpenSearch, e.g. from `scripts/opensearch.sh
 * start`), also `recall push --dry-run` and a first `recall push` of it to an index of its own
 * there (removed at the end), of the remote's `--content` (default conversation). `--bin` measures
 * another build's `bin/recall.cjs` (an earlier commit's, say); `--skip` leaves out commands
 * (`context,read`). It needs a built `dist/` (`npm run prepare`); the temporary folder is removed
 * at the end (`--keep` keeps it).
 *
 *   node bench/memory.mjs [--mb 300] [--seed 1] [--push URL [--content KINDS]] [--bin PATH] [--skip
 *   context,read] [--keep] [--json]
 */
import { spawnSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { RECALL_BIN, REPO_ROOT } from "./lib.mjs";

const { values } = parseArgs({
  options: {
    mb: { type: "string", default: "300" },
    seed: { type: "string", default: "1" },
    push: { type: "string" },
    content: { type: "string", default: "conversation" },
    bin: { type: "string", default: RECALL_BIN },
    skip: { type: "string", default: "" },
    keep: { type: "boolean" },
    json: { type: "boolean" },
  },
});
const targetBytes = Number(values.mb) * 1e6;
const log = (line) => !values.json && process.stderr.write(`${line}\n`);

if (!existsSync(join(REPO_ROOT, "dist", "bundle", "cli.cjs")))
  throw new Error("dist/ is not built: run `npm run prepare` first");
if (!existsSync("/usr/bin/time"))
  throw new Error("/usr/bin/time is needed to read a command's peak RSS");

/** xorshift32: the same bytes for the same seed. */
function rng(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x1_0000_0000;
  };
}
const random = rng(Number(values.seed) * 2654435761);
const pick = (list) => list[Math.floor(random() * list.length)];
const between = (low, high) => low + Math.floor(random() * (high - low + 1));

// A vocabulary of made-up words, so the index has many distinct terms as real output does.
const SYLLABLES = [
  "ka",
  "lo",
  "mi",
  "ter",
  "on",
  "zu",
  "pre",
  "ax",
  "vel",
  "din",
  "sor",
  "qua",
  "rim",
  "bel",
  "tos",
  "nu",
  "gra",
  "fen",
];
const VOCABULARY = Array.from({ length: 20_000 }, () =>
  Array.from({ length: between(2, 4) }, () => pick(SYLLABLES)).join(""),
);
const COMMON = [
  "the",
  "deploy",
  "service",
  "config",
  "error",
  "test",
  "build",
  "cache",
  "request",
  "index",
  "query",
  "session",
];
const words = (count) =>
  Array.from({ length: count }, () => (random() < 0.3 ? pick(COMMON) : pick(VOCABULARY))).join(" ");
const outputText = (bytes) => {
  const lines = [];
  for (let size = 0; size < bytes;) {
    const line = `${pick(["ok", "PASS", "FAIL", "warn", "info"])} ${words(between(4, 14))} (${between(1, 999)} ms)`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join("\n");
};

/** Writes the session; returns its path and what it holds. */
function writeSession(sessionsDir) {
  const id = "0190aaaa-0000-7000-8000-000000000001";
  const folder = join(sessionsDir, "--home-dev-big--");
  mkdirSync(folder, { recursive: true });
  const path = join(folder, `2026-11-01T09-00-00-000Z_${id}.jsonl`);
  const fd = openSync(path, "w");
  let bytes = 0;
  let time = Date.parse("2026-11-01T09:00:00.000Z");
  let entries = 0;
  let parent = null;
  const write = (object) => {
    const line = `${JSON.stringify(object)}\n`;
    writeSync(fd, line);
    bytes += Buffer.byteLength(line);
  };
  const message = (message) => {
    time += between(1, 30) * 1000;
    const entryId = (++entries).toString(16).padStart(8, "0");
    write({
      type: "message",
      id: entryId,
      parentId: parent,
      timestamp: new Date(time).toISOString(),
      message: { ...message, timestamp: time },
    });
    parent = entryId;
  };
  write({
    type: "session",
    version: 3,
    id,
    timestamp: new Date(time).toISOString(),
    cwd: "/home/dev/big",
  });
  let runs = 0;
  while (bytes < targetBytes) {
    message({ role: "user", content: [{ type: "text", text: words(between(50, 500)) }] });
    // Every tenth run is a long one: hundreds of steps whose assistant text is joined into one
    // message.
    const steps = runs++ % 10 === 9 ? between(300, 600) : between(2, 30);
    for (let step = 0; step < steps && bytes < targetBytes; step++) {
      const callId = `call_${entries}`;
      const command = `${pick(["npm test", "cargo build", "rg", "kubectl get", "make"])} ${words(between(1, 4))}`;
      message({
        role: "assistant",
        content: [
          { type: "thinking", thinking: words(between(20, 150)) },
          { type: "text", text: words(between(100, 600)) },
          { type: "toolCall", id: callId, name: "bash", arguments: { command } },
        ],
      });
      message({
        role: "toolResult",
        toolCallId: callId,
        toolName: "bash",
        content: [{ type: "text", text: outputText(between(300, 6_000)) }],
        isError: false,
      });
    }
    message({ role: "assistant", content: [{ type: "text", text: words(between(30, 400)) }] });
  }
  closeSync(fd);
  return { path, id, entries, bytes: statSync(path).size };
}

/** Runs `recall <args>` under /usr/bin/time: its exit status, wall time and peak RSS. */
function measure(args, env, work) {
  const rssFile = join(work, "rss.txt");
  const started = performance.now();
  const child = spawnSync(
    "/usr/bin/time",
    ["-f", "%M", "-o", rssFile, process.execPath, values.bin, ...args],
    { env, encoding: "utf8", maxBuffer: 1 << 30 },
  );
  const wallMs = performance.now() - started;
  const peakKiB = Number(readFileSync(rssFile, "utf8").trim().split("\n").at(-1));
  return {
    command: `recall ${args.join(" ")}`,
    status: child.status,
    wallS: Number((wallMs / 1000).toFixed(1)),
    peakRssMiB: Math.round(peakKiB / 1024),
    stderr: child.stderr.trim().slice(0, 300),
  };
}

const work = mkdtempSync(join(os.tmpdir(), "recall-memory-"));
try {
  const agentDir = join(work, "agent");
  const env = {
    PATH: process.env.PATH,
    HOME: join(work, "home"),
    LANG: "C.UTF-8",
    PI_CODING_AGENT_DIR: agentDir,
    RECALL_CACHE_DIR: join(work, "cache"),
    RECALL_DATA_DIR: join(work, "data"),
  };
  mkdirSync(env.HOME, { recursive: true });
  log(`writing a session of ~${values.mb} MB …`);
  const session = writeSession(join(agentDir, "sessions"));
  log(`  ${(session.bytes / 1e6).toFixed(0)} MB, ${session.entries} message entries`);
  const skip = new Set(values.skip.split(",").filter(Boolean));
  const results = [measure(["index"], env, work)];
  if (!skip.has("context"))
    results.push(
      measure(["context", session.id, "deploy service error configuration", "--json"], env, work),
    );
  if (!skip.has("read")) results.push(measure(["read", session.id, "--json"], env, work));
  if (values.push) {
    const index = `recall-memory-${process.pid}`;
    spawnSync(
      process.execPath,
      [values.bin, "remote", "add", "bench", values.push, "--index", index],
      { env },
    );
    // What the remote takes, in recall's config file (remote add has no flag for it).
    const configFile = join(env.RECALL_DATA_DIR, "config.json");
    const config = JSON.parse(readFileSync(configFile, "utf8"));
    config.remotes.bench.content = values.content.split(",");
    writeFileSync(configFile, JSON.stringify(config, null, 2));
    try {
      results.push(measure(["push", "--remote", "bench", "--dry-run"], env, work));
      results.push(measure(["push", "--remote", "bench"], env, work));
    } finally {
      for (const name of [`${index}-v1`, `${index}-holders-v1`])
        await fetch(`${values.push}/${name}`, { method: "DELETE" }).catch(() => undefined);
      await fetch(`${values.push}/_index_template/${index}-v1`, { method: "DELETE" }).catch(
        () => undefined,
      );
    }
  }
  const report = {
    date: new Date().toISOString(),
    bin: values.bin,
    content: values.push ? values.content : undefined,
    load: os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(" "),
    machine: `${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), Node ${process.version}`,
    sessionBytes: session.bytes,
    entries: session.entries,
    results,
  };
  if (values.json) process.stdout.write(`${JSON.stringify(report)}\n`);
  else
    for (const r of results)
      log(
        `${r.command.padEnd(60)} exit ${r.status}  ${String(r.wallS).padStart(6)} s  peak RSS ${String(r.peakRssMiB).padStart(5)} MiB${r.status === 0 ? "" : `  ${r.stderr}`}`,
      );
} finally {
  if (values.keep) log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
