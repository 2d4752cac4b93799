/**
 * In-process measurements through the library, in one Node process with the store open (what the
 * Pi extension pays once it is loaded). Run by bench/run.mjs with recall's environment set:
 *
 *   node bench/inproc.mjs '<json: {runs, appendRuns, queries, append: {path, sessionId} | null}>'
 *
 * `library` (optional) is the dist/index.js of another build to measure instead of this checkout's.
 *
 * Prints one JSON object on stdout:
 *  - noChangeSync: `recall.sync()` that finds nothing to do (ms samples);
 *  - search: per query key, `recall.search` latency samples (no sync) after one warm-up call, and
 *    hits;
 *  - append: one message appended to a ~2 MB session, then `recall.sync()` + `recall.search` for a
 *    word of it, until the session is found (ms samples). The file is restored afterwards: cut back
 *    to its size, its times reset, and the index synced again.
 */
import {
  appendFileSync,
  closeSync,
  openSync,
  readSync,
  statSync,
  truncateSync,
  utimesSync,
} from "node:fs";
import { randomBytes } from "node:crypto";
import { pathToFileURL } from "node:url";
import { LIBRARY_URL, now } from "./lib.mjs";

const params = JSON.parse(process.argv[2]);
// `library`: another build's dist/index.js (bench/ab.mjs --inproc); this checkout's by default.
const { Recall } = await import(params.library ? pathToFileURL(params.library).href : LIBRARY_URL);

const recall = Recall.open({ env: process.env });
const search = async (options) => (await recall.search({ ...options, sync: false })).hits;
const result = { noChangeSync: [], search: {}, append: null, firstSync: null };

let t = now();
const first = await recall.sync();
result.firstSync = {
  ms: now() - t,
  indexed: first.indexed,
  appended: first.appended,
  removed: first.removed,
  unchanged: first.unchanged,
};

// No-change freshness check.
for (let i = 0; i < params.runs; i++) {
  t = now();
  const report = await recall.sync();
  result.noChangeSync.push(now() - t);
  if (report.indexed + report.appended + report.removed !== 0)
    throw new Error(`sync changed something on an unchanged corpus: ${JSON.stringify(report)}`);
}

// Search latency: one warm-up each, then rounds over all queries, so a noisy moment hits all alike.
for (const q of params.queries) {
  const hits = await search({ limit: 20, ...q.lib });
  result.search[q.key] = { samples: [], hits: hits.length };
}
for (let i = 0; i < params.runs; i++) {
  for (const q of params.queries) {
    t = now();
    await search({ limit: 20, ...q.lib });
    result.search[q.key].samples.push(now() - t);
  }
}

/** The id of the last entry of a session file (the parent of an appended message). */
function lastEntryId(path) {
  const size = statSync(path).size;
  const length = Math.min(size, 1 << 20);
  const buffer = Buffer.alloc(length);
  const fd = openSync(path, "r");
  try {
    readSync(fd, buffer, 0, length, size - length);
  } finally {
    closeSync(fd);
  }
  const lines = buffer
    .toString("utf8")
    .split("\n")
    .filter((l) => l.trim());
  for (let i = lines.length - 1; i >= 0; i--) {
    try {
      const entry = JSON.parse(lines[i]);
      if (entry.id) return entry.id;
    } catch {
      // a cut first line
    }
  }
  return null;
}

if (params.append && params.appendRuns > 0) {
  const { path, sessionId } = params.append;
  const original = statSync(path);
  const restore = () => {
    truncateSync(path, original.size);
    utimesSync(path, original.atimeMs / 1000, original.mtimeMs / 1000);
  };
  // An interrupted run must not leave the corpus changed.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
    process.on(signal, () => {
      restore();
      process.exit(130);
    });
  }
  const samples = { syncMs: [], searchMs: [], totalMs: [] };
  let found = 0;
  let appendedReports = 0;
  try {
    let parentId = lastEntryId(path);
    for (let i = 0; i < params.appendRuns; i++) {
      const word = `benchfresh${i}x${randomBytes(4).toString("hex")}`;
      const id = randomBytes(4).toString("hex");
      const stamp = new Date(original.mtimeMs + (i + 1) * 60_000);
      const entry = {
        type: "message",
        id,
        parentId,
        timestamp: stamp.toISOString(),
        message: {
          role: "user",
          content: [{ type: "text", text: `Check ${word} once more before we ship.` }],
          timestamp: stamp.getTime(),
        },
      };
      appendFileSync(path, `${JSON.stringify(entry)}\n`);
      parentId = id;
      const t0 = now();
      const report = await recall.sync();
      const t1 = now();
      const hits = await search({ query: word, limit: 5 });
      const t2 = now();
      samples.syncMs.push(t1 - t0);
      samples.searchMs.push(t2 - t1);
      samples.totalMs.push(t2 - t0);
      if (report.appended === 1) appendedReports++;
      if (hits.some((h) => h.id === sessionId)) found++;
    }
  } finally {
    restore();
    await recall.sync();
  }
  result.append = {
    path,
    sessionId,
    fileBytes: original.size,
    ...samples,
    found,
    appendedReports,
    runs: params.appendRuns,
  };
}

process.stdout.write(`${JSON.stringify(result)}\n`);
