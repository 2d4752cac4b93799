#!/usr/bin/env node
// Known-item evaluation of recall's ranking: can a user who remembers a few words of one message
// find that message's session? From a generated corpus, each known item (one user or assistant
// message) becomes a query of 3–4 words a person would remember, and the rank of its session is
// recorded. Reports R@1, R@5 and MRR. Other query shapes (`--shape`: two words, one word, one
// misspelt or absent word, a file the session touched, a command it ran) are described at SHAPES.
//
// Which words a person remembers: not stopwords or stock phrases ("find", "tell", "looks") but the
// distinctive ones — so the words are drawn at random from the rarer half (by how many messages of
// the corpus contain them) of the content words of two different sentences of the message.
//
//   node bench/eval-ranking.mjs [--sessions 500] [--seed 1] [--queries 300] [--words
//   distinctive|any]
//        [--shape remembered|two|one|misspelt|absent|file|command] [--recency W] [--coordination C]
//        [--match words|meaning|both] [--json]
//
// --match searches through the library facade (`recall.search({ match })`) instead of the native
// index, after building the corpus's meaning index (the model as the paraphrase evaluation finds
// it: RECALL_MODEL_DIR, else .cache/model-minilm); for the shapes whose search is a query alone.
//
// Seeded and repeatable: the same corpus and seed give the same queries and the same numbers.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { generateCorpus, REFERENCE_DATE, Rng } from "./corpus.mjs";
// The library's internals: the evaluation sets the native core's ranking knobs directly.
import { resolveLocations } from "../dist/locations.js";
import { discoverSessionFiles } from "../dist/sessions/discover.js";
import { readSessionForIndex } from "../dist/sessions/session-index-reader.js";
import { openStore } from "../dist/store.js";
import { syncIndex } from "../dist/sync/sync.js";
import { LIBRARY_URL, REPO_ROOT } from "./lib.mjs";

const STOPWORDS = new Set(
  (
    "the a an and or but if then else of to in on at by for with from as is are was were be been being it its this that these those " +
    "there here what which who whom how why when where can could should would will shall may might must do does did done have has had " +
    "not no yes you your we our they their them he she his her i me my use used using let now also just like into over under about " +
    "than so such some any all each other more most very only own same too out up down off again further once one two new make made " +
    "get got see set need value values function return returns string number true false null undefined file files code"
  ).split(/\s+/),
);

/** Words a person would remember: not stopwords, at least 4 letters, not code noise. */
function memorable(sentence) {
  return [
    ...new Set(
      (sentence.toLowerCase().match(/[a-z][a-z0-9]{3,}/g) ?? []).filter((w) => !STOPWORDS.has(w)),
    ),
  ];
}

function sentences(text) {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => memorable(s).length >= 2);
}

/**
 * `count` words (3 or 4 at random when not given) from two different sentences of the message
 * (from one when it has only one), half of them from the first.
 */
export function knownItemQuery(
  text,
  rng,
  messageFrequency,
  sampling = "distinctive",
  count = undefined,
) {
  const parts = sentences(text);
  if (parts.length === 0) return undefined;
  const first = rng.int(parts.length);
  let second = parts.length > 1 ? rng.int(parts.length - 1) : first;
  if (parts.length > 1 && second >= first) second++;
  const wanted = count ?? (rng.chance(0.5) ? 3 : 4);
  const fromFirst = Math.ceil(wanted / 2);
  const a = remembered(memorable(parts[first]), fromFirst, rng, messageFrequency, sampling);
  const b = remembered(
    memorable(parts[second]).filter((w) => !a.includes(w)),
    wanted - a.length,
    rng,
    messageFrequency,
    sampling,
  );
  const query = [...a, ...b];
  return query.length >= Math.min(wanted, 3) ? query.join(" ") : undefined;
}

/** `n` of `words` at random: from the rarer half of them (at least n), or from all of them. */
function remembered(words, n, rng, frequency, sampling) {
  const ranked = [...words].sort((x, y) => (frequency.get(x) ?? 0) - (frequency.get(y) ?? 0));
  const pool =
    sampling === "any" ? ranked : ranked.slice(0, Math.max(n, Math.ceil(ranked.length / 2)));
  const out = [];
  while (out.length < n && pool.length) out.push(pool.splice(rng.int(pool.length), 1)[0]);
  return out;
}

/**
 * `word` as a hurried typist gets it wrong: two neighbouring letters swapped, one dropped, or one
 * doubled.
 */
export function misspelt(word, rng) {
  const at = 1 + rng.int(word.length - 2);
  const typos = [
    () => word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2),
    () => word.slice(0, at) + word.slice(at + 1),
    () => word.slice(0, at) + word[at] + word.slice(at),
  ];
  const first = rng.int(typos.length);
  for (let k = 0; k < typos.length; k++) {
    const typo = typos[(first + k) % typos.length]();
    if (typo !== word) return typo;
  }
  return `${word}x`;
}

/**
 * The query shapes (`--shape`), each what a real user types:
 *  - remembered: 3–4 words of the message, from two of its sentences;
 *  - two: two words of the message, from two of its sentences;
 *  - one: one word of the message (where the words decide which sessions hold it, and the
 *    ranking alone decides whether its session comes first);
 *  - misspelt: a remembered query with one word misspelt;
 *  - absent: a remembered query with one word replaced by one the session never says (a word of
 *    another message of the corpus, drawn as the others are);
 *  - file: two words of the message, searched among the sessions that touched a file one of the
 *    session's tool calls read, edited, wrote or named (`recall search --file PATH`);
 *  - command: a shell command the session ran, searched in every kind of text (`--content all`).
 */
export const SHAPES = ["remembered", "two", "one", "misspelt", "absent", "file", "command"];
const EVERY_KIND = ["conversation", "thinking", "call", "output"];
const wordsIn = (text) => text.toLowerCase().match(/[a-z][a-z0-9]{3,}/g) ?? [];

/**
 * What the queries are drawn from, in one pass over the corpus: for each word, how many
 * conversation messages hold it, and how many tool calls; for each wanted session, the words it
 * says, the files its calls touched, and its shell commands.
 */
export async function readCorpus(sessionsDir, wanted) {
  const messageFrequency = new Map();
  const callFrequency = new Map();
  const sessions = new Map();
  const count = (frequency, text) => {
    for (const word of new Set(wordsIn(text))) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  };
  for (const file of (await discoverSessionFiles({ sessionsDir, layout: "projects" })).files) {
    const read = readSessionForIndex(file.path);
    const mine = wanted.has(read.header.id)
      ? { words: new Set(), files: new Set(), commands: [] }
      : undefined;
    for (const message of read.messages) {
      if (message.kind === undefined) {
        count(messageFrequency, message.text);
        if (mine) for (const word of wordsIn(message.text)) mine.words.add(word);
      } else if (message.kind === "call") {
        count(callFrequency, message.text);
        if (!mine) continue;
        for (const path of message.files ?? []) mine.files.add(path);
        if (message.tool === "bash") mine.commands.push(message.text.replace(/^bash /, ""));
      }
    }
    if (mine) sessions.set(read.header.id, { ...mine, files: [...mine.files].sort() });
  }
  return { messageFrequency, callFrequency, sessions };
}

/**
 * The search one known item (a message of a session) turns into; its query is undefined when the
 * item gives none of this shape.
 */
async function knownItemSearch(shape, item, rng, corpus, words, store) {
  const { messageFrequency, callFrequency, sessions } = corpus;
  const session = sessions.get(item.sessionId);
  switch (shape) {
    case "remembered":
      return { query: knownItemQuery(item.text, rng, messageFrequency, words) };
    case "two":
      return { query: knownItemQuery(item.text, rng, messageFrequency, words, 2) };
    case "one":
      return { query: knownItemQuery(item.text, rng, messageFrequency, words, 1) };
    case "misspelt":
    case "absent": {
      const query = knownItemQuery(item.text, rng, messageFrequency, words)?.split(" ");
      if (!query) return { query: undefined };
      const at = rng.int(query.length);
      if (shape === "misspelt") query[at] = misspelt(query[at], rng);
      else {
        const candidates = corpus.vocabulary.filter(
          (w) => !session.words.has(w) && !query.includes(w),
        );
        const [word] = remembered(candidates, 1, rng, messageFrequency, words);
        query[at] = word;
      }
      return { query: query.join(" ") };
    }
    case "file": {
      if (session.files.length === 0) return { query: undefined };
      const file = session.files[rng.int(session.files.length)];
      const touching = new Set(
        (await store.native.callsTouching(file)).map((call) => call.sessionPath),
      );
      return {
        query: knownItemQuery(item.text, rng, messageFrequency, words, 2),
        filters: { paths: [...touching] },
      };
    }
    case "command": {
      // A command is as rare as its rarest word; `distinctive` draws from the rarer half of them.
      const rarity = (command) =>
        Math.min(...wordsIn(command).map((w) => callFrequency.get(w) ?? 0));
      const commands = [...new Set(session.commands)].filter((c) => wordsIn(c).length > 0);
      const ranked = commands.sort((x, y) => rarity(x) - rarity(y) || (x < y ? -1 : 1));
      const pool = words === "any" ? ranked : ranked.slice(0, Math.ceil(ranked.length / 2));
      return { query: pool.length ? pool[rng.int(pool.length)] : undefined, content: EVERY_KIND };
    }
    default:
      throw new Error(`unknown query shape: ${shape} (expected one of ${SHAPES.join(", ")})`);
  }
}

/** A search through the library facade by `match`, after the corpus's meaning index is built. */
async function facadeSearch(env, match, log) {
  const modelDir = process.env.RECALL_MODEL_DIR ?? join(REPO_ROOT, ".cache", "model-minilm");
  if (match !== "words" && !existsSync(join(modelDir, "model.onnx")))
    throw new Error(
      `--match ${match} needs the model package in ${modelDir} (scripts/model-package.sh)`,
    );
  const { Recall } = await import(LIBRARY_URL);
  const recall = Recall.open({ env: { ...env, RECALL_MODEL_DIR: modelDir } });
  await recall.sync();
  if (match !== "words") {
    const started = Date.now();
    const built = await recall.meaning.build();
    log(
      `meaning index: ${built.added} texts embedded in ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
  }
  return async (search, now) => ({
    hits: (
      await recall.search({ query: search.query, limit: 10, now, sync: false, match })
    ).hits.map((hit) => ({ session: { id: hit.id } })),
  });
}

export async function evaluate({
  sessions = 500,
  seed = 1,
  queries = 300,
  words = "distinctive",
  shape = "remembered",
  recencyWeight,
  coordination,
  match,
  log = () => {},
} = {}) {
  if (!SHAPES.includes(shape))
    throw new Error(`unknown query shape: ${shape} (expected one of ${SHAPES.join(", ")})`);
  if (match && ["file", "command"].includes(shape))
    throw new Error(`--match takes the shapes whose search is a query alone, not ${shape}`);
  const generated = await generateCorpus({ size: sessions, seed, log });
  const env = {
    PI_CODING_AGENT_DIR: generated.agentDir,
    RECALL_CACHE_DIR: join(generated.outDir, "recall-cache"),
  };
  const store = await openStore(resolveLocations({ env }));
  await syncIndex(store);
  const searchBy = match
    ? await facadeSearch(env, match, log)
    : (search, now) => store.native.search({ limit: 10, now, ...knobs, ...search });
  const items = readFileSync(generated.knownItemsPath, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  const corpus = await readCorpus(
    generated.sessionsDir,
    new Set(items.map((item) => item.sessionId)),
  );
  corpus.vocabulary = [
    ...new Set(items.flatMap((item) => sentences(item.text).flatMap(memorable))),
  ].sort();
  const knobs = Object.fromEntries(
    Object.entries({ recencyWeight, coordination }).filter(([, v]) => v !== undefined),
  );
  const rng = Rng.from("eval", seed);
  const ranks = [];
  const now = Date.parse(REFERENCE_DATE);
  for (const item of items) {
    if (ranks.length >= queries) break;
    const search = await knownItemSearch(shape, item, rng, corpus, words, store);
    if (!search.query) continue;
    const { hits } = await searchBy(search, now);
    const rank = hits.findIndex((h) => h.session.id === item.sessionId);
    ranks.push({
      query: search.query,
      sessionId: item.sessionId,
      rank: rank === -1 ? null : rank + 1,
    });
  }
  const n = ranks.length;
  const within = (k) => ranks.filter((r) => r.rank !== null && r.rank <= k).length / n;
  const mrr = ranks.reduce((sum, r) => sum + (r.rank ? 1 / r.rank : 0), 0) / n;
  const settings = Object.fromEntries(
    Object.entries({ recencyWeight, coordination }).map(([k, v]) => [k, v ?? "default"]),
  );
  return {
    sessions,
    seed,
    words,
    shape,
    match: match ?? "native words",
    queries: n,
    ...settings,
    r1: within(1),
    r5: within(5),
    mrr,
    ranks,
  };
}

/** The command-line options that say which corpus and how many of its known items. */
export const CORPUS_OPTIONS = {
  sessions: { type: "string", default: "500" },
  seed: { type: "string", default: "1" },
  queries: { type: "string", default: "300" },
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      ...CORPUS_OPTIONS,
      words: { type: "string", default: "distinctive" },
      shape: { type: "string", default: "remembered" },
      recency: { type: "string" },
      coordination: { type: "string" },
      match: { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  const number = (v) => (v === undefined ? undefined : Number(v));
  const result = await evaluate({
    sessions: Number(values.sessions),
    seed: Number(values.seed),
    queries: Number(values.queries),
    words: values.words,
    shape: values.shape,
    recencyWeight: number(values.recency),
    coordination: number(values.coordination),
    match: values.match,
    log: (m) => process.stderr.write(`${m}\n`),
  });
  if (values.json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } else {
    const pct = (x) => `${(x * 100).toFixed(1)}%`;
    const settings = ["recencyWeight", "coordination"].map((k) => `${k} ${result[k]}`).join(", ");
    console.log(
      `sessions ${result.sessions}, seed ${result.seed}, ${result.queries} ${result.shape} queries of ${result.words} words, match ${result.match}; ${settings}`,
    );
    console.log(`R@1 ${pct(result.r1)}  R@5 ${pct(result.r5)}  MRR ${result.mrr.toFixed(3)}`);
  }
}
