#!/usr/bin/env node
// Faithfulness of the archive's search (issue 32): the eval corpus (bench/eval-ranking.mjs) pushed
// to a one-node OpenSearch (scripts/opensearch.sh), each known-item query searched in the local
// index and in the archive as `recall search --remote` does; reports the share of queries whose top
// session is the same, and R@1 and R@5 of both.
//
//   npm run prepare
//   node bench/archive-faithfulness.mjs [--sessions 500] [--seed 1] [--queries 300] [--json]
//
// Starts its own engine in a temporary folder (about a minute on 2 cores) and stops it at the end.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { generateCorpus, REFERENCE_DATE, Rng } from "./corpus.mjs";
import { CORPUS_OPTIONS, knownItemQuery, readCorpus } from "./eval-ranking.mjs";
// The library's internals: the push and the archive's search as the CLI reaches them, without a
// config file.
import { resolveLocations } from "../dist/locations.js";
import { openStore } from "../dist/store.js";
import { syncIndex } from "../dist/sync/sync.js";
import { push } from "../dist/archive/push.js";
import { searchArchive } from "../dist/archive/search.js";

const SCRIPT = fileURLToPath(new URL("../scripts/opensearch.sh", import.meta.url));

export async function faithfulness({
  sessions = 500,
  seed = 1,
  queries = 300,
  log = () => {},
} = {}) {
  const generated = await generateCorpus({ size: sessions, seed, log });
  const env = {
    PI_CODING_AGENT_DIR: generated.agentDir,
    RECALL_CACHE_DIR: join(mkdtempSync(join(tmpdir(), "recall-faith-")), "cache"),
  };
  const locations = resolveLocations({ env });
  const store = await openStore(locations);
  await syncIndex(store);
  const dir = mkdtempSync(join(tmpdir(), "recall-faith-os-"));
  try {
    log("starting OpenSearch");
    const url = execFileSync(SCRIPT, ["start", "--dir", dir], { encoding: "utf8" }).trim();
    const remote = {
      name: "bench",
      url,
      index: "recall-faithfulness",
      machine: "bench",
      user: "bench",
      content: ["conversation"],
      redact: true,
      keepFiles: false,
      insecure: false,
      timeoutMs: 60_000,
    };
    const started = Date.now();
    const pushed = await push(locations, remote, env);
    log(
      `pushed ${pushed.documents} messages of ${pushed.sessions} sessions in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    await fetch(`${url}/${remote.index}/_refresh`, { method: "POST" });

    const items = readFileSync(generated.knownItemsPath, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const corpus = await readCorpus(
      generated.sessionsDir,
      new Set(items.map((item) => item.sessionId)),
    );
    const rng = Rng.from("eval", seed);
    const now = Date.parse(REFERENCE_DATE);
    const results = [];
    for (const item of items) {
      if (results.length >= queries) break;
      const query = knownItemQuery(item.text, rng, corpus.messageFrequency, "distinctive");
      if (!query) continue;
      const local = (await store.native.search({ query, limit: 10, now, typos: "off" })).hits.map(
        (h) => h.session.id,
      );
      const archived = (await searchArchive(remote, env, { query, limit: 10, now })).hits.map(
        (h) => h.id,
      );
      const rank = (ids) => (ids.includes(item.sessionId) ? ids.indexOf(item.sessionId) + 1 : null);
      results.push({
        query,
        sessionId: item.sessionId,
        sameTop: local[0] === archived[0],
        local: rank(local),
        archive: rank(archived),
      });
    }
    const n = results.length;
    const share = (test) => results.filter(test).length / n;
    return {
      sessions,
      seed,
      queries: n,
      messages: pushed.documents,
      sameTop: share((r) => r.sameTop),
      local: {
        r1: share((r) => r.local === 1),
        r5: share((r) => r.local !== null && r.local <= 5),
      },
      archive: {
        r1: share((r) => r.archive === 1),
        r5: share((r) => r.archive !== null && r.archive <= 5),
      },
      results,
    };
  } finally {
    execFileSync(SCRIPT, ["stop", "--dir", dir], { stdio: "ignore" });
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { ...CORPUS_OPTIONS, json: { type: "boolean", default: false } },
  });
  const result = await faithfulness({
    sessions: Number(values.sessions),
    seed: Number(values.seed),
    queries: Number(values.queries),
    log: (m) => process.stderr.write(`${m}\n`),
  });
  if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else {
    const pct = (x) => `${(x * 100).toFixed(1)}%`;
    console.log(
      `sessions ${result.sessions}, seed ${result.seed}, ${result.queries} remembered queries, ${result.messages} messages pushed`,
    );
    console.log(`same top session ${pct(result.sameTop)}`);
    console.log(`local   R@1 ${pct(result.local.r1)}  R@5 ${pct(result.local.r5)}`);
    console.log(`archive R@1 ${pct(result.archive.r1)}  R@5 ${pct(result.archive.r5)}`);
  }
}
