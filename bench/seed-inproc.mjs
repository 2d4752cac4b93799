/**
 * The seed's engine and recall's library in one Node process, on one corpus, with the same queries,
 * interleaved: each round runs every query once on each engine, which one goes first alternating,
 * so a noisy moment of a shared machine hits both alike. Run by bench/seed-baseline.mjs (under
 * Node 22, which the seed's TypeScript needs) with recall's environment set:
 *
 *   node bench/seed-inproc.mjs '<json: {seedModule, agentDir, seedCache, runs, queries,
 *   recallOptions}>'
 *
 * Prints one JSON object on stdout: the seed's index time and peak RSS after it, and per query the
 * latency samples (ms) and hit counts of each engine.
 */
import { join } from "node:path";
import { LIBRARY_URL, now } from "./lib.mjs";

const params = JSON.parse(process.argv[2]);
const { RecallIndex } = await import(params.seedModule);
const { Recall } = await import(LIBRARY_URL);

// The seed's own index, in a folder of this run (it would otherwise write under the agent dir).
let t = now();
const seed = await RecallIndex.open({
  agentDir: params.agentDir,
  cacheFile: join(params.seedCache, "pi-recall-v3.json"),
  indexDir: join(params.seedCache, "tantivy"),
  tagFile: join(params.seedCache, "tags-v1.json"),
});
const seedSync = await seed.sync();
const seedIndex = {
  ms: now() - t,
  indexed: seedSync.indexed,
  discovered: seedSync.discovered,
  rssAfterMiB: process.memoryUsage().rss / 2 ** 20,
};

const recall = Recall.open({ env: process.env });
await recall.sync();

// What each engine is asked: recall's `searchSessions` options as the query set gives them; the
// seed's search takes the query text, a limit, a folder and the prefix flag.
const engines = {
  seed: async (q) =>
    seed.search(q.lib.query, {
      limit: 20,
      scope: q.lib.cwd ? "current" : "all",
      ...(q.lib.cwd ? { cwd: q.lib.cwd } : {}),
      prefixLastToken: q.lib.prefix ?? false,
    }).length,
  recall: async (q) =>
    (await recall.search({ limit: 20, ...q.lib, ...params.recallOptions, sync: false })).hits
      .length,
};

const result = { seedIndex, queries: {} };
for (const q of params.queries) {
  result.queries[q.key] = {
    label: q.label,
    seed: { samples: [], hits: await engines.seed(q) },
    recall: { samples: [], hits: await engines.recall(q) },
  };
}
for (let round = 0; round < params.runs; round++) {
  const order = round % 2 === 0 ? ["seed", "recall"] : ["recall", "seed"];
  for (const q of params.queries) {
    for (const engine of order) {
      t = now();
      await engines[engine](q);
      result.queries[q.key][engine].samples.push(now() - t);
    }
  }
}
result.peakRssMiB = process.resourceUsage().maxRSS / 1024;
recall.close();
process.stdout.write(JSON.stringify(result));
