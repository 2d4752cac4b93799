#!/usr/bin/env node
// Known-item evaluation of recall's ranking: can a user who remembers a few words of one message
// find that message's session? From a generated corpus, each known item (one user or assistant
// message) becomes a query of 3–4 words a person would remember, and the rank of its session is
// recorded. Reports R@1, R@5 and MRR.
//
// Which words a person remembers: not stopwords or stock phrases ("find", "tell", "looks") but the
// distinctive ones — so the words are drawn at random from the rarer half (by how many messages of
// the corpus contain them) of the content words of two different sentences of the message.
//
//   node bench/eval-ranking.mjs [--sessions 500] [--seed 1] [--queries 300] [--words distinctive|any] [--recency W] [--coordination C] [--json]
//
// Seeded and repeatable: the same corpus and seed give the same queries and the same numbers.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { generateCorpus, REFERENCE_DATE, Rng } from "./corpus.mjs";
// The library's internals: the evaluation sets the native core's ranking knobs directly.
import { resolveLocations } from "../dist/locations.js";
import { discoverSessionFiles } from "../dist/sessions/discover.js";
import { readSessionForIndex } from "../dist/sessions/session-index-reader.js";
import { openStore } from "../dist/store.js";
import { syncIndex } from "../dist/sync/sync.js";

const STOPWORDS = new Set(
  ("the a an and or but if then else of to in on at by for with from as is are was were be been being it its this that these those " +
    "there here what which who whom how why when where can could should would will shall may might must do does did done have has had " +
    "not no yes you your we our they their them he she his her i me my use used using let now also just like into over under about " +
    "than so such some any all each other more most very only own same too out up down off again further once one two new make made " +
    "get got see set need value values function return returns string number true false null undefined file files code")
    .split(/\s+/),
);

/** Words a person would remember: not stopwords, at least 4 letters, not code noise. */
function memorable(sentence) {
  return [...new Set((sentence.toLowerCase().match(/[a-z][a-z0-9]{3,}/g) ?? []).filter((w) => !STOPWORDS.has(w)))];
}

function sentences(text) {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => memorable(s).length >= 2);
}

/** 3–4 words from two different sentences of the message (from one when it has only one). */
export function knownItemQuery(text, rng, messageFrequency, sampling = "distinctive") {
  const parts = sentences(text);
  if (parts.length === 0) return undefined;
  const first = rng.int(parts.length);
  let second = parts.length > 1 ? rng.int(parts.length - 1) : first;
  if (parts.length > 1 && second >= first) second++;
  const count = rng.chance(0.5) ? 3 : 4;
  const fromFirst = Math.ceil(count / 2);
  const take = (words, n) => {
    // The rarer half of the sentence's words (at least n of them), rarest first.
    const ranked = [...words].sort((x, y) => (messageFrequency.get(x) ?? 0) - (messageFrequency.get(y) ?? 0));
    const pool = sampling === "any" ? ranked : ranked.slice(0, Math.max(n, Math.ceil(ranked.length / 2)));
    const out = [];
    while (out.length < n && pool.length) out.push(pool.splice(rng.int(pool.length), 1)[0]);
    return out;
  };
  const a = take(memorable(parts[first]), fromFirst);
  const b = take(memorable(parts[second]).filter((w) => !a.includes(w)), count - a.length);
  const query = [...a, ...b];
  return query.length >= 3 ? query.join(" ") : undefined;
}

/** For each word, how many indexed messages of the corpus contain it. */
async function wordMessageFrequency(sessionsDir) {
  const frequency = new Map();
  for (const file of (await discoverSessionFiles({ sessionsDir, layout: "projects" })).files) {
    for (const message of readSessionForIndex(file.path).messages) {
      for (const word of new Set(message.text.toLowerCase().match(/[a-z][a-z0-9]{3,}/g) ?? [])) {
        frequency.set(word, (frequency.get(word) ?? 0) + 1);
      }
    }
  }
  return frequency;
}

export async function evaluate({ sessions = 500, seed = 1, queries = 300, words = "distinctive", recencyWeight, coordination, log = () => {} } = {}) {
  const corpus = await generateCorpus({ size: sessions, seed, log });
  const env = { PI_CODING_AGENT_DIR: corpus.agentDir, RECALL_CACHE_DIR: join(corpus.outDir, "recall-cache") };
  const store = openStore(resolveLocations({ env }));
  await syncIndex(store);
  const items = readFileSync(corpus.knownItemsPath, "utf8").trim().split("\n").map((l) => JSON.parse(l));
  const messageFrequency = await wordMessageFrequency(corpus.sessionsDir);
  const rng = Rng.from("eval", seed);
  const ranks = [];
  const now = Date.parse(REFERENCE_DATE);
  for (const item of items) {
    if (ranks.length >= queries) break;
    const query = knownItemQuery(item.text, rng, messageFrequency, words);
    if (!query) continue;
    const hits = await store.native.search({ query, limit: 10, now, ...(recencyWeight === undefined ? {} : { recencyWeight }), ...(coordination === undefined ? {} : { coordination }) });
    const rank = hits.findIndex((h) => h.session.id === item.sessionId);
    ranks.push({ query, sessionId: item.sessionId, rank: rank === -1 ? null : rank + 1 });
  }
  const n = ranks.length;
  const within = (k) => ranks.filter((r) => r.rank !== null && r.rank <= k).length / n;
  const mrr = ranks.reduce((sum, r) => sum + (r.rank ? 1 / r.rank : 0), 0) / n;
  return { sessions, seed, words, queries: n, recencyWeight: recencyWeight ?? "default", coordination: coordination ?? "default", r1: within(1), r5: within(5), mrr, ranks };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      sessions: { type: "string", default: "500" },
      seed: { type: "string", default: "1" },
      queries: { type: "string", default: "300" },
      words: { type: "string", default: "distinctive" },
      recency: { type: "string" },
      coordination: { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  const result = await evaluate({
    sessions: Number(values.sessions),
    seed: Number(values.seed),
    queries: Number(values.queries),
    words: values.words,
    recencyWeight: values.recency === undefined ? undefined : Number(values.recency),
    coordination: values.coordination === undefined ? undefined : Number(values.coordination),
    log: (m) => process.stderr.write(`${m}\n`),
  });
  if (values.json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } else {
    const pct = (x) => `${(x * 100).toFixed(1)}%`;
    console.log(`sessions ${result.sessions}, seed ${result.seed}, ${result.queries} queries of ${result.words} words, recency weight ${result.recencyWeight}, coordination ${result.coordination}`);
    console.log(`R@1 ${pct(result.r1)}  R@5 ${pct(result.r5)}  MRR ${result.mrr.toFixed(3)}`);
  }
}
