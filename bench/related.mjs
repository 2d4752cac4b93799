/**
 * `Recall.related` in process, over a generated corpus (bench/corpus.mjs): its latency for a
 * spread of sessions (the index synced first, each call with `sync: false`), and how often the
 * nearest session shares a topic word of the corpus's plan (manifest `topicWords`) or a project,
 * against what a session drawn at random would.
 *
 *   npm run prepare && node bench/related.mjs [--corpus S|M] [--sessions 40] [--runs 3]
 *
 * Prints one JSON object: latency samples summarized (ms), the share of sessions whose first
 * related session shares a topic word / a project, and the same shares for a random session.
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { generateCorpus } from "./corpus.mjs";
import { LIBRARY_URL, now, summarize } from "./lib.mjs";

const { values } = parseArgs({ options: { corpus: { type: "string", default: "S" }, sessions: { type: "string", default: "40" }, runs: { type: "string", default: "3" } } });
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
    },
    null,
    2,
  ),
);
