#!/usr/bin/env node
/**
 * Deep pages of the MCP server (issue 41): `pi_session_search` walked page after page with its
 * cursor, through the official client over stdio, each page timed. A page should cost what the
 * first costs, however deep: the cursor holds the place of the last session shown, and the
 * search continues after it (src/api/search.ts, native/src/search/find.rs).
 *
 *   node bench/mcp-pages.mjs --corpus M [--query the] [--pages 80] [--limit 20] [--walks 2]
 *   node bench/mcp-pages.mjs --corpus-dir DIR --sessions N ...   (a corpus of any size)
 *   --root DIR  runs the server of another checkout (its bin/recall-mcp.cjs), for a before/after
 *
 * The index is brought up to date first (`recall index`). Prints the first page, the last ten
 * pages and the whole walk (median of the walks), with the machine's load.
 */
import { basename, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { generateCorpus } from "./corpus.mjs";
import { REPO_ROOT, benchEnv, indexCorpus, load, now } from "./lib.mjs";

const { values } = parseArgs({
  options: {
    corpus: { type: "string", default: "M" },
    seed: { type: "string", default: "1" },
    sessions: { type: "string" },
    "corpus-dir": { type: "string" },
    work: { type: "string" },
    root: { type: "string" },
    query: { type: "string", default: "the" },
    pages: { type: "string", default: "80" },
    limit: { type: "string", default: "20" },
    walks: { type: "string", default: "2" },
  },
});
const log = (line) => process.stderr.write(`${line}\n`);
const root = resolve(values.root ?? REPO_ROOT);
const size = values.sessions ? Number(values.sessions) : values.corpus.toUpperCase();
const corpus = await generateCorpus({
  size,
  seed: Number(values.seed),
  outDir: values["corpus-dir"],
  log,
});
const work =
  values.work ?? join(REPO_ROOT, ".cache", "bench", `mcp-pages-${basename(corpus.outDir)}`);
const env = benchEnv(corpus.agentDir, work);
indexCorpus(env, join(root, "bin", "recall.cjs"), log);

const client = new Client({ name: "recall-bench-pages", version: "1.0.0" });
await client.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: [join(root, "bin", "recall-mcp.cjs"), "--default-scope", "all"],
    env,
    stderr: "inherit",
  }),
);

const pages = Number(values.pages);
const limit = Number(values.limit);
/** One walk: each page's milliseconds, and the sessions it showed. */
async function walk() {
  const times = [];
  const seen = new Set();
  let cursor;
  for (let page = 0; page < pages; page++) {
    const t = now();
    const result = await client.callTool({
      name: "pi_session_search",
      arguments: { query: values.query, limit, ...(cursor ? { cursor } : {}) },
    });
    times.push(now() - t);
    if (result.isError)
      throw new Error(`page ${page + 1}: ${JSON.stringify(result.structuredContent)}`);
    for (const hit of result.structuredContent.results) {
      if (seen.has(hit.session_id)) throw new Error(`page ${page + 1} repeats ${hit.session_id}`);
      seen.add(hit.session_id);
    }
    cursor = result.structuredContent.next_cursor;
    if (!cursor) break;
  }
  return { times, sessions: seen.size };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const loadBefore = load();
const walks = [];
for (let i = 0; i < Number(values.walks); i++) walks.push(await walk());
await client.close();
const summary = (pick) => median(walks.map(pick)).toFixed(0);
const row = {
  server: root,
  corpus: `${corpus.files} sessions`,
  query: values.query,
  pages: walks[0].times.length,
  sessions: walks[0].sessions,
  firstPageMs: summary((w) => w.times[0]),
  lastTenPagesMeanMs: summary(
    (w) => w.times.slice(-10).reduce((a, b) => a + b, 0) / Math.min(10, w.times.length),
  ),
  walkMs: summary((w) => w.times.reduce((a, b) => a + b, 0)),
  walks: walks.length,
  load: { before: loadBefore, after: load() },
};
console.log(JSON.stringify(row, null, 2));
