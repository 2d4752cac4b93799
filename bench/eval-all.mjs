// The whole known-item table of BENCHMARKS.md ("Ranking quality"): every query shape, both ways of
// picking words, seeds 1 and 2, with each query's rank, as one JSON file; `eval-diff.mjs` compares
// two such files query by query (a change meant to keep results, checked against the build before
// it).
//
//   node bench/eval-all.mjs [--out FILE] [--seeds 1,2]
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { evaluate, SHAPES } from "./eval-ranking.mjs";

const { values } = parseArgs({
  options: { out: { type: "string" }, seeds: { type: "string", default: "1,2" } },
});
const runs = [];
for (const seed of values.seeds.split(",").map(Number)) {
  for (const shape of SHAPES) {
    for (const words of ["distinctive", "any"]) {
      const result = await evaluate({ seed, shape, words });
      runs.push(result);
      const pct = (x) => `${(x * 100).toFixed(1)} %`;
      process.stderr.write(
        `${shape} ${words} seed ${seed}: ${pct(result.r1)} / ${pct(result.r5)} / ${result.mrr.toFixed(3)}\n`,
      );
    }
  }
}
const text = `${JSON.stringify({ runs })}\n`;
if (values.out) writeFileSync(values.out, text);
else process.stdout.write(text);
