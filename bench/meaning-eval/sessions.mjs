// Writes the paraphrase evaluation's agent dir: the hand-written topics as Pi v3 session files,
// among the sessions of a generated corpus (bench/corpus.mjs) as distractors. The corpus's files
// are hard-linked, not copied: they are only read. Each topic goes into one of the corpus's project
// folders (so its folder says nothing of it), at a seeded time in the corpus's 180 days.
//
// Seeded and repeatable: the same topics, distractor count and seed give the same files; a folder
// written with them is reused (its recall cache too), otherwise it is written again from scratch.
import { createHash } from "node:crypto";
import {
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import { generateCorpus, REFERENCE_DATE, Rng } from "../corpus.mjs";
import { REPO_ROOT } from "../lib.mjs";

const MARKER = ".complete.json";
const REFERENCE_MS = Date.parse(REFERENCE_DATE);
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const MODEL = { api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5" };

export const defaultEvalDir = (distractors, seed) =>
  join(REPO_ROOT, ".cache", "bench", `meaning-eval-n${distractors}-${seed}`);

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir, base = dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesUnder(join(dir, entry.name), base)
      : [relative(base, join(dir, entry.name))],
  );
}

/** A UUIDv7-shaped session id whose leading bits are the creation time, as Pi's are. */
function sessionId(ms, rng) {
  const time = ms.toString(16).padStart(12, "0");
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${rng.hex(3)}-a${rng.hex(3)}-${rng.hex(12)}`;
}

/** One topic as the lines of a Pi v3 session file: header, model, then the turns as messages. */
export function sessionLines(topic, { id, cwd, created, rng }) {
  let clock = created;
  let parentId = null;
  const lines = [
    { type: "session", version: 3, id, timestamp: new Date(created).toISOString(), cwd },
  ];
  const append = (type, body) => {
    const entry = {
      type,
      id: rng.hex(8),
      parentId,
      timestamp: new Date(clock).toISOString(),
      ...body,
    };
    lines.push(entry);
    parentId = entry.id;
  };
  append("model_change", { provider: MODEL.provider, modelId: MODEL.model });
  topic.turns.forEach((text, k) => {
    clock += k % 2 === 0 ? rng.range(1, 20) * MINUTE : rng.range(20, 90) * 1000;
    const content = [{ type: "text", text }];
    if (k % 2 === 0) append("message", { message: { role: "user", content, timestamp: clock } });
    else {
      const usage = {
        input: 4,
        output: Math.ceil(text.length / 4),
        cacheRead: 1200 * k,
        cacheWrite: 300,
        totalTokens: 0,
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
      };
      usage.totalTokens = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
      append("message", {
        message: {
          role: "assistant",
          content,
          ...MODEL,
          usage,
          stopReason: "stop",
          timestamp: clock,
        },
      });
    }
  });
  return lines.map((line) => JSON.stringify(line));
}

/**
 * The evaluation's agent dir: `distractors` generated sessions (seeded with `seed`) and one
 * session per topic. Returns where it is, recall's cache folder for it, and each topic's session
 * id.
 */
export async function writeEvalSessions(
  topics,
  { distractors = 300, seed = 1, outDir = defaultEvalDir(distractors, seed), log = () => {} } = {},
) {
  const corpus = await generateCorpus({ size: distractors, seed, log });
  const agentDir = join(outDir, "agent");
  const sessionsDir = join(agentDir, "sessions");
  const cacheDir = join(outDir, "recall-cache");
  const manifest = JSON.parse(readFileSync(corpus.manifestPath, "utf8"));
  const params = {
    corpus: corpus.outDir,
    textPool: manifest.textPool.key,
    generated: manifest.counts,
    topics: createHash("sha256").update(JSON.stringify(topics)).digest("hex"),
  };
  const markerPath = join(outDir, MARKER);
  const plan = planSessions(
    topics,
    manifest.projects.filter((p) => p.sessions > 0),
    seed,
  );
  const sessionIds = new Map(plan.map(({ topic, id }) => [topic.id, id]));
  if (existsSync(markerPath) && readFileSync(markerPath, "utf8") === JSON.stringify(params)) {
    log(`paraphrase eval sessions up to date: ${outDir}`);
    return { agentDir, sessionsDir, cacheDir, sessionIds };
  }
  for (const stale of [markerPath, agentDir, cacheDir])
    rmSync(stale, { recursive: true, force: true });
  for (const file of filesUnder(corpus.sessionsDir)) {
    mkdirSync(join(sessionsDir, file, ".."), { recursive: true });
    linkSync(join(corpus.sessionsDir, file), join(sessionsDir, file));
  }
  for (const { topic, id, project, created, rng } of plan) {
    const stamp = new Date(created).toISOString().replace(/[:.]/g, "-");
    const lines = sessionLines(topic, { id, cwd: project.cwd, created, rng });
    writeFileSync(join(sessionsDir, project.dir, `${stamp}_${id}.jsonl`), `${lines.join("\n")}\n`);
  }
  writeFileSync(markerPath, JSON.stringify(params));
  log(
    `paraphrase eval sessions: ${topics.length} topics among ${distractors} generated sessions in ${outDir}`,
  );
  return { agentDir, sessionsDir, cacheDir, sessionIds };
}

/** Where and when each topic's session is: a seeded project of the corpus and a weekday time. */
function planSessions(topics, projects, seed) {
  return topics.map((topic) => {
    const rng = Rng.from("meaning-eval", seed, topic.id);
    const project = rng.pick(projects);
    const day = REFERENCE_MS - rng.range(2, 175) * DAY;
    const created = day + rng.range(9 * 60, 17 * 60) * MINUTE + rng.int(60_000);
    return { topic, project, created, id: sessionId(created, rng), rng };
  });
}
