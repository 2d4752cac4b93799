#!/usr/bin/env node
// Deterministic, seeded generator of realistic Pi session directories (v3 JSONL), for benchmarks
// and ranking evaluation. See bench/README.md.
//
//   node bench/corpus.mjs --corpus S|M|L [--sessions N] [--seed N] [--shape output] [--out DIR]
//                         [--force] [--system-docs] [--quiet] [--json]
//
//   import { generateCorpus } from "./bench/corpus.mjs";
//   const summary = await generateCorpus({ size: "S", seed: 1, outDir });
//
// Plain Node >= 20, standard library only. Same parameters + same text pool ⇒ byte-identical
// output.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_ROOTS, REPO_ROOT, SYSTEM_DOC_ROOT, loadTextPool } from "./text-source.mjs";

/** Bump when the output for given parameters changes, so completed corpora are regenerated. */
export const GENERATOR_VERSION = 1;
export const REFERENCE_DATE = "2026-11-01T00:00:00.000Z";
export const SIZES = { S: 200, M: 2000, L: 10000 };
/**
 * How a session's turns spend their bytes. `default`: about 60 % tool output. `output`: most bytes
 * are tool output (~85 % of the bytes: more tool rounds, more bash, more test logs, file dumps and
 * big untruncated outputs), as in the histories of agents that mostly run commands. Each list is
 * the weights of one random choice, so a shape changes what is drawn, never how often the generator
 * draws.
 */
export const SHAPES = {
  default: {
    rounds: [12, 18, 18, 15, 12, 9, 7, 5, 4],
    tools: [34, 42, 18, 4],
    bash: [18, 7, 20, 8, 15, 14, 8, 9, 1],
  },
  output: {
    rounds: [2, 4, 6, 10, 12, 14, 16, 18, 18],
    tools: [30, 62, 6, 2],
    bash: [12, 4, 30, 10, 10, 18, 8, 2, 6],
  },
};
export const KNOWN_ITEM_COUNT = 300;
const MARKER = ".complete.json";

const REF_MS = Date.parse(REFERENCE_DATE);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// =============================================================================================
// PRNG: mulberry32, seeded through a string hash, so every stream is derived from (seed, label).

function hash32(str) {
  let h = 0x811c9dc5;
  for (let i = 0; i < str.length; i++) {
    h ^= str.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const HEX = "0123456789abcdef";
const B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const B36 = "0123456789abcdefghijklmnopqrstuvwxyz";

export class Rng {
  constructor(seed) {
    this.s = seed >>> 0;
  }
  static from(...parts) {
    return new Rng(hash32(parts.join(":")));
  }
  /** uniform in [0, 1) */
  next() {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** integer in [0, n) */
  int(n) {
    return Math.floor(this.next() * n);
  }
  /** integer in [a, b] */
  range(a, b) {
    return a + this.int(b - a + 1);
  }
  chance(p) {
    return this.next() < p;
  }
  pick(arr) {
    return arr[this.int(arr.length)];
  }
  /** index drawn according to `weights` */
  weighted(weights) {
    let total = 0;
    for (const w of weights) total += w;
    let x = this.next() * total;
    for (let i = 0; i < weights.length; i++) {
      x -= weights[i];
      if (x < 0) return i;
    }
    return weights.length - 1;
  }
  normal() {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
  /** log-normal with the given median, clamped to [lo, hi] */
  logNormal(median, sigma, lo = 0, hi = Infinity) {
    return Math.min(hi, Math.max(lo, median * Math.exp(sigma * this.normal())));
  }
  chars(alphabet, n) {
    let s = "";
    for (let i = 0; i < n; i++) s += alphabet[this.int(alphabet.length)];
    return s;
  }
  hex(n) {
    return this.chars(HEX, n);
  }
  base64(nBytes) {
    const b = Buffer.allocUnsafe(nBytes);
    for (let i = 0; i < nBytes; i += 4) {
      const x = (this.next() * 4294967296) >>> 0;
      b[i] = x & 255;
      if (i + 1 < nBytes) b[i + 1] = (x >>> 8) & 255;
      if (i + 2 < nBytes) b[i + 2] = (x >>> 16) & 255;
      if (i + 3 < nBytes) b[i + 3] = x >>> 24;
    }
    return b.toString("base64");
  }
}

// =============================================================================================
// Fixed vocabulary of the generator (project names, models, templates)

const PROJECTS = [
  { cwd: "/home/dev/recall", root: "src", test: "test" },
  { cwd: "/home/dev/api-gateway", root: "src", test: "tests" },
  { cwd: "/home/dev/web-dashboard", root: "app", test: "app/__tests__" },
  { cwd: "/home/dev/pi-extensions", root: "extensions", test: "test" },
  { cwd: "/home/dev/data-pipeline", root: "lib", test: "spec" },
  { cwd: "/home/dev/infra", root: "modules", test: "tests" },
  { cwd: "/home/dev/work/billing-service", root: "packages/core/src", test: "packages/core/test" },
  { cwd: "/home/dev/cli-tools", root: "src", test: "test" },
  { cwd: "/home/dev/docs-site", root: "site", test: "test" },
  { cwd: "/home/dev/mobile-app", root: "src", test: "src/__tests__" },
  { cwd: "/home/dev/dotfiles", root: "config", test: "test" },
  { cwd: "/home/dev/ml-experiments", root: "experiments", test: "tests" },
];

const MODELS = [
  {
    w: 35,
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-opus-4-5",
    price: [5, 25, 0.5, 6.25],
  },
  {
    w: 22,
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    price: [3, 15, 0.3, 3.75],
  },
  {
    w: 20,
    api: "openai-responses",
    provider: "openai",
    model: "gpt-5.1-codex",
    price: [1.25, 10, 0.125, 0],
  },
  {
    w: 6,
    api: "openai-responses",
    provider: "openai",
    model: "gpt-5.2",
    price: [1.75, 14, 0.175, 0],
  },
  {
    w: 12,
    api: "google-generative-ai",
    provider: "google",
    model: "gemini-2.5-pro",
    price: [1.25, 10, 0.31, 0],
  },
  {
    w: 5,
    api: "openai-completions",
    provider: "openrouter",
    model: "z-ai/glm-4.6",
    price: [0.6, 2.2, 0.11, 0],
  },
];
const THINKING_LEVELS = ["off", "low", "medium", "high"];
const THINKING_WEIGHTS = [20, 20, 40, 20];

const USER_TEMPLATES = [
  "Can you look into why {ident} in {file} breaks when {topic} is involved?",
  "The {topic} handling in {file} looks wrong to me.",
  "Please add a test for {ident} that covers the {topic} case.",
  "Why does {ident} return undefined for {topic}?",
  "Refactor {file} so that {ident} no longer depends on {topic}.",
  "I think the {topic} bug is somewhere in {file}, can you check?",
  "Run the tests and fix whatever fails around {ident}.",
  "What does {ident} actually do with {topic}?",
  "Let's rename {ident} and update every caller in {dir}.",
  "Add {topic} support to {file}, keep the public API the same.",
  "The build is failing after my change to {file}, please take a look.",
  "Explain how {topic} flows through {ident} and {ident2}.",
  "Can we make {ident} faster? It is slow when {topic} is large.",
  "Check whether {topic2} is still used anywhere in {dir}.",
  "Write docs for {ident} in the README, mention {topic}.",
  "Revert the last change to {file} and try a different approach for {topic}.",
  "There is a type error in {file} near {ident}, fix it.",
  "Find where {topic} gets set and tell me which file owns it.",
  "Compare {ident} with {ident2} and tell me which one handles {topic} correctly.",
  "Clean up the {topic} code in {dir} before I open the PR.",
  "ok now do the same for {ident2}",
  "does {ident} still need the {topic} flag?",
  "hmm, that didn't work. {file} still throws on {topic}",
  "Commit this with a message about {topic}.",
];
const USER_FOLLOWUPS = [
  "Can you fix that?",
  "Is that why the {topic} test fails?",
  "Can we do the same for {ident}?",
  "Please keep the change small.",
  "What would you change in {file}?",
  "Does that affect {ident}?",
  "Let's not touch {dir} for now.",
];
const ASSISTANT_LEADS = [
  "I found the problem in `{file}`.",
  "Done. `{ident}` now handles {topic} explicitly.",
  "Here is what I changed in `{file}`:",
  "The tests pass now.",
  "`{ident}` is defined in `{file}` and called from `{ident2}`.",
  "Short answer: yes, {topic} is still used, but only by `{ident}`.",
  "I looked through `{dir}` and the {topic} logic lives in two places.",
  "The failure comes from `{ident}`: it assumes {topic} is always set.",
  "I refactored `{file}` so `{ident}` no longer reaches into {topic} directly.",
  "Summary of the {topic} investigation:",
];
const STEP_TEXTS = [
  "Let me look at `{file}` first.",
  "I'll check how `{ident}` is used.",
  "Let me run the tests.",
  "Now let me update `{file}`.",
  "Let me search for {topic} in the codebase.",
  "I need to see the rest of `{file}`.",
  "Let me verify the change compiles.",
];
const THINKING_LEADS = [
  "The user wants {topic} handled in `{ident}`.",
  "I should read `{file}` before changing anything.",
  "So `{ident}` is the entry point; {topic} is passed through from `{ident2}`.",
  "The test failure points at `{file}`.",
  "Maybe the simplest fix is to guard {topic} in `{ident}`.",
];
const NAME_TEMPLATES = [
  "Fix {topic} in {base}",
  "{Topic} handling in {ident}",
  "Refactor {ident}",
  "Investigate {topic} {topic2}",
  "{Topic} tests for {base}",
  "Debug {ident} failure",
];
const COMMIT_PREFIX = ["fix", "feat", "refactor", "test", "docs", "chore", "perf"];
const TS_ERRORS = [
  "Property '{ident}' does not exist on type '{Type}'.",
  "Argument of type 'string' is not assignable to parameter of type 'number'.",
  "Cannot find name '{ident}'.",
  "Object is possibly 'undefined'.",
  "Type '{Type}' is missing the following properties from type '{Type2}': {ident}, {ident2}",
  "Expected 2 arguments, but got 1.",
  "'{ident}' is declared but its value is never read.",
];

// =============================================================================================
// Text pool preparation: sentence index for rare ("topic") words, code-file helpers.

function preparePool(pool) {
  const df = new Map();
  const postings = new Map();
  const sentences = pool.sentences;
  for (let i = 0; i < sentences.length; i++) {
    const seen = new Set();
    for (const m of sentences[i].matchAll(/\b[A-Za-z][a-z]{4,13}\b(?!['’])/g)) {
      const w = m[0].toLowerCase();
      if (seen.has(w)) continue;
      seen.add(w);
      df.set(w, (df.get(w) ?? 0) + 1);
      let p = postings.get(w);
      if (!p) postings.set(w, (p = []));
      if (p.length < 40) p.push(i);
    }
  }
  const topicWords = [];
  for (const [w, n] of df) if (n >= 3 && n <= 30) topicWords.push(w);
  const paragraphs = pool.paragraphs.filter((p) => p.length <= 900);
  const readable = [];
  const big = [];
  pool.code.forEach((c, i) => {
    if (c.text.length >= 1500) readable.push(i);
    if (c.text.length >= 100_000) big.push(i);
  });
  return {
    pool,
    sentences,
    paragraphs,
    snippets: pool.snippets,
    code: pool.code,
    topicWords,
    postings,
    readable,
    big,
    lineCache: new Map(),
  };
}

function linesOf(P, codeIdx) {
  let lines = P.lineCache.get(codeIdx);
  if (!lines) {
    lines = P.code[codeIdx].text.split("\n");
    if (P.lineCache.size > 400) P.lineCache.clear();
    P.lineCache.set(codeIdx, lines);
  }
  return lines;
}

function identifiersOf(text) {
  const ids = new Set();
  const head = text.length > 40_000 ? text.slice(0, 40_000) : text;
  for (const m of head.matchAll(
    /\b(?:function|class|const|let|interface|type|enum)\s+([A-Za-z_$][\w$]{3,})/g,
  ))
    if (m[1].length <= 32) ids.add(m[1]);
  if (ids.size < 3)
    for (const m of head.matchAll(/\b([a-z]+[A-Z][A-Za-z0-9]{2,24})\b/g)) ids.add(m[1]);
  if (ids.size === 0) ids.add("handler");
  return [...ids];
}

function fenceLang(p) {
  if (/\.(ts|mts|cts)$/.test(p)) return "ts";
  if (/\.(js|mjs|cjs)$/.test(p)) return "js";
  if (p.endsWith(".json")) return "json";
  return "";
}

/**
 * pool path → a plausible path inside a project ("vite/dist/node/chunks/build.js" →
 * "src/node/build.js")
 */
function projectPath(project, poolPath) {
  const segs = poolPath
    .split("/")
    .filter(
      (s) =>
        ![
          "dist",
          "lib",
          "chunks",
          "shared",
          "esm",
          "cjs",
          "node_modules",
          "build",
          "types",
          "@types",
        ].includes(s),
    );
  // drop bundler content hashes ("cli-api.B0Pz1_R7.js" → "cli-api.js")
  let name = segs[segs.length - 1].replace(
    /[.-](?=[A-Za-z0-9_-]{8}\.)(?=[^.]*[A-Z0-9])[A-Za-z0-9_-]{8}(?=\.)/,
    "",
  );
  name = name.replace(/^_/, "").replace(/\.d\.d\.ts$/, ".d.ts");
  const dir = segs.length > 1 ? segs[segs.length - 2].replace(/^@/, "") : "";
  if (name === "package.json") return dir ? `${project.root}/${dir}/package.json` : "package.json";
  return dir ? `${project.root}/${dir}/${name}` : `${project.root}/${name}`;
}

// =============================================================================================
// Output helpers

const sortKeys = (o) =>
  Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
const userTextOf = (runs) => runs.find((x) => x.role === "user").text;

function encodeCwd(cwd) {
  return `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
}
const iso = (ms) => new Date(ms).toISOString();
const fileStamp = (ms) => iso(ms).replace(/[:.]/g, "-");

function uuidv7(ms, rng) {
  const h = Math.floor(ms).toString(16).padStart(12, "0");
  const variant = HEX[8 + rng.int(4)];
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-7${rng.hex(3)}-${variant}${rng.hex(3)}-${rng.hex(12)}`;
}

class FileSink {
  constructor(file) {
    this.fd = fs.openSync(file, "w");
    this.parts = [];
    this.pending = 0;
    this.bytes = 0;
    this.lines = 0;
  }
  write(line) {
    this.parts.push(line, "\n");
    this.pending += line.length + 1;
    this.lines++;
    if (this.pending >= 4 << 20) this.flush();
  }
  flush() {
    if (this.parts.length === 0) return;
    this.bytes += fs.writeSync(this.fd, this.parts.join(""));
    this.parts = [];
    this.pending = 0;
  }
  close() {
    this.flush();
    fs.closeSync(this.fd);
  }
}

// =============================================================================================
// Corpus plan: projects, session times, shapes, forks. Cheap, all in memory.

function planCorpus(count, seed) {
  const rng = Rng.from("recall-corpus", seed, "plan");
  const projectWeights = PROJECTS.map((_, k) => 1 / (k + 1) ** 1.1);
  const plans = [];
  for (let i = 0; i < count; i++) {
    const project = rng.weighted(projectWeights);
    const daysAgo = 1 + Math.floor(179 * rng.next() ** 1.4); // more sessions recently
    const turns = 2 + Math.floor(58 * rng.next() ** 3.2);
    // leave room so that even long sessions end before the reference date
    const start = Math.min(
      REF_MS - daysAgo * DAY + Math.floor((7 + 15 * rng.next()) * HOUR),
      REF_MS - 2 * DAY - turns * 30 * MINUTE,
    );
    const named = rng.chance(0.4);
    const branch = turns >= 5 && rng.chance(0.085);
    const compaction = turns >= 14 && rng.chance(0.15);
    plans.push({
      index: i,
      project,
      start,
      turns,
      named,
      branch,
      compaction,
      fork: null,
      forkedBy: 0,
    });
  }
  plans.sort((a, b) => a.start - b.start || a.index - b.index);
  // ~1% forks: a later session that copies an earlier one of the same project.
  const forks = count >= 20 ? Math.max(1, Math.round(count * 0.01)) : 0;
  const frng = Rng.from("recall-corpus", seed, "forks");
  for (let n = 0, guard = 0; n < forks && guard < forks * 50; guard++) {
    const k = 1 + frng.int(plans.length - 1);
    const p = plans[k];
    if (p.fork !== null || p.forkedBy) continue;
    const candidates = [];
    for (let j = Math.max(0, k - 200); j < k; j++) {
      const q = plans[j];
      if (q.fork === null && q.project === p.project) candidates.push(j);
    }
    if (candidates.length === 0) continue;
    const src = plans[frng.pick(candidates)];
    p.fork = src.index;
    p.turns = frng.range(1, 6);
    p.branch = p.compaction = false;
    src.forkedBy++;
    n++;
  }
  return plans;
}

// =============================================================================================
// One session

class SessionBuilder {
  constructor(ctx, plan) {
    this.ctx = ctx;
    this.P = ctx.P;
    this.plan = plan;
    this.rng = Rng.from("recall-corpus", ctx.seed, "session", plan.index);
    this.project = PROJECTS[plan.project];
    this.projectFiles = ctx.projectFiles[plan.project];
    this.ids = new Set();
    this.leaf = null;
    this.clock = plan.start;
    this.runs = []; // user/assistant text runs, for known items
    this.stats = { entries: 0, types: {}, roles: {}, toolCalls: 0, thinking: 0 };
    this.readFiles = new Set();
    this.modifiedFiles = new Set();
    this.tokens = 0;
  }

  // -- topic -----------------------------------------------------------------------------------

  /**
   * Topic of a session: a few rare-ish pool words and files of its project; forks reuse the
   * source's.
   */
  static makeTopic(ctx, plan) {
    const rng = Rng.from("recall-corpus", ctx.seed, "topic", plan.index);
    const P = ctx.P;
    const words = [];
    const sentenceIds = [];
    const nWords = rng.range(3, 5);
    for (let guard = 0; words.length < nWords && guard < 50; guard++) {
      const w = rng.pick(P.topicWords);
      if (words.includes(w)) continue;
      words.push(w);
      for (const s of P.postings.get(w)) if (sentenceIds.length < 80) sentenceIds.push(s);
    }
    const files = ctx.projectFiles[plan.project];
    const focus = [];
    const nFocus = rng.range(2, 4);
    for (let guard = 0; focus.length < nFocus && guard < 50; guard++) {
      const f = rng.pick(files);
      if (!focus.includes(f)) focus.push(f);
    }
    const idents = [];
    for (const f of focus) {
      const all = identifiersOf(P.code[f.code].text);
      for (let k = 0; k < 3; k++) {
        const id = rng.pick(all);
        if (!idents.includes(id)) idents.push(id);
      }
    }
    return { words, sentenceIds, focus, idents };
  }

  // -- text ------------------------------------------------------------------------------------

  fill(template) {
    const r = this.rng;
    const t = this.topic;
    const file = r.pick(t.focus).path;
    return template.replace(/\{(topic2?|Topic|ident2?|file|dir|base|Type2?)\}/g, (_, k) => {
      switch (k) {
        case "topic":
          return t.words[0];
        case "topic2":
          return r.pick(t.words.length > 1 ? t.words.slice(1) : t.words);
        case "Topic":
          return t.words[0][0].toUpperCase() + t.words[0].slice(1);
        case "ident":
          return t.idents[0];
        case "ident2":
          return r.pick(t.idents);
        case "file":
          return file;
        case "dir":
          return path.posix.dirname(file);
        case "base":
          return path.posix.basename(file);
        default:
          return r.pick(t.idents).replace(/^./, (c) => c.toUpperCase());
      }
    });
  }

  sentence(topicBias = 0.35) {
    const r = this.rng;
    if (this.topic.sentenceIds.length && r.chance(topicBias))
      return this.P.sentences[r.pick(this.topic.sentenceIds)];
    return r.pick(this.P.sentences);
  }

  paragraph() {
    const r = this.rng;
    if (r.chance(0.5)) return r.pick(this.P.paragraphs);
    const n = r.range(2, 4);
    const out = [];
    for (let i = 0; i < n; i++) out.push(this.sentence(0.5));
    return out.join(" ");
  }

  userText() {
    const r = this.rng;
    const t = this.topic;
    // rotate the lead topic word / identifier so that every topic word recurs
    t.words.push(t.words.shift());
    if (r.chance(0.5)) t.idents.push(t.idents.shift());
    const kind = r.next();
    let text;
    if (kind < 0.5) {
      text = this.fill(r.pick(USER_TEMPLATES));
      if (r.chance(0.5)) text += ` ${this.sentence(0.6)}`;
    } else if (kind < 0.8) {
      text = `${this.sentence(0.7)} ${this.fill(r.pick(USER_FOLLOWUPS))}`;
    } else {
      text = this.sentence(0.8);
      if (r.chance(0.4)) text += ` ${this.sentence(0.5)}`;
    }
    if (r.chance(0.15)) text = text[0].toLowerCase() + text.slice(1).replace(/[.?]$/, "");
    return text;
  }

  codeSlice(file, minLines, maxLines) {
    const lines = linesOf(this.P, file.code);
    const n = Math.min(lines.length, this.rng.range(minLines, maxLines));
    const start = this.rng.int(Math.max(1, lines.length - n));
    return { start, text: lines.slice(start, start + n).join("\n") };
  }

  assistantText() {
    const r = this.rng;
    const parts = [this.fill(r.pick(ASSISTANT_LEADS))];
    const n = r.weighted([35, 40, 20, 5]) + 1;
    for (let i = 0; i < n; i++) {
      parts.push(this.paragraph());
      if (i === 0 && r.chance(0.25)) {
        if (r.chance(0.3) && this.P.snippets.length) {
          const s = r.pick(this.P.snippets);
          parts.push(`\`\`\`${s.lang}\n${s.text}\n\`\`\``);
        } else {
          const f = r.pick(this.topic.focus);
          parts.push(`\`\`\`${fenceLang(f.path)}\n${this.codeSlice(f, 4, 30).text}\n\`\`\``);
        }
      }
    }
    if (r.chance(0.2)) {
      const k = r.range(2, 4);
      const items = [];
      for (let i = 0; i < k; i++) items.push(`- ${this.sentence(0.4)}`);
      parts.push(items.join("\n"));
    }
    return parts.join("\n\n");
  }

  thinkingText() {
    const r = this.rng;
    const out = r.chance(0.5) ? [this.fill(r.pick(THINKING_LEADS))] : [];
    const n = r.range(1, 5);
    for (let i = 0; i < n; i++) out.push(this.sentence(0.5));
    return out.join(r.chance(0.5) ? " " : "\n\n");
  }

  // -- entries ---------------------------------------------------------------------------------

  newId() {
    for (;;) {
      const id = this.rng.hex(8);
      if (!this.ids.has(id)) {
        this.ids.add(id);
        return id;
      }
    }
  }

  /** Appends an entry as a child of the current leaf. `body` goes after the base fields. */
  append(type, body, parentId = this.leaf) {
    const id = this.newId();
    const entry = { type, id, parentId, timestamp: iso(this.clock), ...body };
    this.sink.write(JSON.stringify(entry));
    this.count(entry);
    this.leaf = id;
    return id;
  }

  /** Counts what ends up in the file (generated and copied entries alike). */
  count(entry) {
    const s = this.stats;
    s.entries++;
    s.types[entry.type] = (s.types[entry.type] ?? 0) + 1;
    if (entry.type !== "message") return;
    const m = entry.message;
    s.roles[m.role] = (s.roles[m.role] ?? 0) + 1;
    if (m.role === "assistant")
      for (const b of m.content) {
        if (b.type === "toolCall") s.toolCalls++;
        else if (b.type === "thinking") s.thinking++;
      }
  }

  /** Moves the session clock forward by a random amount in [minMs, maxMs]. */
  advance(minMs, maxMs) {
    this.clock += Math.round(minMs + this.rng.next() * (maxMs - minMs));
  }

  usage(inputChars, outputChars) {
    const r = this.rng;
    const m = this.model;
    const output = Math.max(1, Math.round(outputChars / 4) + r.int(40));
    const fresh = Math.round(inputChars / 4) + r.int(200);
    const cacheRead = this.tokens;
    const cacheWrite = m.provider === "anthropic" ? fresh : 0;
    const input = m.provider === "anthropic" ? r.range(1, 8) : fresh;
    this.tokens += fresh + output;
    const cost = {
      input: (input * m.price[0]) / 1e6,
      output: (output * m.price[1]) / 1e6,
      cacheRead: (cacheRead * m.price[2]) / 1e6,
      cacheWrite: (cacheWrite * m.price[3]) / 1e6,
    };
    cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
    return {
      input,
      output,
      cacheRead,
      cacheWrite,
      totalTokens: input + output + cacheRead + cacheWrite,
      cost,
    };
  }

  thinkingBlock() {
    const r = this.rng;
    const thinking = this.thinkingText();
    const block = { type: "thinking", thinking };
    if (this.model.api === "anthropic-messages")
      block.thinkingSignature = r.base64(r.range(250, 2000));
    else if (this.model.api === "openai-responses")
      block.thinkingSignature = JSON.stringify({
        type: "reasoning",
        id: `rs_${r.hex(48)}`,
        summary: [],
        encrypted_content: r.base64(r.range(300, 1500)),
      });
    return block;
  }

  toolCallId() {
    const r = this.rng;
    switch (this.model.api) {
      case "anthropic-messages":
        return `toolu_01${r.chars(B62, 22)}`;
      case "openai-responses":
        return `call_${r.chars(B62, 24)}|fc_${r.hex(48)}`;
      default:
        return `tool:${this.clock}:${r.chars(B36, 11)}`;
    }
  }

  assistant(content, stopReason, inputChars, extra) {
    const startedAt = this.clock;
    let outChars = 0;
    for (const b of content)
      outChars += (b.text ?? b.thinking ?? JSON.stringify(b.arguments ?? "")).length;
    this.advance(1500 + outChars * 8, 4000 + outChars * 25);
    const m = this.model;
    const message = {
      role: "assistant",
      content,
      api: m.api,
      provider: m.provider,
      model: m.model,
      usage: this.usage(inputChars, outChars),
      stopReason,
      timestamp: startedAt,
    };
    if (extra) Object.assign(message, extra);
    if (this.thinkingLevel !== "off" || this.rng.chance(0.5))
      message.thinkingLevel = this.thinkingLevel;
    const id = this.append("message", { message });
    this.noteText("assistant", content, id);
    return id;
  }

  user(text) {
    this.advance(200, 900);
    const message = {
      role: "user",
      content: [{ type: "text", text }],
      timestamp: this.clock - this.rng.range(0, 3),
    };
    const id = this.append("message", { message });
    this.noteText("user", message.content, id);
    return id;
  }

  toolResult(call, text, isError, durationMs, details) {
    this.advance(durationMs, durationMs + 40);
    const message = {
      role: "toolResult",
      toolCallId: call.id,
      toolName: call.name,
      content: [{ type: "text", text }],
    };
    if (details) message.details = details;
    message.isError = isError;
    message.durationMs = durationMs;
    message.timestamp = this.clock;
    this.clock += this.rng.range(0, 3);
    this.append("message", { message });
    return text.length;
  }

  /** Tracks runs of user/assistant text in file order (consecutive same-role texts are joined). */
  noteText(role, content, entryId) {
    let text = "";
    for (const b of content) if (b.type === "text" && b.text) text += (text ? "\n" : "") + b.text;
    if (!text) return;
    const last = this.runs[this.runs.length - 1];
    if (last && last.role === role) {
      last.text += `\n\n${text}`;
      last.entryIds.push(entryId);
    } else this.runs.push({ role, text, entryIds: [entryId] });
  }

  // -- tools -----------------------------------------------------------------------------------

  pickFile(focusBias = 0.6) {
    return this.rng.chance(focusBias)
      ? this.rng.pick(this.topic.focus)
      : this.rng.pick(this.projectFiles);
  }

  argPath(p) {
    return this.rng.chance(0.25) ? `${this.project.cwd}/${p}` : p;
  }

  /** Pi-style tail truncation of bash output (2000 lines / 50 KB). */
  truncateTail(text) {
    if (text.length <= 50_000) return text;
    const lines = text.split("\n");
    let start = Math.max(0, lines.length - 2000);
    let size = 0;
    for (let i = lines.length - 1; i >= start; i--) {
      size += lines[i].length + 1;
      if (size > 50_000) {
        start = i + 1;
        break;
      }
    }
    return `${lines.slice(start).join("\n")}\n\n[Showing lines ${start + 1}-${lines.length} of ${lines.length}. Full output: /tmp/pi-bash-${this.rng.hex(16)}.log]`;
  }

  toolRead() {
    const r = this.rng;
    const f = this.pickFile();
    const lines = linesOf(this.P, f.code);
    const args = { path: this.argPath(f.path) };
    this.readFiles.add(f.path);
    let from = 0;
    let to = lines.length;
    // agents page through big files with offset/limit
    if (lines.length > 200 && r.chance(lines.length > 1500 ? 0.5 : 0.15)) {
      from = r.int(lines.length - 100);
      args.offset = from + 1;
      args.limit = r.pick([50, 100, 200, 400]);
      to = Math.min(lines.length, from + args.limit);
    }
    if (r.chance(0.03)) {
      const missing = `${path.posix.dirname(f.path)}/${r.pick(this.topic.words)}.ts`;
      return {
        name: "read",
        args: { path: missing },
        run: () => [
          `ENOENT: no such file or directory, access '${this.project.cwd}/${missing}'`,
          true,
          r.range(0, 2),
        ],
      };
    }
    return {
      name: "read",
      args,
      run: () => {
        let end = to;
        let size = 0;
        for (let i = from; i < to; i++) {
          size += lines[i].length + 1;
          if (size > 50_000 || i - from >= 2000) {
            end = i;
            break;
          }
        }
        let text = lines.slice(from, end).join("\n");
        if (end < to)
          text += `\n\n[Showing lines ${from + 1}-${end} of ${lines.length}. Use offset=${end + 1} to continue.]`;
        else if (args.limit && to < lines.length)
          text += `\n\n[${lines.length - to} more lines in file. Use offset=${to + 1} to continue.]`;
        return [text, false, r.range(1, 30)];
      },
    };
  }

  grepOutput(ident) {
    const out = [];
    const files = [this.pickFile(0.8), this.pickFile(0.5), this.pickFile(0.3), this.pickFile(0.2)];
    for (const f of files) {
      if (!this.P.code[f.code].text.includes(ident)) continue;
      const lines = linesOf(this.P, f.code);
      for (let i = 0; i < lines.length && out.length < 400; i++)
        if (lines[i].includes(ident)) out.push(`${f.path}:${i + 1}:${lines[i].slice(0, 300)}`);
    }
    return out;
  }

  testOutput(failing) {
    const r = this.rng;
    const t = this.topic;
    const lines = [` RUN  v4.1.12 ${this.project.cwd}`, ""];
    const nFiles = r.range(3, 40);
    let tests = 0;
    const verbose = r.chance(0.3);
    for (let i = 0; i < nFiles; i++) {
      const name = `${this.project.test}/${path.posix.basename(r.pick(this.projectFiles).path).replace(/\.(d\.)?[mc]?[jt]s(on)?$/, "")}.test.ts`;
      const n = r.range(1, 30);
      tests += n;
      lines.push(` ✓ ${name} (${n} test${n > 1 ? "s" : ""}) ${r.range(2, 900)}ms`);
      if (verbose)
        for (let k = 0; k < n; k++)
          lines.push(
            `   ✓ ${this.sentence(0.3).slice(0, 90).replace(/[.:]$/, "")} ${r.range(0, 40)}ms`,
          );
    }
    if (failing) {
      const f = r.pick(t.focus);
      const title = `${t.idents[0]} > ${this.sentence(0.6).slice(0, 80).replace(/[.:]$/, "")}`;
      const slice = this.codeSlice(f, 8, 16);
      lines.push(
        ` ❯ ${this.project.test}/${path.posix.basename(f.path).replace(/\.[^.]+$/, "")}.test.ts (${r.range(2, 20)} tests | 1 failed) ${r.range(5, 500)}ms`,
      );
      lines.push(
        `   × ${title} ${r.range(1, 50)}ms`,
        "",
        "⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯",
        "",
        ` FAIL  ${title}`,
      );
      lines.push(
        `AssertionError: expected ${r.pick(t.words)} to equal ${r.pick(t.words)}`,
        ` ❯ ${f.path}:${slice.start + 3}:${r.range(3, 30)}`,
        "",
      );
      slice.text
        .split("\n")
        .forEach((l, k) => lines.push(`    ${String(slice.start + k + 1).padStart(4)}| ${l}`));
      lines.push("");
    }
    lines.push(
      "",
      ` Test Files  ${failing ? "1 failed | " : ""}${nFiles} passed (${nFiles + (failing ? 1 : 0)})`,
      `      Tests  ${failing ? "1 failed | " : ""}${tests} passed (${tests + (failing ? 1 : 0)})`,
      `   Start at  ${iso(this.clock).slice(11, 19)}`,
      `   Duration  ${(r.range(300, 30000) / 1000).toFixed(2)}s`,
    );
    return lines.join("\n");
  }

  diffOutput(nFiles) {
    const r = this.rng;
    const out = [];
    for (let k = 0; k < nFiles; k++) {
      const f = this.pickFile();
      const lines = linesOf(this.P, f.code);
      const other = linesOf(this.P, this.pickFile(0.3).code);
      out.push(
        `diff --git a/${f.path} b/${f.path}`,
        `index ${r.hex(7)}..${r.hex(7)} 100644`,
        `--- a/${f.path}`,
        `+++ b/${f.path}`,
      );
      let at = r.int(Math.max(1, lines.length - 60));
      const hunks = r.range(1, 4);
      for (let h = 0; h < hunks && at < lines.length - 10; h++) {
        const del = r.range(0, 6);
        const add = r.range(del === 0 ? 1 : 0, 8);
        const ctx = lines.slice(at, at + 3);
        const removed = lines.slice(at + 3, at + 3 + del);
        const o = r.int(Math.max(1, other.length - add));
        const added = other.slice(o, o + add);
        const after = lines.slice(at + 3 + del, at + 6 + del);
        out.push(
          `@@ -${at + 1},${ctx.length + removed.length + after.length} +${at + 1},${ctx.length + added.length + after.length} @@ ${lines[Math.max(0, at - 1)].slice(0, 60)}`,
        );
        for (const l of ctx) out.push(` ${l}`);
        for (const l of removed) out.push(`-${l}`);
        for (const l of added) out.push(`+${l}`);
        for (const l of after) out.push(` ${l}`);
        at += 6 + del + r.range(10, 80);
      }
    }
    return out.join("\n");
  }

  toolBash() {
    const r = this.rng;
    const t = this.topic;
    const kind = r.weighted(this.ctx.shape.bash);
    const dur = (lo, hi) => Math.round(r.logNormal(Math.sqrt(lo * hi), 0.8, lo, hi));
    let command;
    let run;
    switch (kind) {
      case 0: {
        const ident = r.chance(0.7) ? r.pick(t.idents) : r.pick(t.words);
        const dir = r.chance(0.5) ? this.project.root : ".";
        command = r.chance(0.5)
          ? `grep -rn "${ident}" ${dir}`
          : `rg -n '${ident}' ${dir}${r.chance(0.3) ? " | head -50" : ""}`;
        run = () => {
          let lines = this.grepOutput(ident);
          if (command.includes("head -50")) lines = lines.slice(0, 50);
          return lines.length
            ? [lines.join("\n"), false, dur(10, 400)]
            : ["(no output)\n\nCommand exited with code 1", true, dur(10, 200)];
        };
        break;
      }
      case 1: {
        const dir = path.posix.dirname(this.pickFile().path);
        command = r.chance(0.5)
          ? `ls -la ${dir}`
          : `find ${this.project.root} -name "*.ts" | head -80`;
        run = () => {
          const files = [];
          const n = r.range(5, 80);
          for (let i = 0; i < n; i++) files.push(r.pick(this.projectFiles));
          const text = command.startsWith("ls")
            ? [
                `total ${r.range(8, 400)}`,
                ...files.map(
                  (f) =>
                    `-rw-r--r--  1 dev dev ${String(this.P.code[f.code].text.length).padStart(7)} ${iso(this.clock - r.int(90 * DAY)).slice(5, 10)} ${path.posix.basename(f.path)}`,
                ),
              ].join("\n")
            : files.map((f) => f.path).join("\n");
          return [text, false, dur(5, 100)];
        };
        break;
      }
      case 2: {
        const failing = r.chance(0.35);
        command = r.pick([
          "npm test",
          "npx vitest run",
          `npx vitest run ${this.project.test}`,
          "npm run test -- --reporter=verbose",
          "pnpm test",
        ]);
        run = () => {
          const text = this.truncateTail(this.testOutput(failing));
          return failing
            ? [`${text}\n\nCommand exited with code 1`, true, dur(800, 60000)]
            : [text, false, dur(800, 60000)];
        };
        break;
      }
      case 3: {
        const failing = r.chance(0.4);
        command = r.pick(["npx tsc --noEmit", "npm run typecheck", "npm run build"]);
        run = () => {
          const lines = [];
          if (failing) {
            const n = r.range(1, 25);
            for (let i = 0; i < n; i++) {
              const f = r.pick(t.focus);
              lines.push(
                `${f.path}(${r.range(1, 900)},${r.range(1, 40)}): error TS${r.range(2300, 2800)}: ${this.fill(r.pick(TS_ERRORS))}`,
              );
            }
            lines.push(
              "",
              `Found ${n} error${n > 1 ? "s" : ""} in ${r.range(1, Math.min(n, 4))} file${n > 1 ? "s" : ""}.`,
              "",
              "Command exited with code 2",
            );
          } else if (command === "npm run build") {
            lines.push(
              `vite v8.3.8 building for production...`,
              `✓ ${r.range(30, 3000)} modules transformed.`,
            );
            const n = r.range(3, 60);
            for (let i = 0; i < n; i++) {
              const f = r.pick(this.projectFiles);
              lines.push(
                `dist/assets/${path.posix.basename(f.path).replace(/\.[^.]+$/, "")}-${r.chars(B62, 8)}.js  ${(r.range(100, 90000) / 100).toFixed(2)} kB │ gzip: ${(r.range(50, 30000) / 100).toFixed(2)} kB`,
              );
            }
            lines.push(`✓ built in ${(r.range(300, 20000) / 1000).toFixed(2)}s`);
          } else lines.push("(no output)");
          return [lines.join("\n"), failing, dur(1000, 30000)];
        };
        break;
      }
      case 4: {
        const sub = r.weighted([4, 4, 3]);
        command =
          sub === 0
            ? "git status"
            : sub === 1
              ? `git diff${r.chance(0.5) ? "" : ` ${this.pickFile().path}`}`
              : `git log --oneline -${r.range(10, 40)}`;
        run = () => {
          let text;
          if (sub === 0) {
            const mod = [...new Set([this.pickFile().path, this.pickFile().path])];
            text = `On branch ${r.pick(["main", `fix/${t.words[0]}`, `feat/${t.words[1]}`])}\nChanges not staged for commit:\n  (use "git add <file>..." to update what will be committed)\n${mod.map((p) => `\tmodified:   ${p}`).join("\n")}\n\nno changes added to commit (use "git add" and/or "git commit -a")`;
          } else if (sub === 1)
            text = this.truncateTail(this.diffOutput(command === "git diff" ? r.range(1, 5) : 1));
          else {
            const n = Number(command.split("-").pop());
            const lines = [];
            for (let i = 0; i < n; i++)
              lines.push(
                `${r.hex(7)} ${r.pick(COMMIT_PREFIX)}: ${this.sentence(0.3)
                  .slice(0, 72)
                  .replace(/\.$/, "")
                  .replace(/^./, (c) => c.toLowerCase())}`,
              );
            text = lines.join("\n");
          }
          return [text, false, dur(5, 300)];
        };
        break;
      }
      case 5: {
        const f = this.pickFile();
        const lines = linesOf(this.P, f.code);
        const a = r.int(Math.max(1, lines.length - 50)) + 1;
        const b = a + r.range(30, 400);
        command = r.chance(0.5) ? `cat ${f.path}` : `sed -n '${a},${b}p' ${f.path}`;
        this.readFiles.add(f.path);
        run = () => [
          this.truncateTail(
            command.startsWith("cat") ? this.P.code[f.code].text : lines.slice(a - 1, b).join("\n"),
          ),
          false,
          dur(3, 50),
        ];
        break;
      }
      case 6: {
        command = r.pick(["npm run lint", "npx biome check .", "npx eslint ."]);
        run = () => {
          const lines = [];
          const n = r.range(0, 40);
          for (let i = 0; i < n; i++) {
            const f = this.pickFile(0.4);
            lines.push(
              `${f.path}:${r.range(1, 800)}:${r.range(1, 60)} lint/${r.pick(["style", "suspicious", "correctness", "complexity"])}/${r.pick(t.idents)} ${this.sentence(0.2)}`,
            );
          }
          lines.push(
            `Checked ${r.range(20, 600)} files in ${r.range(20, 900)}ms. ${n ? `Found ${n} diagnostics.` : "No fixes applied."}`,
          );
          return [lines.join("\n"), n > 0, dur(200, 8000)];
        };
        break;
      }
      case 7: {
        const cmds = [
          `mkdir -p ${this.project.test}/fixtures`,
          `git add -A && git commit -m "${r.pick(COMMIT_PREFIX)}: ${t.words[0]} ${r.pick(t.idents)}"`,
          `mv ${this.pickFile().path} ${this.project.root}/`,
          "npm install",
          "node --version && npm --version",
        ];
        command = r.pick(cmds);
        run = () => {
          if (command.startsWith("git add"))
            return [
              `[main ${r.hex(7)}] ${command.split('"')[1]}\n ${r.range(1, 9)} files changed, ${r.range(1, 400)} insertions(+), ${r.range(0, 300)} deletions(-)`,
              false,
              dur(20, 400),
            ];
          if (command === "npm install")
            return [
              `\nadded ${r.range(1, 300)} packages, and audited ${r.range(300, 900)} packages in ${r.range(1, 40)}s\n\n${r.range(40, 200)} packages are looking for funding\n  run \`npm fund\` for details\n\nfound 0 vulnerabilities`,
              false,
              dur(1000, 40000),
            ];
          if (command.startsWith("node")) return ["v20.20.2\n10.8.2", false, dur(30, 200)];
          return ["(no output)", false, dur(2, 40)];
        };
        break;
      }
      default: {
        // a rare huge output (100–200 KB), as from an untruncated dump of a big file
        const idx = this.P.big.length ? r.pick(this.P.big) : r.pick(this.P.readable);
        const f = { path: projectPath(this.project, this.P.code[idx].path), code: idx };
        command = `cat ${f.path}`;
        run = () => [this.P.code[idx].text.slice(0, r.range(100_000, 200_000)), false, dur(3, 60)];
      }
    }
    return {
      name: "bash",
      args: r.chance(0.1) ? { command, timeout: r.pick([60, 120, 300]) } : { command },
      run,
    };
  }

  toolEdit() {
    const r = this.rng;
    const f = this.pickFile(0.8);
    const n = r.weighted([70, 20, 10]) + 1;
    const edits = [];
    const diff = [];
    for (let i = 0; i < n; i++) {
      const old = this.codeSlice(f, 2, 25);
      const oldLines = old.text.split("\n");
      const newLines = oldLines.slice();
      const k = r.int(newLines.length);
      const style = r.int(3);
      if (style === 0)
        newLines.splice(
          k,
          1,
          `${newLines[k].match(/^\s*/)[0]}// ${this.sentence(0.6)}`,
          newLines[k],
        );
      else if (style === 1)
        newLines.splice(k, 1, ...this.codeSlice(this.pickFile(0.3), 1, 6).text.split("\n"));
      else newLines[k] = newLines[k].replace(/[A-Za-z_$][\w$]{3,}/, this.topic.idents[0]);
      edits.push({ oldText: old.text, newText: newLines.join("\n") });
      oldLines.forEach((l, j) => diff.push(`-${String(old.start + j + 1).padStart(4)} ${l}`));
      newLines.forEach((l, j) => diff.push(`+${String(old.start + j + 1).padStart(4)} ${l}`));
    }
    const p = this.argPath(f.path);
    const failed = r.chance(0.05);
    if (!failed) this.modifiedFiles.add(f.path);
    return {
      name: "edit",
      args: { path: p, edits },
      run: () => {
        if (failed)
          return [
            `Could not find edits[0] in ${p}. The oldText must match exactly including all whitespace and newlines.`,
            true,
            r.range(1, 10),
          ];
        const before = edits.reduce((s, e) => s + e.oldText.length, 0);
        const after = edits.reduce((s, e) => s + e.newText.length, 0);
        return [
          `Successfully replaced ${edits.length} block(s) in ${p}. Changed ${before} characters to ${after} characters.`,
          false,
          r.range(2, 25),
          { diff: diff.join("\n"), firstChangedLine: Number(diff[0].slice(1, 5)) },
        ];
      },
    };
  }

  toolWrite() {
    const r = this.rng;
    const src = this.pickFile(0.5);
    const content = this.codeSlice(src, 20, 250).text;
    const p = `${this.project.test}/${r.pick(this.topic.idents)}.test${path.posix.extname(src.path) || ".ts"}`;
    this.modifiedFiles.add(p);
    return {
      name: "write",
      args: { path: this.argPath(p), content },
      run: () => [
        `Successfully wrote ${Buffer.byteLength(content)} bytes to ${p}`,
        false,
        r.range(1, 15),
      ],
    };
  }

  // -- turns -----------------------------------------------------------------------------------

  turn() {
    const r = this.rng;
    // the user thinks / reads between turns; now and then comes back hours later
    if (this.stats.roles.user)
      this.clock += r.chance(0.03)
        ? Math.round(r.logNormal(3 * HOUR, 0.8, HOUR, 20 * HOUR))
        : Math.round(r.logNormal(2 * MINUTE, 1, 15_000, 20 * MINUTE));
    const userText = this.userText();
    const userId = this.user(userText);
    let contextChars = userText.length + (this.stats.roles.user === 1 ? 8000 : 0);
    const rounds = r.weighted(this.ctx.shape.rounds);
    for (let k = 0; k < rounds; k++) {
      const content = [];
      if (this.thinkingLevel !== "off" && r.chance(0.5)) content.push(this.thinkingBlock());
      if (r.chance(0.3)) content.push({ type: "text", text: this.fill(r.pick(STEP_TEXTS)) });
      const nCalls = r.weighted([85, 12, 3]) + 1;
      const calls = [];
      for (let c = 0; c < nCalls; c++) {
        const tool = r.weighted(this.ctx.shape.tools);
        const spec =
          tool === 0
            ? this.toolRead()
            : tool === 1
              ? this.toolBash()
              : tool === 2
                ? this.toolEdit()
                : this.toolWrite();
        const call = {
          type: "toolCall",
          id: this.toolCallId(),
          name: spec.name,
          arguments: spec.args,
        };
        content.push(call);
        calls.push([call, spec]);
      }
      this.assistant(content, "toolUse", contextChars);
      contextChars = 0;
      for (const [call, spec] of calls) {
        const [text, isError, durationMs, details] = spec.run();
        contextChars += this.toolResult(call, text, isError, durationMs, details);
      }
    }
    // final answer (rarely a provider error instead)
    if (r.chance(0.01)) {
      this.assistant([], "error", contextChars, {
        errorMessage: r.pick([
          "529 overloaded_error: Overloaded",
          "Request timed out.",
          "terminated",
        ]),
      });
    } else {
      const content = [];
      if (this.thinkingLevel !== "off" && r.chance(0.6)) content.push(this.thinkingBlock());
      content.push({ type: "text", text: this.assistantText() });
      this.assistant(content, "stop", contextChars);
    }
    return { userId, finalId: this.leaf };
  }

  compaction(firstKeptEntryId) {
    const r = this.rng;
    const bullets = (n) => Array.from({ length: n }, () => `- ${this.sentence(0.6)}`).join("\n");
    const read = [...this.readFiles].slice(0, 12);
    const modified = [...this.modifiedFiles].slice(0, 12);
    let summary = `## Goal\n${this.firstUserText}\n\n## Constraints & Preferences\n${bullets(r.range(1, 3))}\n\n## Progress\n### Done\n${bullets(r.range(1, 4)).replace(/^- /gm, "- [x] ")}\n\n### In Progress\n${bullets(r.range(1, 2)).replace(/^- /gm, "- [ ] ")}\n\n## Key Decisions\n- **${this.topic.idents[0]}**: ${this.sentence(0.6)}\n\n## Next Steps\n1. ${this.sentence(0.5)}\n2. ${this.sentence(0.5)}\n\n## Critical Context\n${this.paragraph()}`;
    if (read.length) summary += `\n\n<read-files>\n${read.join("\n")}\n</read-files>`;
    if (modified.length)
      summary += `\n\n<modified-files>\n${modified.join("\n")}\n</modified-files>`;
    this.advance(20_000, 90_000);
    const m = this.model;
    this.append("compaction", {
      summary,
      firstKeptEntryId,
      tokensBefore: this.tokens,
      details: { readFiles: read, modifiedFiles: modified },
      usage: {
        input: this.tokens,
        output: Math.round(summary.length / 4),
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: this.tokens + Math.round(summary.length / 4),
        cost: {
          input: (this.tokens * m.price[0]) / 1e6,
          output: 0,
          cacheRead: 0,
          cacheWrite: 0,
          total: (this.tokens * m.price[0]) / 1e6,
        },
      },
      fromHook: false,
    });
    this.tokens = Math.round(summary.length / 4) + 3000;
  }

  branchSummary(targetId) {
    const r = this.rng;
    const fromId = this.leaf;
    const summary = `The user explored a different conversation branch before returning here.\nSummary of that exploration:\n\n## Goal\n${this.sentence(0.7)}\n\n## Progress\n${Array.from({ length: r.range(1, 3) }, () => `- ${this.sentence(0.6)}`).join("\n")}`;
    this.advance(5_000, 60_000);
    const inTok = r.range(2000, 60000);
    const outTok = Math.round(summary.length / 4);
    this.append(
      "branch_summary",
      {
        fromId,
        summary,
        details: {
          readFiles: [...this.readFiles].slice(0, 6),
          modifiedFiles: [...this.modifiedFiles].slice(0, 6),
        },
        usage: {
          input: inTok,
          output: outTok,
          cacheRead: 0,
          cacheWrite: 0,
          totalTokens: inTok + outTok,
          cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
        },
        fromHook: false,
      },
      targetId,
    );
  }

  sessionName() {
    const r = this.rng;
    if (r.chance(0.3)) {
      const s = this.firstUserText.replace(/\s+/g, " ");
      return s.length > 60 ? `${s.slice(0, 57).trimEnd()}...` : s;
    }
    return this.fill(r.pick(NAME_TEMPLATES));
  }

  /** Writes the session file; returns its manifest record. */
  build(source) {
    const { ctx, plan, rng } = this;
    const r = rng;
    const fork = source ? source.record : null;
    this.topic = structuredClone(
      ctx.topics.get(plan.fork ?? plan.index) ?? SessionBuilder.makeTopic(ctx, plan),
    );
    this.model = MODELS[r.weighted(MODELS.map((m) => m.w))];
    this.thinkingLevel = THINKING_LEVELS[r.weighted(THINKING_WEIGHTS)];
    if (fork) this.clock = Math.max(this.clock, source.end + r.range(10 * MINUTE, 6 * HOUR));
    const created = this.clock;
    let id;
    do id = uuidv7(created, r);
    while (ctx.sessionIds.has(id));
    ctx.sessionIds.add(id);
    const dir = path.join(ctx.sessionsDir, encodeCwd(this.project.cwd));
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${fileStamp(created)}_${id}.jsonl`);
    this.sink = new FileSink(file);
    const header = {
      type: "session",
      version: 3,
      id,
      timestamp: iso(created),
      cwd: this.project.cwd,
    };
    if (fork) header.parentSession = source.file;
    this.sink.write(JSON.stringify(header));

    if (fork) {
      // /fork: copy every entry of the source verbatim, then continue from its leaf
      const lines = fs.readFileSync(source.file, "utf8").split("\n");
      for (let i = 1; i < lines.length; i++) {
        if (!lines[i]) continue;
        this.sink.write(lines[i]);
        const e = JSON.parse(lines[i]);
        this.ids.add(e.id);
        this.leaf = e.id;
        this.count(e);
      }
      this.firstUserText = source.firstUserText;
      this.tokens = source.tokens;
      this.clock += r.range(1000, 5000);
    } else {
      this.advance(1, 3);
      this.append("model_change", { provider: this.model.provider, modelId: this.model.model });
      this.append("thinking_level_change", { thinkingLevel: this.thinkingLevel });
      if (r.chance(0.6)) {
        // Pi >= 0.86 records the system prompt as a `system` message (indexers should skip it)
        const sections = {
          preamble:
            "You are an expert coding assistant operating inside pi, a coding agent harness. You help users by reading files, executing commands, editing code, and writing new files.",
          tools:
            "<tools>\n- read: Read file contents\n- bash: Execute bash commands (ls, grep, find, etc.)\n- edit: Make precise file edits with exact text replacement, including multiple disjoint edits in one call\n- write: Create or overwrite files\n</tools>",
          rules: `<rules>\n${Array.from({ length: 6 }, () => `- ${r.pick(this.P.sentences)}`).join("\n")}\n</rules>`,
          cwd: `<cwd>\n${this.project.cwd}\n</cwd>`,
        };
        const toolsAdded = ["read", "bash", "edit", "write"].map((name) => ({
          name,
          description: `${name[0].toUpperCase()}${name.slice(1)} tool. ${r.pick(this.P.sentences)}`,
          parameters: {
            type: "object",
            required: name === "bash" ? ["command"] : ["path"],
            properties: {},
          },
        }));
        this.append("message", {
          message: { role: "system", content: "", sections, timestamp: this.clock, toolsAdded },
        });
      }
    }

    const turns = [];
    const branchAt = plan.branch ? r.range(2, Math.max(2, plan.turns - 3)) : -1;
    let compactAt = -1;
    if (plan.compaction) {
      const lo = Math.max(Math.ceil(plan.turns * 0.5), branchAt + 2, 2);
      if (lo <= plan.turns - 1) compactAt = r.range(lo, plan.turns - 1);
    }
    const nameAt = plan.named ? Math.min(plan.turns - 1, r.range(1, 2)) : -1;
    // A fork inherits the copied session_info.
    let named = fork ? (source.record.name ?? null) : null;
    for (let t = 0; t < plan.turns; t++) {
      if (t === branchAt) this.branchSummary(turns[r.int(t - 1)].finalId);
      if (t === compactAt) this.compaction(turns[t - 1].userId);
      if (t === nameAt) {
        this.advance(500, 3000);
        named = this.sessionName();
        this.append("session_info", { name: named });
      }
      const res = this.turn();
      if (t === 0 && !fork) this.firstUserText = userTextOf(this.runs);
      turns.push(res);
    }
    if (plan.named && nameAt < 0) {
      named = this.sessionName();
      this.append("session_info", { name: named });
    }
    this.sink.close();

    const rel = path.relative(ctx.outDir, file).split(path.sep).join("/");
    const record = {
      id,
      path: rel,
      cwd: this.project.cwd,
      created: iso(created),
      modified: iso(this.clock),
      bytes: this.sink.bytes,
      entries: this.stats.entries,
      userTurns: plan.turns,
      ...(named ? { name: named } : {}),
      ...(fork ? { parentSession: source.record.path, parentSessionId: source.record.id } : {}),
      ...(branchAt >= 0 ? { branch: true } : {}),
      ...(compactAt >= 0 ? { compaction: true } : {}),
      model: this.model.model,
      topicWords: [...this.topic.words].sort(),
    };
    return {
      record,
      file,
      end: this.clock,
      firstUserText: this.firstUserText,
      tokens: this.tokens,
    };
  }
}

// =============================================================================================
// Corpus

function resolveSize(size) {
  if (typeof size === "number") {
    if (!Number.isInteger(size) || size < 1) throw new Error(`invalid session count: ${size}`);
    return { label: `n${size}`, sessions: size };
  }
  const key = String(size ?? "S").toUpperCase();
  if (SIZES[key]) return { label: key, sessions: SIZES[key] };
  if (/^\d+$/.test(key)) return resolveSize(Number(key));
  throw new Error(`unknown corpus size: ${size} (expected S, M, L or a session count)`);
}

export function defaultOutDir(size, seed = 1, shape = "default") {
  return path.join(
    REPO_ROOT,
    ".cache",
    "bench",
    `corpus-${resolveSize(size).label}${shape === "default" ? "" : `-${shape}`}-${seed}`,
  );
}

/**
 * Generates (or reuses) a corpus.
 * @param {{size?: "S"|"M"|"L"|number, seed?: number, shape?: "default"|"output", outDir?: string,
 *          textSources?: string[], force?: boolean, log?: (msg: string) => void}} opts
 * @returns {Promise<{outDir, agentDir, sessionsDir, manifestPath, knownItemsPath, sessions, files,
 *          bytes, reused, ms}>}
 */
export async function generateCorpus(opts = {}) {
  const t0 = performance.now();
  const { label, sessions: count } = resolveSize(opts.size ?? "S");
  const seed = Number(opts.seed ?? 1);
  if (!Number.isFinite(seed)) throw new Error(`invalid seed: ${opts.seed}`);
  const shape = opts.shape ?? "default";
  if (!Object.hasOwn(SHAPES, shape))
    throw new Error(
      `unknown corpus shape: ${shape} (expected ${Object.keys(SHAPES).join(" or ")})`,
    );
  const outDir = path.resolve(opts.outDir ?? defaultOutDir(opts.size ?? "S", seed, shape));
  const log = opts.log ?? (() => {});
  const agentDir = path.join(outDir, "agent");
  const sessionsDir = path.join(agentDir, "sessions");
  const manifestPath = path.join(outDir, "manifest.json");
  const knownItemsPath = path.join(outDir, "known-items.jsonl");
  const markerPath = path.join(outDir, MARKER);

  const pool = loadTextPool({ roots: opts.textSources, log });
  // The default shape is left out, so that corpora made before shapes existed are still reused.
  const params = {
    generatorVersion: GENERATOR_VERSION,
    sessions: count,
    seed,
    ...(shape === "default" ? {} : { shape }),
    referenceDate: REFERENCE_DATE,
    textPool: pool.key,
  };

  if (!opts.force && fs.existsSync(markerPath)) {
    try {
      const marker = JSON.parse(fs.readFileSync(markerPath, "utf8"));
      if (JSON.stringify(marker.params) === JSON.stringify(params) && fs.existsSync(manifestPath)) {
        log(`corpus up to date: ${outDir}`);
        return {
          outDir,
          agentDir,
          sessionsDir,
          manifestPath,
          knownItemsPath,
          sessions: count,
          files: marker.files,
          bytes: marker.bytes,
          reused: true,
          ms: Math.round(performance.now() - t0),
        };
      }
    } catch {
      // regenerate
    }
  }

  // Remove only what this generator writes.
  fs.rmSync(markerPath, { force: true });
  fs.rmSync(agentDir, { recursive: true, force: true });
  fs.rmSync(manifestPath, { force: true });
  fs.rmSync(knownItemsPath, { force: true });
  fs.mkdirSync(sessionsDir, { recursive: true });

  const P = preparePool(pool);
  if (P.readable.length === 0 || P.sentences.length < 100 || P.topicWords.length < 20)
    throw new Error("text pool too small: is node_modules installed?");

  // Each project gets its own code base: a fixed set of pool files under project paths.
  const projectFiles = PROJECTS.map((project, k) => {
    const r = Rng.from("recall-corpus", seed, "project", k);
    const files = [];
    const used = new Set();
    const paths = new Set();
    const n = Math.min(P.readable.length, r.range(40, 120));
    for (let guard = 0; files.length < n && guard < n * 20; guard++) {
      const code = r.pick(P.readable);
      if (used.has(code)) continue;
      used.add(code);
      const base = projectPath(project, P.code[code].path);
      let p = base;
      for (let s = 2; paths.has(p); s++)
        p = base.replace(/((?:\.d)?\.[^./]+)?$/, (ext) => `-${s}${ext}`);
      paths.add(p);
      files.push({ path: p, code });
    }
    return files;
  });

  const plans = planCorpus(count, seed);
  const ctx = {
    P,
    seed,
    shape: SHAPES[shape],
    outDir,
    sessionsDir,
    projectFiles,
    topics: new Map(),
    sessionIds: new Set(),
    totals: { named: 0, compaction: 0, branch: 0, forks: 0 },
  };
  const forkSources = new Map(); // plan index → info needed by its forks
  for (const p of plans) if (p.forkedBy) ctx.topics.set(p.index, SessionBuilder.makeTopic(ctx, p));

  const kiRng = Rng.from("recall-corpus", seed, "known-items");
  const reservoir = [];
  let seen = 0;
  const records = [];
  const counts = { entries: 0, types: {}, roles: {}, toolCalls: 0, thinking: 0 };
  let bytes = 0;
  let nextReport = 0.1;

  for (let i = 0; i < plans.length; i++) {
    const plan = plans[i];
    const b = new SessionBuilder(ctx, plan);
    const source = plan.fork !== null ? forkSources.get(plan.fork) : null;
    const out = b.build(source);
    if (plan.forkedBy) forkSources.set(plan.index, out);
    if (source) {
      ctx.totals.forks++;
      if (--plans.find((q) => q.index === plan.fork).forkedBy === 0) forkSources.delete(plan.fork);
    }
    records.push(out.record);
    bytes += out.record.bytes;
    counts.entries += b.stats.entries;
    counts.toolCalls += b.stats.toolCalls;
    counts.thinking += b.stats.thinking;
    for (const k of ["types", "roles"])
      for (const [t, n] of Object.entries(b.stats[k])) counts[k][t] = (counts[k][t] ?? 0) + n;
    if (out.record.name) ctx.totals.named++;
    if (out.record.compaction) ctx.totals.compaction++;
    if (out.record.branch) ctx.totals.branch++;
    // known items: reservoir sample over the text runs of sessions that are neither forks nor
    // forked
    if (plan.fork === null && !ctx.topics.has(plan.index)) {
      b.runs.forEach((run, messageIndex) => {
        if (run.text.length < 30) return;
        const item = {
          sessionId: out.record.id,
          role: run.role,
          messageIndex,
          entryIds: run.entryIds,
          text: run.text,
          order: i,
        };
        if (reservoir.length < KNOWN_ITEM_COUNT) reservoir.push(item);
        else {
          const j = kiRng.int(seen + 1);
          if (j < KNOWN_ITEM_COUNT) reservoir[j] = item;
        }
        seen++;
      });
    }
    if ((i + 1) / plans.length >= nextReport) {
      log(
        `  ${i + 1}/${plans.length} sessions, ${(bytes / 1e6).toFixed(0)} MB, ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
      nextReport += 0.1;
    }
  }

  reservoir.sort((a, b) => a.order - b.order || a.messageIndex - b.messageIndex);
  fs.writeFileSync(
    knownItemsPath,
    reservoir.map(({ order, ...item }) => JSON.stringify(item)).join("\n") +
      (reservoir.length ? "\n" : ""),
  );

  const byProject = PROJECTS.map((p) => ({
    cwd: p.cwd,
    dir: encodeCwd(p.cwd),
    sessions: 0,
    bytes: 0,
  }));
  for (const rec of records) {
    const pr = byProject.find((p) => p.cwd === rec.cwd);
    pr.sessions++;
    pr.bytes += rec.bytes;
  }
  const manifest = {
    generator: "recall bench/corpus.mjs",
    generatorVersion: GENERATOR_VERSION,
    size: label,
    seed,
    ...(shape === "default" ? {} : { shape }),
    referenceDate: REFERENCE_DATE,
    layout:
      "agent/sessions/--<encoded cwd>--/<fileTimestamp>_<sessionId>.jsonl (paths below are relative to this file's folder)",
    agentDir: "agent",
    sessionsDir: "agent/sessions",
    textPool: {
      key: pool.key,
      roots: pool.roots.map((r) =>
        r.startsWith(REPO_ROOT + path.sep) ? path.relative(REPO_ROOT, r) : r,
      ),
      paragraphs: pool.paragraphs.length,
      sentences: pool.sentences.length,
      codeFiles: pool.code.length,
    },
    counts: {
      sessions: records.length,
      files: records.length,
      projects: byProject.filter((p) => p.sessions).length,
      bytes,
      entries: counts.entries,
      entryTypes: sortKeys(counts.types),
      messages: sortKeys(counts.roles),
      toolCalls: counts.toolCalls,
      thinkingBlocks: counts.thinking,
      sessionsNamed: ctx.totals.named,
      sessionsWithCompaction: ctx.totals.compaction,
      sessionsWithBranch: ctx.totals.branch,
      forks: ctx.totals.forks,
      knownItems: reservoir.length,
    },
    knownItems: {
      file: "known-items.jsonl",
      messageIndex:
        '0-based index among the session\'s user/assistant text messages in file order, where a message\'s text blocks are joined with "\\n", messages without text (tool calls only, toolResult, other entries) are skipped, and consecutive same-role texts are joined with "\\n\\n" into one item',
      excludes: "fork files and sessions that were forked (their texts exist in two files)",
    },
    projects: byProject,
    sessions: records,
  };
  fs.writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 1)}\n`);

  const ms = Math.round(performance.now() - t0);
  fs.writeFileSync(
    markerPath,
    `${JSON.stringify({ params, files: records.length, bytes, ms, completedAt: new Date().toISOString() }, null, 1)}\n`,
  );
  return {
    outDir,
    agentDir,
    sessionsDir,
    manifestPath,
    knownItemsPath,
    sessions: records.length,
    files: records.length,
    bytes,
    reused: false,
    ms,
    counts: manifest.counts,
  };
}

// =============================================================================================
// CLI

function parseArgs(argv) {
  const opts = {
    corpus: "S",
    sessions: undefined,
    seed: 1,
    shape: "default",
    out: undefined,
    force: false,
    systemDocs: false,
    quiet: false,
    json: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.includes("=") ? a.split(/=(.*)/s) : [a, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case "--corpus":
      case "--size":
        opts.corpus = value().toUpperCase();
        if (!SIZES[opts.corpus]) throw new Error(`--corpus must be S, M or L`);
        break;
      case "--sessions":
        opts.sessions = Number(value());
        if (!Number.isInteger(opts.sessions) || opts.sessions < 1)
          throw new Error("--sessions must be a positive integer");
        break;
      case "--seed":
        opts.seed = Number(value());
        if (!Number.isInteger(opts.seed)) throw new Error("--seed must be an integer");
        break;
      case "--shape":
        opts.shape = value();
        if (!Object.hasOwn(SHAPES, opts.shape))
          throw new Error(`--shape must be ${Object.keys(SHAPES).join(" or ")}`);
        break;
      case "--out":
        opts.out = value();
        break;
      case "--force":
        opts.force = true;
        break;
      case "--system-docs":
        opts.systemDocs = true;
        break;
      case "--quiet":
      case "-q":
        opts.quiet = true;
        break;
      case "--json":
        opts.json = true;
        break;
      case "--help":
      case "-h":
        opts.help = true;
        break;
      default:
        throw new Error(`unknown option: ${a}`);
    }
  }
  return opts;
}

const USAGE = `Usage: node bench/corpus.mjs --corpus S|M|L [--sessions N] [--seed N] [--shape output] [--out DIR]
                              [--force] [--system-docs] [--quiet] [--json]

Generates a deterministic corpus of Pi v3 session files (S = 200, M = 2,000, L = 10,000 sessions;
--sessions overrides the count; --shape output makes most bytes tool output, ~85 % instead of ~60 %).
Default output: .cache/bench/corpus-<size>[-<shape>]-<seed>/. An existing,
completed corpus with the same parameters is reused unless --force is given. --system-docs also
draws prose from /usr/share/doc (machine-dependent, so not the default).`;

async function main() {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`corpus: ${e.message}\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  if (opts.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const size = opts.sessions ?? opts.corpus;
  const textSources = opts.systemDocs ? [...DEFAULT_ROOTS, SYSTEM_DOC_ROOT] : undefined;
  const log = opts.quiet ? () => {} : (m) => process.stderr.write(`${m}\n`);
  const res = await generateCorpus({
    size,
    seed: opts.seed,
    shape: opts.shape,
    outDir: opts.out ?? defaultOutDir(size, opts.seed, opts.shape),
    textSources,
    force: opts.force,
    log,
  });
  if (opts.json) {
    process.stdout.write(`${JSON.stringify(res, null, 2)}\n`);
    return;
  }
  const mb = (res.bytes / 1e6).toFixed(1);
  process.stdout.write(
    `${res.reused ? "reused" : "generated"} ${res.sessions} sessions, ${mb} MB in ${(res.ms / 1000).toFixed(1)} s\n`,
  );
  if (res.counts) {
    const c = res.counts;
    process.stdout.write(
      `  entries ${c.entries}: user ${c.messages.user}, assistant ${c.messages.assistant}, toolResult ${c.messages.toolResult}, system ${c.messages.system ?? 0}; toolCalls ${c.toolCalls}\n` +
        `  sessions: named ${c.sessionsNamed}, with compaction ${c.sessionsWithCompaction}, with branch ${c.sessionsWithBranch}, forks ${c.forks}; known items ${c.knownItems}\n`,
    );
  }
  process.stdout.write(`  agent dir: ${res.agentDir}\n  manifest:  ${res.manifestPath}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.stdout.on("error", (e) => {
    if (e.code !== "EPIPE") throw e;
  });
  main().catch((e) => {
    process.stderr.write(`corpus: ${e.stack ?? e}\n`);
    process.exitCode = 1;
  });
}
