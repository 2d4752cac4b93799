/**
 * `Recall.related` in process, over a generated corpus (bench/corpus.mjs): its latency for a
 * spread of sessions (the index synced first, each call with `sync: false`), and how often the
 * nearest session shares a topic word of the corpus's plan (manifest `topicWords`) or a project,
 * against what a session drawn at random would. Then over the paraphrase evaluation's sessions
 * (bench/meaning-eval: hand-written topics in close pairs, among generated distractors): where
 * each paired topic's session ranks its twin among its related sessions, by words and, with the
 * model package, by meaning and by both (its meaning index built first).
 *
 *   npm run prepare && node bench/related.mjs [--corpus S|M] [--sessions 40] [--runs 3]
 *   [--distractors 300]
 *
 * Prints one JSON object: latency samples summarized (ms), the share of sessions whose first
 * related session shares a topic word / a project, the same shares for a random session, and the
 * twins' R@1, R@5 and MRR by match.
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { generateCorpus } from "./corpus.mjs";
import { existsSync } from "node:fs";
import { LIBRARY_URL, REPO_ROOT, now, summarize } from "./lib.mjs";
import { writeEvalSessions } from "./meaning-eval/sessions.mjs";
import { TOPICS } from "./meaning-eval/topics.mjs";

const { values } = parseArgs({
  options: {
    corpus: { type: "string", default: "S" },
    sessions: { type: "string", default: "40" },
    runs: { type: "string", default: "3" },
    distractors: { type: "string", default: "300" },
  },
});
const corpus = await generateCorpus({ size: values.corpus, seed: 1 });
const { Recall } = await import(LIBRARY_URL);
const { readFileSync } = await import("node:fs");
const manifest = JSON.parse(readFileSync(corpus.manifestPath, "utf8"));
const root = join(corpus.manifestPath, "..");
const sessions = manifest.sessions.map((s) => ({ ...s, path: join(root, s.path) }));

const recall = Recall.open({ env: { ...process.env, PI_CODING_AGENT_DIR: corpus.agentDir } });
let t = now();
await recall.sync();
const syncMs = now() - t;

// Every k-th session: a spread over projects, sizes and ages, the same on every run.
const step = Math.max(1, Math.floor(sessions.length / Number(values.sessions)));
const picked = sessions.filter((_, n) => n % step === 0).slice(0, Number(values.sessions));
const byPath = new Map(sessions.map((s) => [s.path, s]));
const sharesTopic = (a, b) => a.topicWords.some((word) => b.topicWords.includes(word));
const samples = [];
let topic = 0;
let project = 0;
let found = 0;
for (const session of picked) {
  const first = await recall.related({ session: session.path, limit: 10, sync: false });
  for (let run = 0; run < Number(values.runs); run++) {
    t = now();
    await recall.related({ session: session.path, limit: 10, sync: false });
    samples.push(now() - t);
  }
  const nearest = first.hits[0] && byPath.get(first.hits[0].path);
  if (!nearest) continue;
  found++;
  if (sharesTopic(session, nearest)) topic++;
  if (nearest.cwd === session.cwd) project++;
}
// What chance gives: each picked session against every other session.
let chanceTopic = 0;
let chanceProject = 0;
for (const session of picked) {
  const others = sessions.filter((s) => s.path !== session.path);
  chanceTopic += others.filter((s) => sharesTopic(session, s)).length / others.length;
  chanceProject += others.filter((s) => s.cwd === session.cwd).length / others.length;
}
recall.close();

// The paraphrase evaluation's close pairs: each paired session's twin, among its related sessions,
// by words, and with the model package (RECALL_MODEL_DIR or .cache/model-minilm) by meaning and
// both.
const modelDir = process.env.RECALL_MODEL_DIR ?? join(REPO_ROOT, ".cache", "model-minilm");
const withModel = existsSync(join(modelDir, "model.onnx"));
const evalSessions = await writeEvalSessions(TOPICS, {
  distractors: Number(values.distractors),
  seed: 1,
});
const pairs = Recall.open({
  env: {
    PI_CODING_AGENT_DIR: evalSessions.agentDir,
    RECALL_CACHE_DIR: evalSessions.cacheDir,
    ...(withModel ? { RECALL_MODEL_DIR: modelDir } : {}),
  },
});
await pairs.sync();
if (withModel) await pairs.meaning.build();
const twins = {};
for (const match of withModel ? ["words", "meaning", "both"] : ["words"]) {
  const ranks = [];
  for (const topic of TOPICS.filter((t) => t.pair)) {
    const twin = TOPICS.find((t) => t.pair === topic.pair && t.id !== topic.id);
    const { hits } = await pairs.related({
      session: evalSessions.sessionIds.get(topic.id),
      limit: 10,
      sync: false,
      match,
    });
    const rank = hits.findIndex((hit) => hit.id === evalSessions.sessionIds.get(twin.id));
    ranks.push(rank === -1 ? null : rank + 1);
  }
  const within = (k) =>
    Number((ranks.filter((rank) => rank !== null && rank <= k).length / ranks.length).toFixed(3));
  twins[match] = {
    sessions: ranks.length,
    r1: within(1),
    r5: within(5),
    mrr: Number(
      (ranks.reduce((sum, rank) => sum + (rank ? 1 / rank : 0), 0) / ranks.length).toFixed(3),
    ),
  };
}
pairs.close();
const share = (n, of) => Number((n / Math.max(1, of)).toFixed(3));
console.log(
  JSON.stringify(
    {
      corpus: values.corpus,
      sessions: sessions.length,
      asked: picked.length,
      syncMs: Math.round(syncMs),
      relatedMs: summarize(samples),
      withHits: found,
      nearestSharesTopicWord: share(topic, found),
      nearestSameProject: share(project, found),
      chanceTopicWord: share(chanceTopic, picked.length),
      chanceSameProject: share(chanceProject, picked.length),
      twins,
    },
    null,
    2,
  ),
);
