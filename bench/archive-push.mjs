#!/usr/bin/env node
// `recall push` to a one-node OpenSearch (scripts/opensearch.sh) on a benchmark corpus (issue 32):
//  1. the whole corpus pushed from nothing, through the CLI: documents per second;
//  2. the same documents sent again with no change, in bulk requests of the same size straight to
//     OpenSearch: its own bulk rate, beside recall's (reading, redacting and acknowledging
//     included);
//  3. a push with nothing to send, interleaved with `node -e 0`, --runs times: the median of each;
//  4. one message appended to a session, then pushed and searched for until the archive finds it:
//     the time from the append to the hit, --appends times; with --keep-files (a remote keeping
//     the session files), the largest session is the one that grows, and the bytes of file each
//     of those pushes sends are reported beside the whole kept file's;
//  5. the archive's size on disk (documents, bytes, bytes a document), for sizing a team's cluster;
//  6. the benchmark's queries (bench/queries.mjs, those an archive takes) by `recall search
//     --remote` beside the local `recall search`, interleaved, --runs times each: the CLI's wall
//     time, and the engine's own time for it (its query and fetch time, from the index's search
//     statistics).
//
//   node bench/archive-push.mjs --agent <corpus agent folder> [--runs 20] [--appends 5] [--json]
//        [--content conversation,calls,outputs,thinking] [--keep-files] [--skip
//        bulk,no-change,append]
//
// --content sets what the remote sends (default conversation): all four kinds make L's 1.35 M
// message entries an archive of over a million documents. --skip leaves steps out (2, 3, 4).
//
// The corpus is only read: recall's cache and config go to a temporary folder, the appended
// messages to a copy of one session file in an agent folder of its own inside it.
import { execFileSync, spawnSync } from "node:child_process";
import {
  appendFileSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { machineInfo, now, REPO_ROOT, summarize } from "./lib.mjs";
import { QUERIES } from "./queries.mjs";

const { values } = parseArgs({
  options: {
    agent: { type: "string" },
    runs: { type: "string", default: "20" },
    appends: { type: "string", default: "5" },
    content: { type: "string" },
    "keep-files": { type: "boolean", default: false },
    skip: { type: "string", default: "" },
    json: { type: "boolean", default: false },
  },
});
if (!values.agent) throw new Error("--agent <corpus agent folder> is required");
const SCRIPT = fileURLToPath(new URL("../scripts/opensearch.sh", import.meta.url));
const RECALL = join(REPO_ROOT, "bin", "recall.cjs");
const INDEX = "recall-push-bench";
const log = (m) => process.stderr.write(`${m}\n`);

const work = mkdtempSync(join(tmpdir(), "recall-push-bench-"));
// A folder of its own: as root, the engine runs as another user, who may not enter `work`.
const osDir = mkdtempSync(join(tmpdir(), "recall-push-bench-os-"));
const env = {
  ...process.env,
  PI_CODING_AGENT_DIR: values.agent,
  RECALL_CACHE_DIR: join(work, "cache"),
  RECALL_DATA_DIR: join(work, "data"),
};
const recall = (...args) => {
  const run = spawnSync(process.execPath, [RECALL, ...args], {
    env,
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  if (run.status !== 0) throw new Error(`recall ${args.join(" ")}: ${run.stderr}`);
  return run.stdout;
};
const summary = (stdout) => JSON.parse(stdout.trim().split("\n").at(-1));
const result = { machine: machineInfo(), corpus: values.agent };
const skipped = new Set(values.skip.split(",").filter(Boolean));

try {
  log("starting OpenSearch");
  const url = execFileSync(SCRIPT, ["start", "--dir", osDir], { encoding: "utf8" }).trim();
  recall("remote", "add", "bench", url, "--index", INDEX, "--machine", "bench", "--user", "bench");
  if (values.content || values["keep-files"]) {
    const configFile = join(work, "data", "config.json");
    const config = JSON.parse(readFileSync(configFile, "utf8"));
    if (values.content) config.remotes.bench.content = result.content = values.content.split(",");
    if (values["keep-files"]) config.remotes.bench.keepFiles = result.keepFiles = true;
    writeFileSync(configFile, JSON.stringify(config, null, 2));
  }

  // 1. Everything, from nothing.
  let t = now();
  const first = summary(recall("push", "--remote", "bench", "--json"));
  const pushMs = now() - t;
  result.firstPush = {
    sessions: first.sessions,
    documents: first.messages,
    bytes: first.bytes,
    ms: pushMs,
    documentsPerSecond: first.messages / (pushMs / 1000),
  };
  log(
    `first push: ${first.messages} documents of ${first.sessions} sessions in ${(pushMs / 1000).toFixed(1)} s (${result.firstPush.documentsPerSecond.toFixed(0)}/s)`,
  );

  // 2. OpenSearch's own bulk rate for the same documents: read back, then indexed again as they
  //    are.
  await fetch(`${url}/${INDEX}/_refresh`, { method: "POST" });
  if (!skipped.has("bulk")) {
    const documents = [];
    let page = await (
      await fetch(`${url}/${INDEX}/_search?scroll=1m`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ size: 5000, query: { match_all: {} } }),
      })
    ).json();
    while (page.hits.hits.length > 0) {
      documents.push(...page.hits.hits.map((hit) => [hit._id, hit._source]));
      page = await (
        await fetch(`${url}/_search/scroll`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ scroll: "1m", scroll_id: page._scroll_id }),
        })
      ).json();
    }
    t = now();
    for (let i = 0; i < documents.length; i += 2000) {
      const body = documents
        .slice(i, i + 2000)
        .flatMap(([id, source]) => [
          JSON.stringify({ index: { _index: INDEX, _id: id } }),
          JSON.stringify(source),
        ])
        .join("\n");
      const answer = await (
        await fetch(`${url}/_bulk`, {
          method: "POST",
          headers: { "content-type": "application/x-ndjson" },
          body: `${body}\n`,
        })
      ).json();
      if (answer.errors) throw new Error("the engine refused part of a bulk request");
    }
    const bulkMs = now() - t;
    result.engineBulk = {
      documents: documents.length,
      ms: bulkMs,
      documentsPerSecond: documents.length / (bulkMs / 1000),
    };
    log(
      `OpenSearch's own bulk: ${documents.length} documents in ${(bulkMs / 1000).toFixed(1)} s (${result.engineBulk.documentsPerSecond.toFixed(0)}/s)`,
    );
  }

  // 3. Nothing to send, beside node -e 0.
  const runs = Number(values.runs);
  if (!skipped.has("no-change")) {
    const node = [];
    const noChange = [];
    for (let i = 0; i < runs; i++) {
      t = now();
      spawnSync(process.execPath, ["-e", "0"]);
      node.push(now() - t);
      t = now();
      const again = summary(recall("push", "--remote", "bench", "--json"));
      noChange.push(now() - t);
      if (again.messages !== 0)
        throw new Error(`a push with no change sent ${again.messages} documents`);
    }
    result.noChange = { node: summarize(node), push: summarize(noChange) };
    log(
      `no-change push p50 ${result.noChange.push.median.toFixed(0)} ms beside node -e 0 p50 ${result.noChange.node.median.toFixed(0)} ms`,
    );
  }

  // 4. An appended message, from the append to a hit in the archive.
  if (!skipped.has("append")) {
    const sessionsDir = join(values.agent, "sessions");
    const sessionFiles = readdirSync(sessionsDir).flatMap((project) =>
      readdirSync(join(sessionsDir, project))
        .filter((name) => name.endsWith(".jsonl"))
        .map((name) => join(sessionsDir, project, name)),
    );
    const original = values["keep-files"]
      ? sessionFiles.reduce((a, b) => (statSync(b).size > statSync(a).size ? b : a))
      : sessionFiles[0];
    // A copy of one session in an agent folder of its own, so that the corpus is not written to.
    // And a cache of its own: its pushes must not take the corpus's sessions, absent from its
    // folder, out of the archive.
    const appendEnv = {
      ...env,
      PI_CODING_AGENT_DIR: join(work, "agent-extra"),
      RECALL_CACHE_DIR: join(work, "cache-extra"),
    };
    const target = join(work, "agent-extra", "sessions", "--extra--", basename(original));
    mkdirSync(join(target, ".."), { recursive: true });
    copyFileSync(original, target);
    const pushExtra = () =>
      summary(
        spawnSync(process.execPath, [RECALL, "push", "--remote", "bench", "--json"], {
          env: appendEnv,
          encoding: "utf8",
        }).stdout,
      );
    const kept = pushExtra().fileBytes;
    const toHit = [];
    const fileBytes = [];
    for (let i = 0; i < Number(values.appends); i++) {
      const word = `pushbench${i}x${Date.now().toString(36)}`;
      const at = Date.now();
      appendFileSync(
        target,
        `${JSON.stringify({ type: "message", id: `pb${i}${at}`.slice(0, 16), parentId: null, timestamp: new Date(at).toISOString(), message: { role: "user", content: `a ${word} line`, timestamp: at } })}\n`,
      );
      t = now();
      fileBytes.push(pushExtra().fileBytes);
      for (;;) {
        await fetch(`${url}/${INDEX}/_refresh`, { method: "POST" });
        const found = await (
          await fetch(`${url}/${INDEX}/_search`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ size: 1, query: { match: { text: word } } }),
          })
        ).json();
        if (found.hits.hits.length > 0) break;
        if (now() - t > 30_000)
          throw new Error("the appended message did not reach the archive in 30 s");
      }
      toHit.push(now() - t);
    }
    result.appendToHit = summarize(toHit);
    log(
      `an appended message pushed and found in the archive: p50 ${result.appendToHit.median.toFixed(0)} ms, max ${result.appendToHit.max.toFixed(0)} ms`,
    );
    if (values["keep-files"]) {
      result.keptAppend = {
        session: basename(original),
        keptBytes: kept,
        appendFileBytes: fileBytes,
      };
      log(
        `the session kept (${(kept / 1024).toFixed(0)} kB): each append sent ${fileBytes.join(", ")} bytes of it`,
      );
    }
  }

  // 5. Its size on disk, the appended copies' documents included (a handful).
  await fetch(`${url}/${INDEX}/_forcemerge?max_num_segments=1`, { method: "POST" });
  const { primaries } = (await (await fetch(`${url}/${INDEX}/_stats/docs,store`)).json())._all;
  result.archiveSize = {
    documents: primaries.docs.count,
    bytes: primaries.store.size_in_bytes,
    bytesPerDocument: primaries.store.size_in_bytes / primaries.docs.count,
  };
  log(
    `archive on disk: ${result.archiveSize.documents} documents, ${(result.archiveSize.bytes / 1e6).toFixed(1)} MB (${result.archiveSize.bytesPerDocument.toFixed(0)} bytes a document)`,
  );

  // 6. The queries an archive takes, remote beside local; the local index is synced first.
  recall("index", "--quiet");
  // The engine's time for what recall asked of it: its own count of query and fetch time, read
  // around each search.
  const engineTime = async () => {
    const { search } = (await (await fetch(`${url}/${INDEX}/_stats/search`)).json())._all.total;
    return search.query_time_in_millis + search.fetch_time_in_millis;
  };
  result.search = {};
  for (const query of QUERIES.filter((q) => !q.cli.includes("--prefix"))) {
    const local = [];
    const remote = [];
    const engine = [];
    for (let i = 0; i <= runs; i++) {
      t = now();
      spawnSync(process.execPath, [RECALL, "search", "--json", "-n", "10", ...query.cli], {
        env,
        encoding: "utf8",
      });
      const localMs = now() - t;
      const before = await engineTime();
      t = now();
      const answer = spawnSync(
        process.execPath,
        [RECALL, "search", "--remote", "bench", "--json", "-n", "10", ...query.cli],
        { env, encoding: "utf8" },
      );
      const remoteMs = now() - t;
      const engineMs = (await engineTime()) - before;
      if (answer.status === 2)
        throw new Error(`recall search --remote ${query.cli.join(" ")}: ${answer.stderr}`);
      // The first round warms both up and is not counted.
      if (i === 0) continue;
      local.push(localMs);
      remote.push(remoteMs);
      engine.push(engineMs);
    }
    result.search[query.key] = {
      local: summarize(local),
      remote: summarize(remote),
      engineMs: summarize(engine),
    };
    log(
      `${query.key}: local p50 ${result.search[query.key].local.median.toFixed(0)} ms, remote p50 ${result.search[query.key].remote.median.toFixed(0)} ms (engine ${result.search[query.key].engineMs.median} ms)`,
    );
  }
} finally {
  try {
    execFileSync(SCRIPT, ["stop", "--dir", osDir], { stdio: "ignore" });
  } finally {
    rmSync(work, { recursive: true, force: true });
    rmSync(osDir, { recursive: true, force: true });
  }
}
if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
