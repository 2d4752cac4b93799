// The bench queries' hits (session, score) from two builds of the library over one index, compared
// query by query: a change meant to keep results, checked against the build before it.
//
//   node bench/compare-hits.mjs --corpus M <folder A> <folder B>
// Each folder holds dist/ as `npm run build` leaves it; both read the index of `npm run bench`.
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { REPO_ROOT } from "./lib.mjs";
import { QUERIES } from "./queries.mjs";

const { values, positionals } = parseArgs({
  options: { corpus: { type: "string", default: "M" }, seed: { type: "string", default: "1" } },
  allowPositionals: true,
});
const corpus = join(REPO_ROOT, ".cache", "bench", `corpus-${values.corpus}-${values.seed}`);
const work = join(REPO_ROOT, ".cache", "bench", `run-corpus-${values.corpus}-${values.seed}`);
const env = {
  ...process.env,
  PI_CODING_AGENT_DIR: join(corpus, "agent"),
  RECALL_CACHE_DIR: join(work, "cache"),
};
const contents = [undefined, ["all"]];

/** Every query's hits from the library in `folder`, in a process of its own. */
function hitsOf(folder) {
  const library = join(resolve(folder), "dist", "index.js");
  const script = `
    const { Recall } = await import(${JSON.stringify(library)});
    const recall = Recall.open({ env: process.env });
    const out = {};
    for (const q of ${JSON.stringify(QUERIES.map((q) => ({ key: q.key, lib: q.lib })))}) {
      for (const content of ${JSON.stringify(contents)}) {
        const { hits } = await recall.search({ ...q.lib, ...(content ? { content } : {}), limit: 20, now: Date.parse("2026-06-01"), sync: false });
        out[q.key + (content ? " (all)" : "")] = hits.map((h) => h.id + " " + h.score.toFixed(4));
      }
    }
    process.stdout.write(JSON.stringify(out));`;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    env,
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  if (run.status !== 0) throw new Error(`${folder}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

const [a, b] = positionals.map(hitsOf);
let same = 0;
for (const key of Object.keys(a)) {
  const equal = JSON.stringify(a[key]) === JSON.stringify(b[key]);
  if (equal) same++;
  const changed = a[key]
    .map((hit, i) => (hit === b[key][i] ? null : `${i + 1}: ${hit} → ${b[key][i] ?? "-"}`))
    .filter(Boolean);
  console.log(
    `${key.padEnd(14)} ${equal ? "same" : `${changed.length} of ${a[key].length} differ: ${changed.slice(0, 4).join("; ")}`}`,
  );
}
console.log(`${same} of ${Object.keys(a).length} queries give the same hits and scores`);
