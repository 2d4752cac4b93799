#!/usr/bin/env node
// Paraphrase evaluation (issue 31): can a user who half-remembers what a session was about find it?
// Hand-written topic sessions (topics.mjs) among generated distractors (sessions.mjs); for each
// topic three queries (paraphrase, vague, keyword) are searched through the library facade, in
// process, and the rank of the topic's session is recorded. Reports R@1, R@5 and MRR per query kind
// and match mode, and how often a paraphrase or vague query ranked its close twin (`pair`) higher.
//
//   node bench/meaning-eval/eval.mjs [--distractors 300] [--seed 1] [--match words,meaning,both] [--json]
//
// The rules of the queries (check.mjs) are checked first; a broken rule stops the evaluation.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { REFERENCE_DATE } from "../corpus.mjs";
import { LIBRARY_URL, machineInfo } from "../lib.mjs";
import { checkTopics } from "./check.mjs";
import { writeEvalSessions } from "./sessions.mjs";
import { TOPICS } from "./topics.mjs";

export const KINDS = ["paraphrase", "vague", "keyword"];
export const MATCHES = ["words", "meaning", "both"];
const DEPTH = 10;

/**
 * How each match mode searches: the session ids of a query's hits, best first. `meaning` and
 * `both` read the meaning index, built before the searches (`recall.indexMeaning`); without the
 * model package (beside recall, or RECALL_MODEL_DIR; scripts/model-package.sh assembles it in
 * .cache/model-minilm, used when present) they are reported unavailable.
 */
const searchBy = (match) => async (recall, query) => (await recall.search({ query, limit: DEPTH, now: Date.parse(REFERENCE_DATE), sync: false, match })).hits.map((hit) => hit.id);
const SEARCHES = { words: searchBy("words"), meaning: searchBy("meaning"), both: searchBy("both") };
const UNAVAILABLE = "needs the meaning model package recall-pi-model-minilm (scripts/model-package.sh), which is not installed";
const ASSEMBLED_MODEL = fileURLToPath(new URL("../../.cache/model-minilm", import.meta.url));

/** Where the model is: RECALL_MODEL_DIR, else the package assembled in this checkout; null: beside recall, if anywhere. */
function defaultModelDir() {
  if (process.env.RECALL_MODEL_DIR) return process.env.RECALL_MODEL_DIR;
  return existsSync(`${ASSEMBLED_MODEL}/model.onnx`) ? ASSEMBLED_MODEL : null;
}

/** R@1, R@5 and MRR of 1-based ranks (null: not in the first DEPTH hits). */
function scores(ranks) {
  const within = (k) => ranks.filter((rank) => rank !== null && rank <= k).length / ranks.length;
  return { queries: ranks.length, r1: within(1), r5: within(5), mrr: ranks.reduce((sum, rank) => sum + (rank ? 1 / rank : 0), 0) / ranks.length };
}

export async function evaluate({ topics = TOPICS, distractors = 300, seed = 1, matches = MATCHES, kinds = KINDS, outDir, modelDir = defaultModelDir(), log = () => {} } = {}) {
  for (const match of matches) if (!MATCHES.includes(match)) throw new Error(`unknown match mode: ${match} (expected one of ${MATCHES.join(", ")})`);
  const problems = checkTopics(topics);
  if (problems.length) throw new Error(`the paraphrase eval's topics break its rules:\n  ${problems.join("\n  ")}`);
  const { agentDir, cacheDir, sessionIds } = await writeEvalSessions(topics, { distractors, seed, outDir, log });
  const { Recall } = await import(LIBRARY_URL);
  const recall = Recall.open({ env: { PI_CODING_AGENT_DIR: agentDir, RECALL_CACHE_DIR: cacheDir, ...(modelDir ? { RECALL_MODEL_DIR: modelDir } : {}) } });
  try {
    await recall.sync();
    const meaningWanted = matches.some((match) => match !== "words");
    const hasModel = meaningWanted && recall.meaningModelInstalled();
    let meaningBuild = null;
    if (hasModel) {
      const started = performance.now();
      const report = await recall.indexMeaning();
      meaningBuild = { messages: report.messages, embedded: report.embedded, seconds: (performance.now() - started) / 1000 };
      log(`meaning index: ${report.embedded} messages embedded in ${meaningBuild.seconds.toFixed(1)} s`);
    }
    const twinOf = new Map(topics.filter((t) => t.pair).map((t) => [t.id, topics.find((u) => u.pair === t.pair && u.id !== t.id).id]));
    const results = [];
    for (const match of matches) {
      const search = SEARCHES[match];
      if (match !== "words" && !hasModel) {
        results.push({ match, available: false, reason: UNAVAILABLE });
        continue;
      }
      const byKind = {};
      for (const kind of kinds) {
        const ranks = [];
        let twinAbove = 0;
        for (const topic of topics) {
          const hits = await search(recall, topic.queries[kind]);
          const rank = hits.indexOf(sessionIds.get(topic.id));
          ranks.push({ topic: topic.id, query: topic.queries[kind], rank: rank === -1 ? null : rank + 1 });
          const twin = hits.indexOf(sessionIds.get(twinOf.get(topic.id)));
          if (twin !== -1 && (rank === -1 || twin < rank)) twinAbove++;
        }
        byKind[kind] = { ...scores(ranks.map((r) => r.rank)), twinAbove: twinOf.size ? twinAbove / twinOf.size : null, ranks };
      }
      results.push({ match, available: true, kinds: byKind });
    }
    return { topics: topics.length, pairs: twinOf.size / 2, distractors, seed, meaningBuild, results };
  } finally {
    recall.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      distractors: { type: "string", default: "300" },
      seed: { type: "string", default: "1" },
      match: { type: "string", default: MATCHES.join(",") },
      json: { type: "boolean", default: false },
    },
  });
  let result;
  try {
    result = await evaluate({ distractors: Number(values.distractors), seed: Number(values.seed), matches: values.match.split(","), log: (m) => process.stderr.write(`${m}\n`) });
  } catch (error) {
    process.stderr.write(`meaning-eval: ${error.message}\n`);
    process.exit(1);
  }
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ ...result, machine: machineInfo() })}\n`);
  } else {
    const pct = (x) => `${(x * 100).toFixed(1)}%`.padStart(6);
    console.log(`paraphrase eval: ${result.topics} topics (${result.pairs} close pairs) among ${result.distractors} generated sessions, seed ${result.seed}`);
    for (const { match, available, reason, kinds } of result.results) {
      if (!available) {
        console.log(`  ${match.padEnd(7)} n/a: ${reason}`);
        continue;
      }
      for (const [kind, s] of Object.entries(kinds))
        console.log(`  ${match.padEnd(7)} ${kind.padEnd(10)} R@1 ${pct(s.r1)}  R@5 ${pct(s.r5)}  MRR ${s.mrr.toFixed(3)}  twin above ${s.twinAbove === null ? "   n/a" : pct(s.twinAbove)}`);
    }
  }
}
