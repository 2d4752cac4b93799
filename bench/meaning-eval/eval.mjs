#!/usr/bin/env node
// Paraphrase evaluation (issue 31): can a user who half-remembers what a session was about find it?
// Hand-written topic sessions (topics.mjs) among generated distractors (sessions.mjs); for each
// topic three queries (paraphrase, vague, keyword) are searched through the library facade, in
// process, and the rank of the topic's session is recorded. Reports R@1, R@5 and MRR per query kind
// and match mode, and how often a paraphrase or vague query ranked its close twin (`pair`) higher.
//
//   node bench/meaning-eval/eval.mjs [--set tuning|held-back] [--distractors 300] [--seed 1]
//   [--match words,meaning,both] [--out DIR] [--json]
//
// `--set held-back` reports on the held-back topics (held-back.mjs), never tuned on, with the
// known-item shapes too (remembered, two, and from remembered: misspelt, absent).
// The rules of the queries (check.mjs) are checked first; a broken rule stops the evaluation.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { REFERENCE_DATE } from "../corpus.mjs";
import { LIBRARY_URL, machineInfo } from "../lib.mjs";
import { checkTopics } from "./check.mjs";
import { join } from "node:path";
import { missingWords } from "./check.mjs";
import { HELD_BACK } from "./held-back.mjs";
import { defaultEvalDir, writeEvalSessions } from "./sessions.mjs";
import { TOPICS } from "./topics.mjs";

export const KINDS = ["paraphrase", "vague", "keyword"];
export const HELD_BACK_KINDS = [...KINDS, "remembered", "two", "misspelt", "absent"];
/** The sets: the topics tuned on, and the held-back ones that only report. */
export const SETS = {
  tuning: { topics: TOPICS, kinds: KINDS },
  "held-back": { topics: HELD_BACK, kinds: HELD_BACK_KINDS },
};

/** `query` with two letters of its longest word swapped, as a hurried hand types it. */
export function misspelt(query) {
  const words = query.split(" ");
  const at = words.reduce((best, word, i) => (word.length > words[best].length ? i : best), 0);
  const word = words[at];
  const i = Math.max(1, Math.floor(word.length / 2) - 1);
  words[at] =
    word[i] === word[i + 1]
      ? `${word.slice(0, i)}${word.slice(i + 1)}`
      : `${word.slice(0, i)}${word[i + 1]}${word[i]}${word.slice(i + 2)}`;
  return words.join(" ");
}

/**
 * `query` with its last word replaced by a remembered word of the next topic that `topic`'s session
 * never says.
 */
export function absent(query, topic, topics) {
  const words = query.split(" ");
  const text = topic.turns.join("\n");
  const at = topics.indexOf(topic);
  const others = [...topics.slice(at + 1), ...topics.slice(0, at)].flatMap((other) =>
    (other.queries.remembered ?? other.queries.keyword).split(" "),
  );
  const stranger = others.find(
    (word) => missingWords(word, text).length > 0 && !words.includes(word),
  );
  words[words.length - 1] = stranger;
  return words.join(" ");
}

/** The query of `kind` for `topic`: written, or derived from the remembered one. */
function queryOf(kind, topic, topics) {
  if (kind === "misspelt") return misspelt(topic.queries.remembered);
  if (kind === "absent") return absent(topic.queries.remembered, topic, topics);
  return topic.queries[kind];
}
export const MATCHES = ["words", "meaning", "both"];
const DEPTH = 10;

/**
 * How each match mode searches: the session ids of a query's hits, best first. `meaning` and
 * `both` read the meaning index, built before the searches (`recall.indexMeaning`); without the
 * model package (beside recall, or RECALL_MODEL_DIR; scripts/model-package.sh assembles it in
 * .cache/model-minilm, used when present) they are reported unavailable.
 */
const searchBy = (match) => async (recall, query) =>
  (
    await recall.search({
      query,
      limit: DEPTH,
      now: Date.parse(REFERENCE_DATE),
      sync: false,
      match,
    })
  ).hits.map((hit) => hit.id);
const SEARCHES = { words: searchBy("words"), meaning: searchBy("meaning"), both: searchBy("both") };
const UNAVAILABLE =
  "needs the meaning model package recall-pi-model-minilm (scripts/model-package.sh), which is not installed";
const ASSEMBLED_MODEL = fileURLToPath(new URL("../../.cache/model-minilm", import.meta.url));

/**
 * Where the model is: RECALL_MODEL_DIR, else the package assembled in this checkout; null: beside
 * recall, if anywhere.
 */
function defaultModelDir() {
  if (process.env.RECALL_MODEL_DIR) return process.env.RECALL_MODEL_DIR;
  return existsSync(`${ASSEMBLED_MODEL}/model.onnx`) ? ASSEMBLED_MODEL : null;
}

/** R@1, R@5 and MRR of 1-based ranks (null: not in the first DEPTH hits). */
function scores(ranks) {
  const within = (k) => ranks.filter((rank) => rank !== null && rank <= k).length / ranks.length;
  return {
    queries: ranks.length,
    r1: within(1),
    r5: within(5),
    mrr: ranks.reduce((sum, rank) => sum + (rank ? 1 / rank : 0), 0) / ranks.length,
  };
}

export async function evaluate({
  topics = TOPICS,
  distractors = 300,
  seed = 1,
  matches = MATCHES,
  kinds = KINDS,
  outDir,
  modelDir = defaultModelDir(),
  log = () => {},
} = {}) {
  for (const kind of kinds)
    if (!HELD_BACK_KINDS.includes(kind))
      throw new Error(
        `unknown query kind: ${kind} (expected one of ${HELD_BACK_KINDS.join(", ")})`,
      );
  for (const match of matches)
    if (!MATCHES.includes(match))
      throw new Error(`unknown match mode: ${match} (expected one of ${MATCHES.join(", ")})`);
  const problems = checkTopics(topics);
  if (problems.length)
    throw new Error(`the paraphrase eval's topics break its rules:\n  ${problems.join("\n  ")}`);
  const { agentDir, cacheDir, sessionIds } = await writeEvalSessions(topics, {
    distractors,
    seed,
    outDir,
    log,
  });
  const { Recall } = await import(LIBRARY_URL);
  const recall = Recall.open({
    env: {
      PI_CODING_AGENT_DIR: agentDir,
      RECALL_CACHE_DIR: cacheDir,
      ...(modelDir ? { RECALL_MODEL_DIR: modelDir } : {}),
    },
  });
  try {
    await recall.sync();
    const meaningWanted = matches.some((match) => match !== "words");
    const hasModel = meaningWanted && recall.meaning.modelInstalled();
    let meaningBuild = null;
    if (hasModel) {
      const started = performance.now();
      const report = await recall.meaning.build();
      meaningBuild = {
        messages: report.messages,
        embedded: report.embedded,
        seconds: (performance.now() - started) / 1000,
      };
      log(
        `meaning index: ${report.embedded} messages embedded in ${meaningBuild.seconds.toFixed(1)} s`,
      );
    }
    const twinOf = new Map(
      topics
        .filter((t) => t.pair)
        .map((t) => [t.id, topics.find((u) => u.pair === t.pair && u.id !== t.id).id]),
    );
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
          const query = queryOf(kind, topic, topics);
          const hits = await search(recall, query);
          const rank = hits.indexOf(sessionIds.get(topic.id));
          ranks.push({ topic: topic.id, query, rank: rank === -1 ? null : rank + 1 });
          const twin = hits.indexOf(sessionIds.get(twinOf.get(topic.id)));
          if (twin !== -1 && (rank === -1 || twin < rank)) twinAbove++;
        }
        byKind[kind] = {
          ...scores(ranks.map((r) => r.rank)),
          twinAbove: twinOf.size ? twinAbove / twinOf.size : null,
          ranks,
        };
      }
      results.push({ match, available: true, kinds: byKind });
    }
    return {
      topics: topics.length,
      pairs: twinOf.size / 2,
      distractors,
      seed,
      meaningBuild,
      results,
    };
  } finally {
    recall.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      set: { type: "string", default: "tuning" },
      out: { type: "string" },
      distractors: { type: "string", default: "300" },
      seed: { type: "string", default: "1" },
      match: { type: "string", default: MATCHES.join(",") },
      json: { type: "boolean", default: false },
    },
  });
  let result;
  try {
    const set = SETS[values.set];
    if (!set)
      throw new Error(
        `unknown set: ${values.set} (expected one of ${Object.keys(SETS).join(", ")})`,
      );
    const distractors = Number(values.distractors);
    const seed = Number(values.seed);
    // The held-back sessions have their own folder: the tuning set's index is not rebuilt for them.
    const ownDir =
      values.set === "tuning"
        ? undefined
        : join(
            defaultEvalDir(distractors, seed),
            "..",
            `meaning-eval-${values.set}-n${distractors}-${seed}`,
          );
    const outDir = values.out ?? ownDir;
    result = await evaluate({
      ...set,
      distractors,
      seed,
      outDir,
      matches: values.match.split(","),
      log: (m) => process.stderr.write(`${m}\n`),
    });
    result.set = values.set;
  } catch (error) {
    process.stderr.write(`meaning-eval: ${error.message}\n`);
    process.exit(1);
  }
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ ...result, machine: machineInfo() })}\n`);
  } else {
    const pct = (x) => `${(x * 100).toFixed(1)}%`.padStart(6);
    console.log(
      `paraphrase eval (${result.set} set): ${result.topics} topics (${result.pairs} close pairs) among ${result.distractors} generated sessions, seed ${result.seed}`,
    );
    for (const { match, available, reason, kinds } of result.results) {
      if (!available) {
        console.log(`  ${match.padEnd(7)} n/a: ${reason}`);
        continue;
      }
      for (const [kind, s] of Object.entries(kinds))
        console.log(
          `  ${match.padEnd(7)} ${kind.padEnd(10)} R@1 ${pct(s.r1)}  R@5 ${pct(s.r5)}  MRR ${s.mrr.toFixed(3)}  twin above ${s.twinAbove === null ? "   n/a" : pct(s.twinAbove)}`,
        );
    }
  }
}
