#!/usr/bin/env node
/**
 * `recall serve`'s speed (issue 42), over HTTP as a browser talks to it and, where Debian's
 * chromium is installed, in the browser itself (playwright-core):
 *
 *  1. start: spawn `recall serve` (index already built) → its URL printed → the first page
 *     answered (the secret's redirect, then `/` and `/assets/app.js` with the cookie);
 *  2. search as you type: each query typed a character at a time, one `/api/search?q=<prefix>`
 *     after another (a browser sends the newest), p50 / p95 over every request;
 *  3. a long session's page: `/api/sessions/:id` on a fresh server (its first render) and again
 *     (kept), a later page of parts, and in chromium: from the search page, the session opened as a
 *     hit's link opens it, timed in the page to the frame after its first `.part` (the target);
 *     then as a new tab opens it, with its view kept and on a fresh server;
 *  4. the activity page: `/api/activity` for all time (the target) and for the corpus's last 30
 *     days (the page's default window; the corpus's dates are fixed), first call and again.
 *
 * The corpus's sessions are hard-linked into a work folder beside one long session chained from
 * the corpus's longest ones (≥ `--long-messages` user and assistant messages, as recall counts
 * them), so the corpus itself is only read. Each round starts its own server; rounds interleave
 * `node -e 0`, the yardstick of how loaded the machine is. Writes
 * bench/results/serve-<corpus>-<date>.json and prints a table with each target met / not met.
 *
 *   npm run prepare && nice node bench/serve.mjs --corpus M|L [--rounds 5] [--activity-rounds N]
 *   [--browser-rounds 3] [--no-browser] [--no-save] node bench/serve.mjs --corpus M --bin
 *   /tmp/before/bin/recall.cjs (another build: its bin/ and dist/, native/ and node_modules/ linked
 *   beside) node bench/serve.mjs --sessions N --corpus-dir DIR --work DIR --results FILE
 *   --long-messages 300 (any size; the smoke test)
 */
import { spawn, spawnSync } from "node:child_process";
import {
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { Agent, request } from "node:http";
import { basename, dirname, join, resolve as resolvePath } from "node:path";
import { parseArgs } from "node:util";
import { REFERENCE_DATE, generateCorpus } from "./corpus.mjs";
import {
  RECALL_BIN,
  REPO_ROOT,
  benchEnv,
  buildInfo,
  load,
  machineInfo,
  now,
  summarize,
} from "./lib.mjs";
import { QUERIES } from "./queries.mjs";

const TARGETS = { firstPageMs: 100, searchP95Ms: 30, sessionMs: 300, activityMs: 200 };
const CHROMIUM = "/usr/bin/chromium";
const DAY_MS = 86_400_000;

const { values } = parseArgs({
  options: {
    corpus: { type: "string", default: "M" },
    seed: { type: "string", default: "1" },
    rounds: { type: "string", default: "5" },
    "warm-runs": { type: "string", default: "5" },
    "activity-runs": { type: "string", default: "2" },
    "activity-rounds": { type: "string" },
    "browser-rounds": { type: "string", default: "3" },
    "long-messages": { type: "string", default: "3000" },
    "no-browser": { type: "boolean", default: false },
    bin: { type: "string", default: RECALL_BIN },
    queries: { type: "string", default: "10" },
    sessions: { type: "string" },
    "corpus-dir": { type: "string" },
    work: { type: "string" },
    results: { type: "string" },
    "no-save": { type: "boolean", default: false },
  },
});
const size = values.sessions ? Number(values.sessions) : values.corpus.toUpperCase();
const label = typeof size === "number" ? `n${size}` : size;
const rounds = Number(values.rounds);
const warmRuns = Number(values["warm-runs"]);
const activityRuns = Number(values["activity-runs"]);
const activityRounds = Math.min(rounds, Number(values["activity-rounds"] ?? rounds));
const browserRounds =
  values["no-browser"] || !existsSync(CHROMIUM) ? 0 : Number(values["browser-rounds"]);
const log = (line) => process.stderr.write(`${line}\n`);
const bin = resolvePath(values.bin);

const corpus = await generateCorpus({
  size,
  seed: Number(values.seed),
  outDir: values["corpus-dir"],
  log,
});
const work = values.work ?? join(REPO_ROOT, ".cache", "bench", `serve-${basename(corpus.outDir)}`);
const agentDir = join(work, "agent");
const sessionsDir = join(agentDir, "sessions");
const env = benchEnv(agentDir, work);

const started = new Date();
const results = {
  schema: 1,
  date: started.toISOString(),
  command: `node bench/serve.mjs ${process.argv.slice(2).join(" ")}`.trim(),
  machine: machineInfo(),
  build: buildInfo(),
  load: { start: load() },
};
results.corpus = { label, seed: Number(values.seed), files: corpus.files, bytes: corpus.bytes };

linkCorpus();
const long = writeLongSession(Number(values["long-messages"]));
results.longSession = long;
log(
  `long session ${long.id}: ${long.messages} messages (${long.messageEntries} message entries, ${(long.bytes / 1e6).toFixed(1)} MB) from ${long.from} corpus sessions`,
);

log("bringing the index up to date (recall index)…");
let t = now();
const indexed = spawnSync(process.execPath, [bin, "index", "-q"], {
  env,
  stdio: ["ignore", "ignore", "inherit"],
});
if (indexed.status !== 0) throw new Error("recall index failed");
results.indexMs = Math.round(now() - t);

// The page's default window is the last 30 days; the corpus's end is fixed, so that window is
// the corpus's last 30 days, counted back from today.
const lastMonth = String(
  Math.ceil((Date.now() - (Date.parse(REFERENCE_DATE) - 30 * DAY_MS)) / DAY_MS),
);
const typed = typedQueries();
results.typing = {
  queries: typed.map((q) => q.text),
  requestsPerRound: typed.reduce((sum, q) => sum + q.text.length, 0),
};

const samples = {
  nodeStart: [],
  urlPrinted: [],
  firstPage: [],
  urlToPage: [],
  withStyles: [],
  info: [],
  sessionCold: [],
  sessionWarm: [],
  partsPage: [],
  activityAllCold: [],
  activityAllWarm: [],
  activityMonthCold: [],
  activityMonthWarm: [],
  search: [],
  browserCold: [],
  browserWarm: [],
  browserNewTab: [],
};
const searchByQuery = Object.fromEntries(typed.map((q) => [q.text, []]));
/** By the typed prefix's length: 1, 2, 3 and 4 or more characters. */
const searchByLength = { 1: [], 2: [], 3: [], "4+": [] };
const searchByPrefix = new Map();
const facts = {};

log(
  `${rounds} rounds over HTTP: start, the long session, the activity page, ${results.typing.requestsPerRound} searches as you type…`,
);
results.load.http = load();
for (let round = 0; round < rounds; round++) {
  t = now();
  spawnSync(process.execPath, ["-e", "0"], { env, stdio: "ignore" });
  samples.nodeStart.push(now() - t);

  const server = await startServer();
  samples.urlPrinted.push(server.urlMs);
  samples.firstPage.push(server.firstPageMs);
  samples.urlToPage.push(server.firstPageMs - server.urlMs);
  samples.withStyles.push(server.withStylesMs);
  samples.info.push(await timed(server, "/api/info"));

  const sessionPath = `/api/sessions/${long.id}`;
  let answer;
  samples.sessionCold.push(await timed(server, sessionPath, (body) => (answer = JSON.parse(body))));
  if (answer.parts.length === 0 || answer.id !== long.id)
    throw new Error(
      `the long session's page came back without parts: ${JSON.stringify(answer).slice(0, 200)}`,
    );
  facts.session = {
    parts: answer.total,
    partsSent: answer.parts.length,
    firstAnswerBytes: server.lastBytes,
  };
  for (let i = 0; i < warmRuns; i++) samples.sessionWarm.push(await timed(server, sessionPath));
  for (let i = 0; i < warmRuns; i++)
    samples.partsPage.push(
      await timed(server, `${sessionPath}/parts?from=${120 * (i + 1)}&count=120`),
    );

  if (round < activityRounds) {
    let activity;
    samples.activityAllCold.push(
      await timed(server, "/api/activity?scope=all", (body) => (activity = JSON.parse(body))),
    );
    facts.activityAll = {
      ...activity.totals,
      charts: activity.charts.length,
      files: activity.files.length,
    };
    for (let i = 0; i < activityRuns; i++)
      samples.activityAllWarm.push(await timed(server, "/api/activity?scope=all"));
    samples.activityMonthCold.push(
      await timed(
        server,
        `/api/activity?since=${lastMonth}&scope=all`,
        (body) => (activity = JSON.parse(body)),
      ),
    );
    facts.activityMonth = { since: Number(lastMonth), ...activity.totals };
    for (let i = 0; i < activityRuns; i++)
      samples.activityMonthWarm.push(
        await timed(server, `/api/activity?since=${lastMonth}&scope=all`),
      );
  }

  const hits = {};
  for (const query of typed) {
    for (let n = 1; n <= query.text.length; n++) {
      const ms = await timed(
        server,
        `/api/search?${new URLSearchParams({ q: query.text.slice(0, n), scope: "all" })}`,
        (body) => (hits[query.text] = JSON.parse(body).hits.length),
      );
      samples.search.push(ms);
      searchByQuery[query.text].push(ms);
      searchByLength[n >= 4 ? "4+" : n].push(ms);
      const prefix = query.text.slice(0, n);
      searchByPrefix.set(prefix, [...(searchByPrefix.get(prefix) ?? []), ms]);
    }
  }
  facts.searchHits = hits;
  await server.stop();
  log(
    `  round ${round + 1}: url ${server.urlMs.toFixed(0)} ms, page ${server.firstPageMs.toFixed(0)} ms, session ${samples.sessionCold.at(-1).toFixed(0)} ms, activity ${samples.activityAllCold.at(-1)?.toFixed(0) ?? "-"} ms; load ${load().join(" ")}`,
  );
}

if (browserRounds > 0) {
  log(`${browserRounds} rounds in chromium: /session/${long.id} until its first part is visible…`);
  results.load.browser = load();
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath: CHROMIUM });
  try {
    for (let round = 0; round < browserRounds; round++) {
      const server = await startServer();
      const context = await browser.newContext();
      const page = await context.newPage();
      const firstPart = page.locator(".part").first();
      // Cold, in the app: the search page open and the server's start done (its first catch-up,
      // then its first count of the activity, which the activity page's call waits for), then
      // the session opened as a hit's link opens it (the address changes, no reload), its view
      // rendered for the first time in the process.
      await page.goto(`${server.origin}/?token=${server.token}`);
      await page.locator("input").first().waitFor({ state: "visible" });
      await server.settled();
      await timed(server, "/api/activity");
      samples.browserCold.push(await openInApp(page, `/session/${long.id}`));
      await firstPart.waitFor({ state: "visible" });
      // Again, as a new tab opens it: the whole page loaded, its view kept by the server.
      for (let i = 0; i < warmRuns; i++) {
        t = now();
        await page.goto(`${server.origin}/session/${long.id}`);
        await firstPart.waitFor({ state: "visible" });
        samples.browserWarm.push(now() - t);
      }
      // A new tab at the session's address on a fresh server: the page, the script, the first
      // render.
      await context.close();
      await server.stop();
      const fresh = await startServer();
      const tab = await (await browser.newContext()).newPage();
      t = now();
      await tab.goto(`${fresh.origin}/session/${long.id}?token=${fresh.token}`);
      await tab.locator(".part").first().waitFor({ state: "visible" });
      samples.browserNewTab.push(now() - t);
      facts.browserParts = await tab.locator(".part").count();
      await tab.context().close();
      await fresh.stop();
    }
  } finally {
    await browser.close();
  }
}
results.load.end = load();

const stat = (name, digits = 1) => summarize(samples[name], digits);
results.measurements = Object.fromEntries(Object.keys(samples).map((name) => [name, stat(name)]));
results.measurements.searchByQuery = Object.fromEntries(
  Object.entries(searchByQuery).map(([q, list]) => [q, summarize(list, 1)]),
);
results.measurements.searchByLength = Object.fromEntries(
  Object.entries(searchByLength).map(([n, list]) => [n, summarize(list, 1)]),
);
results.measurements.slowestPrefixes = [...searchByPrefix]
  .map(([prefix, list]) => ({ prefix, ...summarize(list, 1) }))
  .sort((a, b) => b.median - a.median)
  .slice(0, 8);
results.facts = facts;
// Each round's own figures (the first round's activity builds the stats cache; later rounds read
// it).
results.samples = Object.fromEntries(
  Object.entries(samples)
    .filter(([name]) => name !== "search")
    .map(([name, list]) => [name, list.map((ms) => Number(ms.toFixed(1)))]),
);
const m = results.measurements;
const sessionFirstScreen = browserRounds > 0 ? m.browserCold : m.sessionCold;
const within = (value, limit) => value !== null && value <= limit;
results.targets = {
  firstPage: {
    target: `first page answered <= ${TARGETS.firstPageMs} ms after the spawn (median)`,
    value: m.firstPage.median,
    met: within(m.firstPage.median, TARGETS.firstPageMs),
  },
  search: {
    target: `search as you type p95 <= ${TARGETS.searchP95Ms} ms`,
    value: m.search.p95,
    met: within(m.search.p95, TARGETS.searchP95Ms),
  },
  session: {
    target: `the ${long.messages}-message session's first screen <= ${TARGETS.sessionMs} ms (median; ${browserRounds > 0 ? "chromium, first .part visible, first render" : "the API's first render: no chromium"})`,
    value: sessionFirstScreen.median,
    met: within(sessionFirstScreen.median, TARGETS.sessionMs),
  },
  activity: {
    target: `the activity page, all time, <= ${TARGETS.activityMs} ms (median of first calls)`,
    value: m.activityAllCold.median,
    met: within(m.activityAllCold.median, TARGETS.activityMs),
  },
};
if (label !== "L")
  for (const t of Object.values(results.targets)) t.target += " (the targets are for L)";

const cell = (s) => (s.n ? `${s.median} / ${s.p95}` : "n/a");
const table = [
  `recall serve, ${label}: ${corpus.files} sessions, ${(corpus.bytes / 1e6).toFixed(0)} MB, and one of ${long.messages} messages (${facts.session.parts} parts); load ${results.load.start.join(" ")} → ${results.load.end.join(" ")}`,
  "",
  "| measured | p50 / p95 (ms) | n |",
  "|---|--:|--:|",
  ...[
    ["spawn → URL printed", "urlPrinted"],
    ["spawn → first page answered (`/`, `/assets/app.js`)", "firstPage"],
    ["URL printed → first page answered (the secret's redirect, `/`, `app.js`)", "urlToPage"],
    ["spawn → the page's stylesheets too (`app.css`, `session.css`)", "withStyles"],
    ["`/api/info`", "info"],
    ["search as you type, every request", "search"],
    ["long session, first render (`/api/sessions/:id`)", "sessionCold"],
    ["long session, again", "sessionWarm"],
    ["long session, a later page of 120 parts", "partsPage"],
    [
      "long session in chromium, opened in the app (its start done), first `.part` visible, first render",
      "browserCold",
    ],
    ["long session in chromium, a new tab, the view kept", "browserWarm"],
    [
      "long session in chromium, a new tab on a fresh server (the page, the script, the first render)",
      "browserNewTab",
    ],
    ["activity, all time, first call", "activityAllCold"],
    ["activity, all time, again", "activityAllWarm"],
    [`activity, the corpus's last 30 days (since=${lastMonth}), first call`, "activityMonthCold"],
    ["activity, last 30 days, again", "activityMonthWarm"],
    ["`node -e 0`", "nodeStart"],
  ].map(([what, name]) => `| ${what} | ${cell(m[name])} | ${m[name].n} |`),
  "",
  `search as you type by the prefix's length, p50 / p95 (ms): ${Object.entries(m.searchByLength)
    .map(([n, s]) => `${n} characters ${cell(s)}`)
    .join(", ")}`,
  `slowest prefixes, p50 (ms): ${m.slowestPrefixes.map((p) => `${JSON.stringify(p.prefix)} ${p.median}`).join(", ")}`,
  "search as you type per query, p50 / p95 (ms):",
  ...Object.entries(m.searchByQuery).map(
    ([q, s]) =>
      `  ${JSON.stringify(q)}: ${s.median} / ${s.p95} (hits at the end: ${facts.searchHits[q]})`,
  ),
  "",
  ...Object.values(results.targets).map(
    (t) => `${t.met ? "MET" : "NOT MET"}: ${t.target}: ${t.value} ms`,
  ),
];
process.stdout.write(`${table.join("\n")}\n`);
if (!values["no-save"]) {
  const file =
    values.results ??
    join(
      REPO_ROOT,
      "bench",
      "results",
      `serve-${label}-${started.toISOString().slice(0, 10)}.json`,
    );
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  log(`wrote ${file}`);
}

/**
 * Hard links to every corpus session (the corpus is only read); stale links (a regenerated corpus)
 * are replaced.
 */
function linkCorpus() {
  const from = join(corpus.agentDir, "sessions");
  for (const folder of readdirSync(from)) {
    mkdirSync(join(sessionsDir, folder), { recursive: true });
    for (const file of readdirSync(join(from, folder))) {
      const source = join(from, folder, file);
      const target = join(sessionsDir, folder, file);
      if (existsSync(target)) {
        if (statSync(target).ino === statSync(source).ino) continue;
        unlinkSync(target);
      }
      linkSync(source, target);
    }
  }
}

/**
 * One long session: the corpus's longest sessions (the largest project's first, forks left out)
 * chained one after another, each continuing from the last entry of the one before, its times
 * moved to follow on, until it holds `minMessages` user and assistant messages. The same corpus
 * gives the same file.
 */
function writeLongSession(minMessages) {
  const manifest = JSON.parse(readFileSync(corpus.manifestPath, "utf8"));
  const root = dirname(corpus.manifestPath);
  const largest = [...manifest.projects].sort((a, b) => b.sessions - a.sessions)[0].cwd;
  const candidates = manifest.sessions
    .filter((s) => !s.parentSession)
    .sort(
      (a, b) =>
        Number(b.cwd === largest) - Number(a.cwd === largest) ||
        b.entries - a.entries ||
        (a.id < b.id ? -1 : 1),
    );
  const id = "01a0ffff-0000-7000-8000-00000000b3a0";
  const created = Date.parse(REFERENCE_DATE) - 60 * DAY_MS;
  const lines = [
    JSON.stringify({
      type: "session",
      version: 3,
      id,
      timestamp: new Date(created).toISOString(),
      cwd: largest,
    }),
  ];
  const used = new Set();
  let messages = 0;
  let messageEntries = 0;
  let from = 0;
  let last = null;
  let clock = created;
  for (const source of candidates) {
    if (messages >= minMessages) break;
    const entries = readFileSync(join(root, source.path), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    const body = entries.filter((e) => e.type !== "session");
    if (body.length === 0) continue;
    from++;
    const shift = clock + 60_000 - Date.parse(body[0].timestamp);
    // Old id → new id; a left-out entry (a later session's system prompt) → its parent, so its
    // children hang on.
    const ids = new Map();
    for (const entry of body) {
      const parent = entry.parentId === null ? last : (ids.get(entry.parentId) ?? null);
      if (from > 1 && entry.type === "message" && entry.message?.role === "system") {
        ids.set(entry.id, parent);
        continue;
      }
      let fresh = entry.id;
      for (let n = 1; used.has(fresh); n++)
        fresh = (parseInt(entry.id, 16) + n * 0x9e3779b1).toString(16).slice(-8).padStart(8, "0");
      used.add(fresh);
      ids.set(entry.id, fresh);
      for (const [key, value] of Object.entries(entry))
        if (key.endsWith("Id") && typeof value === "string" && ids.has(value))
          entry[key] = ids.get(value);
      entry.id = fresh;
      entry.parentId = parent;
      const at = Date.parse(entry.timestamp) + shift;
      entry.timestamp = new Date(at).toISOString();
      if (typeof entry.message?.timestamp === "number") entry.message.timestamp += shift;
      clock = Math.max(clock, at);
      if (entry.type === "message") {
        messageEntries++;
        if (entry.message?.role === "user" || entry.message?.role === "assistant") messages++;
      }
      lines.push(JSON.stringify(entry));
      last = fresh;
    }
  }
  if (messages < minMessages)
    throw new Error(
      `the corpus holds only ${messages} messages to chain, fewer than ${minMessages}`,
    );
  const folder = join(sessionsDir, `--${largest.slice(1).replace(/[/\\:]/g, "-")}--`);
  mkdirSync(folder, { recursive: true });
  const path = join(folder, `${new Date(created).toISOString().replace(/[:.]/g, "-")}_${id}.jsonl`);
  const text = `${lines.join("\n")}\n`;
  // Rewritten only when it changed, so that the index need not read it again.
  if (!existsSync(path) || readFileSync(path, "utf8") !== text) writeFileSync(path, text);
  return {
    id,
    path,
    messages,
    messageEntries,
    entries: lines.length - 1,
    bytes: Buffer.byteLength(text),
    from,
  };
}

/**
 * The bench's queries (all but the tag filter, which needs tags) and remembered words of known
 * items, as typed: `--queries` of them.
 */
function typedQueries() {
  const texts = QUERIES.filter((q) => !q.needsTags).map((q) => q.lib.query);
  const items = readFileSync(corpus.knownItemsPath, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  // Every 60th known item: its three longest words, in the order they appear.
  for (let i = 0; i < items.length && texts.length < Number(values.queries); i += 60) {
    const words = items[i].text.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 4);
    const longest = new Set([...words].sort((a, b) => b.length - a.length).slice(0, 3));
    texts.push(
      words
        .filter((w) => longest.delete(w))
        .join(" ")
        .toLowerCase(),
    );
  }
  return texts.slice(0, Number(values.queries)).map((text) => ({ text }));
}

/**
 * Opens `to` in the app as a link does (the address changes, no reload), timed in the page from
 * the change to the frame after the first `selector` is in (Playwright's own polling would add its
 * interval to the figure).
 */
function openInApp(page, to, selector = ".part") {
  return page.evaluate(
    ([to, selector]) =>
      new Promise((resolve) => {
        const start = performance.now();
        new MutationObserver((_, observer) => {
          if (!document.querySelector(selector)) return;
          observer.disconnect();
          requestAnimationFrame(() => resolve(performance.now() - start));
        }).observe(document.body, { childList: true, subtree: true });
        history.pushState(null, "", to);
        dispatchEvent(new PopStateEvent("popstate"));
      }),
    [to, selector],
  );
}

/**
 * `recall serve` spawned, timed to its URL and to its first page answered; stopped with SIGTERM.
 */
async function startServer() {
  const t0 = now();
  const child = spawn(process.execPath, [bin, "serve"], {
    env,
    cwd: work,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const end = out.indexOf("\n");
      if (end >= 0) resolve(out.slice(0, end));
    });
    exited.then(({ code }) =>
      reject(new Error(`recall serve exited (${code}) before printing its URL: ${stderr.trim()}`)),
    );
  });
  const urlMs = now() - t0;
  const address = new URL(url);
  const token = address.searchParams.get("token");
  const server = {
    origin: address.origin,
    token,
    urlMs,
    agent: new Agent({ keepAlive: true, maxSockets: 1 }),
    cookie: "",
    lastBytes: 0,
  };
  const admitted = await get(server, `/?token=${token}`);
  if (admitted.status !== 303)
    throw new Error(`the URL's secret was not admitted: ${admitted.status}`);
  server.cookie = String(admitted.headers["set-cookie"]).split(";")[0];
  for (const path of [admitted.headers.location, "/assets/app.js"]) {
    const answer = await get(server, path);
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.body}`);
  }
  server.firstPageMs = now() - t0;
  // What the shell links besides: the page is drawn once its stylesheets are in.
  for (const path of ["/assets/app.css", "/assets/session.css"]) {
    const answer = await get(server, path);
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.body}`);
  }
  server.withStylesMs = now() - t0;
  // The server's first catch-up sync done: its live feed says "following" (a comment if it
  // already was when the feed opened, an event once it is).
  server.settled = () =>
    new Promise((resolve, reject) => {
      const req = request(
        `${server.origin}/api/events`,
        { headers: { Cookie: server.cookie } },
        (response) => {
          let text = "";
          response.on("data", (chunk) => {
            text += chunk;
            if (/^: following$|^event: following$/m.test(text)) {
              req.destroy();
              resolve();
            }
          });
          response.on("end", () =>
            reject(new Error("the live feed ended before the server followed the index")),
          );
        },
      );
      req.on("error", (error) => (req.destroyed ? undefined : reject(error)));
      req.end();
    });
  server.stop = async () => {
    server.agent.destroy();
    child.kill("SIGTERM");
    const { code, signal } = await exited;
    if (code !== 0)
      throw new Error(`recall serve stopped with ${code ?? signal}: ${stderr.trim()}`);
  };
  return server;
}

/** One GET with the server's cookie: status, headers and body. */
function get(server, path) {
  return new Promise((resolve, reject) => {
    const req = request(
      `${server.origin}${path}`,
      { agent: server.agent, headers: server.cookie ? { Cookie: server.cookie } : {} },
      (response) => {
        const chunks = [];
        response.on("data", (chunk) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        response.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** Milliseconds from the request to its whole answer (which must be 200); `read` sees the body. */
async function timed(server, path, read) {
  const t0 = now();
  const answer = await get(server, path);
  const ms = now() - t0;
  if (answer.status !== 200)
    throw new Error(`${path}: ${answer.status} ${answer.body.slice(0, 300)}`);
  server.lastBytes = answer.body.length;
  read?.(answer.body);
  return ms;
}
