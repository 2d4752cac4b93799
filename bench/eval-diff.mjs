// Compares two results of eval-all.mjs query by query: per run, R@1 / R@5 / MRR of each and the
// queries whose session moved, with its rank before and after.
//
//   node bench/eval-diff.mjs BEFORE.json AFTER.json
import { readFileSync } from "node:fs";

const [before, after] = process.argv
  .slice(2)
  .map((file) => JSON.parse(readFileSync(file, "utf8")).runs);
const key = (run) => `${run.shape} ${run.words} seed ${run.seed}`;
const afterByKey = new Map(after.map((run) => [key(run), run]));
const figures = (run) =>
  `${(run.r1 * 100).toFixed(1)} / ${(run.r5 * 100).toFixed(1)} / ${run.mrr.toFixed(3)}`;
let queries = 0;
let moved = 0;
for (const old of before) {
  const now = afterByKey.get(key(old));
  if (!now) {
    console.log(`${key(old)}: missing after`);
    continue;
  }
  const changes = [];
  old.ranks.forEach((rank, i) => {
    const next = now.ranks[i];
    if (!next || next.query !== rank.query || next.sessionId !== rank.sessionId)
      throw new Error(`${key(old)}: query ${i} differs; the two runs did not use the same corpus`);
    if (next.rank !== rank.rank)
      changes.push(`${JSON.stringify(rank.query)} ${rank.rank ?? "-"} → ${next.rank ?? "-"}`);
  });
  queries += old.ranks.length;
  moved += changes.length;
  console.log(
    `${key(old).padEnd(30)} ${figures(old)}  →  ${figures(now)}  ${changes.length} moved${changes.length ? `: ${changes.join("; ")}` : ""}`,
  );
}
console.log(`${moved} of ${queries} queries moved`);
