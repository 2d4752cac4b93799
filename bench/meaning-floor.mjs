#!/usr/bin/env node
// Where the meaning floor comes from (native/src/search/fusion.rs, MEANING_FLOOR): with `both`, a
// session the words did not find is a hit only from that score on. Searched by meaning alone on the
// paraphrase evaluation's corpus (bench/meaning-eval, its sessions and meaning index), without
// recency: the best session's score for queries about nothing the sessions discuss (below), and
// the score of each paraphrase's and vague query's own session. The floor sits above the first and
// as far below the second as it can.
//
//   node bench/meaning-floor.mjs [--set tuning|held-back] [--distractors 100] [--seed 1] [--json]
import { join } from "node:path";
import { parseArgs } from "node:util";
import { LIBRARY_URL, machineInfo, summarize } from "./lib.mjs";
import { evaluate, SETS } from "./meaning-eval/eval.mjs";
import { defaultEvalDir, writeEvalSessions } from "./meaning-eval/sessions.mjs";

/** Queries of two words or more about nothing a coding session says: what a floor must keep out. */
export const ABOUT_NOTHING = [
  "banana bread recipe",
  "lorem ipsum dolor sit amet",
  "quokka habitat in western australia",
  "best hiking trails in the alps",
  "how to knit a wool scarf",
  "medieval castle architecture",
  "the history of jazz music",
  "gardening tips for tomatoes",
  "weather forecast for tomorrow",
  "world cup final score",
  "how tall is mount everest",
  "pancakes with maple syrup",
  "learning to play the violin",
  "dinosaur fossils at the museum",
  "lasagna with spinach and ricotta",
  "ancient greek philosophy",
  "birthday party for a five year old",
  "wedding dress shopping",
  "where do penguins live",
  "my grandmother's apple pie",
  "train tickets to paris",
  "painting a watercolor sunset",
  "yoga poses for back pain",
  "the plot of hamlet",
  "zzqqxxyy wqpz",
  "xyzzy plugh",
  "asdf qwer zxcv",
  "blorft snargle wibble",
];
/**
 * One-word queries about nothing, as the issue found them (a one-word query gets no meaning-only
 * hits now).
 */
export const ONE_WORD = ["repakc", "zzqqxxyy", "xyzzy", "quokka", "banana"];
const FAR_FUTURE = Date.parse("2100-01-01T00:00:00Z");

async function bestScores(recall, queries) {
  const scores = [];
  for (const query of queries) {
    const { hits } = await recall.search({
      query,
      limit: 1,
      now: FAR_FUTURE,
      sync: false,
      match: "meaning",
    });
    scores.push(hits[0]?.score ?? 0);
  }
  return scores;
}

async function ownScores(recall, topics, sessionIds, kind) {
  const scores = [];
  for (const topic of topics) {
    const { hits } = await recall.search({
      query: topic.queries[kind],
      limit: 100,
      now: FAR_FUTURE,
      sync: false,
      match: "meaning",
    });
    scores.push(hits.find((hit) => hit.id === sessionIds.get(topic.id))?.score ?? 0);
  }
  return scores;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      set: { type: "string", default: "tuning" },
      distractors: { type: "string", default: "100" },
      seed: { type: "string", default: "1" },
      json: { type: "boolean", default: false },
    },
  });
  const { topics } = SETS[values.set];
  const distractors = Number(values.distractors);
  const seed = Number(values.seed);
  const outDir =
    values.set === "tuning"
      ? undefined
      : join(
          defaultEvalDir(distractors, seed),
          "..",
          `meaning-eval-${values.set}-n${distractors}-${seed}`,
        );
  // The evaluation writes the sessions and builds their meaning index (words only would not).
  await evaluate({
    topics,
    distractors,
    seed,
    outDir,
    matches: ["meaning"],
    kinds: ["keyword"],
    log: (m) => process.stderr.write(`${m}\n`),
  });
  const { agentDir, cacheDir, sessionIds } = await writeEvalSessions(topics, {
    distractors,
    seed,
    outDir,
  });
  const { Recall } = await import(LIBRARY_URL);
  const recall = Recall.open({
    env: {
      PI_CODING_AGENT_DIR: agentDir,
      RECALL_CACHE_DIR: cacheDir,
      RECALL_MODEL_DIR:
        process.env.RECALL_MODEL_DIR ?? join(import.meta.dirname, "..", ".cache", "model-minilm"),
    },
  });
  try {
    const result = {
      set: values.set,
      distractors,
      seed,
      aboutNothing: summarize(await bestScores(recall, ABOUT_NOTHING), 3),
      oneWord: summarize(await bestScores(recall, ONE_WORD), 3),
      paraphraseOwn: summarize(await ownScores(recall, topics, sessionIds, "paraphrase"), 3),
      vagueOwn: summarize(await ownScores(recall, topics, sessionIds, "vague"), 3),
    };
    if (values.json)
      process.stdout.write(`${JSON.stringify({ ...result, machine: machineInfo() })}\n`);
    else {
      console.log(
        `meaning scores without recency (${values.set} set, ${distractors} distractors, seed ${seed}): n, min, median, p95, max`,
      );
      for (const [name, s] of Object.entries(result).filter(([, v]) => typeof v === "object"))
        console.log(
          `  ${name.padEnd(14)} ${String(s.n).padStart(3)}  ${s.min}  ${s.median}  ${s.p95}  ${s.max}`,
        );
    }
  } finally {
    recall.close();
  }
}
