#!/usr/bin/env node
// What redaction costs a push: `recall push --dry-run` (it reads, builds and redacts every
// document and kept file as a push does, and sends nothing) on a corpus, with the remote's
// redaction on and off, interleaved, --runs times each: wall time and documents per second.
// No OpenSearch is needed: a dry run never asks the remote.
//
//   node bench/redact-push.mjs --agent <corpus agent folder> [--runs 3]
//        [--content conversation,calls,outputs,thinking] [--keep-files] [--recall <bin/recall.cjs>]
//        [--json]
//
// --recall runs another build's CLI (another worktree's bin/recall.cjs), to compare with it.
// The corpus is only read: recall's cache and config go to a temporary folder.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { machineInfo, now, RECALL_BIN, summarize } from "./lib.mjs";

const { values } = parseArgs({
  options: {
    agent: { type: "string" },
    runs: { type: "string", default: "3" },
    content: { type: "string", default: "conversation" },
    "keep-files": { type: "boolean", default: false },
    recall: { type: "string", default: RECALL_BIN },
    json: { type: "boolean", default: false },
  },
});
if (!values.agent) throw new Error("--agent <corpus agent folder> is required");
const log = (m) => process.stderr.write(`${m}\n`);
const work = mkdtempSync(join(tmpdir(), "recall-redact-bench-"));
const content = values.content.split(",");

/** A config with two remotes alike but for redaction; neither is ever asked (dry runs). */
function writeConfig() {
  mkdirSync(join(work, "data"), { recursive: true });
  const remote = (redact) => ({
    url: "http://127.0.0.1:9",
    index: "bench",
    machine: "bench",
    user: "bench",
    content,
    redact,
    keepFiles: values["keep-files"],
  });
  writeFileSync(
    join(work, "data", "config.json"),
    JSON.stringify({ remotes: { redacted: remote(true), plain: remote(false) } }, null, 2),
  );
}

/**
 * One dry run: its wall time, and its CPU time (user + system, by /usr/bin/time), which a busy
 * machine changes less.
 */
function dryRun(remote) {
  const env = {
    ...process.env,
    PI_CODING_AGENT_DIR: values.agent,
    RECALL_CACHE_DIR: join(work, "cache"),
    RECALL_DATA_DIR: join(work, "data"),
  };
  const times = join(work, "time.txt");
  const start = now();
  const run = spawnSync(
    "/usr/bin/time",
    [
      "-f",
      "%U %S",
      "-o",
      times,
      process.execPath,
      values.recall,
      "push",
      "--remote",
      remote,
      "--dry-run",
    ],
    { env, encoding: "utf8", maxBuffer: 1 << 26 },
  );
  const ms = now() - start;
  if (run.status !== 0) throw new Error(`recall push --dry-run --remote ${remote}: ${run.stderr}`);
  const [user, system] = readFileSync(times, "utf8")
    .trim()
    .split("\n")
    .at(-1)
    .split(" ")
    .map(Number);
  const documents = Number(/would push (\d+) messages/.exec(run.stdout)?.[1]);
  return { ms, cpuMs: (user + system) * 1000, documents, summary: run.stdout.trim() };
}

try {
  writeConfig();
  const runs = Number(values.runs);
  const samples = { redacted: { ms: [], cpuMs: [] }, plain: { ms: [], cpuMs: [] } };
  let last = {};
  for (let i = 0; i < runs; i++) {
    for (const remote of i % 2 === 0 ? ["redacted", "plain"] : ["plain", "redacted"]) {
      const run = dryRun(remote);
      samples[remote].ms.push(run.ms);
      samples[remote].cpuMs.push(run.cpuMs);
      last[remote] = run;
      log(
        `${remote}: ${run.documents} documents in ${(run.ms / 1000).toFixed(1)} s, ${(run.cpuMs / 1000).toFixed(1)} s of CPU`,
      );
    }
  }
  const of = (remote) => {
    const ms = summarize(samples[remote].ms);
    const cpuMs = summarize(samples[remote].cpuMs);
    return {
      ms,
      cpuMs,
      documentsPerSecond: last[remote].documents / (ms.median / 1000),
      documentsPerCpuSecond: last[remote].documents / (cpuMs.median / 1000),
    };
  };
  const result = {
    machine: machineInfo(),
    corpus: values.agent,
    recall: values.recall,
    content,
    keepFiles: values["keep-files"],
    documents: last.redacted.documents,
    redacted: { ...of("redacted"), summary: last.redacted.summary },
    plain: of("plain"),
  };
  if (values.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else {
    const line = (name, r) =>
      `${name}: ${(r.ms.median / 1000).toFixed(1)} s (${r.documentsPerSecond.toFixed(0)} documents/s), ${(r.cpuMs.median / 1000).toFixed(1)} s of CPU (${r.documentsPerCpuSecond.toFixed(0)} documents/CPU s)`;
    process.stdout.write(
      `${result.documents} documents, median of ${runs}\n${line("redacted", result.redacted)}\n${line("not redacted", result.plain)}\n${result.redacted.summary}\n`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
