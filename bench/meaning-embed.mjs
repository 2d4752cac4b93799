/**
 * The meaning model's cost, one text at a time on one thread of the pool (as a query is
 * embedded): the load, each message of the paraphrase evaluation's hand-written sessions
 * (bench/meaning-eval/topics.mjs), each of their queries, and a text cut at the model's 256
 * tokens; then all the messages in batches, as a build sends them (texts a second, seven
 * passes). For each arithmetic the processor has (float32; int8 with AVX-VNNI), and how far int8
 * moves a vector (its cosine with the float32 one). Needs the model package
 * (scripts/model-package.sh) and a build (dist/).
 *
 *   node bench/meaning-embed.mjs [model-package-dir]      (default .cache/model-minilm)
 *
 * Prints one JSON object: ms samples and batch rates summarized ({n, median, p95, …}), peak RSS,
 * machine and load.
 */
import { join } from "node:path";
import { REPO_ROOT, load, machineInfo, now, summarize } from "./lib.mjs";
import { TOPICS } from "./meaning-eval/topics.mjs";

// One thread of the pool: what the background embedding gets.
process.env.UV_THREADPOOL_SIZE = "1";
const { MeaningHandle } = await import(
  new URL("../dist/native/meaning-handle.js", import.meta.url).href
);
const dir = process.argv[2] ?? join(REPO_ROOT, ".cache", "model-minilm");
/** Passes over the messages in batches: one alone moves by ±10 % with the machine's other work. */
const BATCH_ROUNDS = 7;

const loadBefore = load();
const messages = TOPICS.flatMap((topic) => topic.turns);
const queries = TOPICS.flatMap((topic) => Object.values(topic.queries));
const longText = messages.join(" ").repeat(4);
// Each arithmetic this processor has (float32 always; int8 with AVX-VNNI), the fastest last.
const arithmetics = MeaningHandle.arithmetic() === "int8" ? ["float32", "int8"] : ["float32"];
const result = {
  machine: machineInfo(),
  loadAverage: { before: loadBefore, after: null },
  arithmetic: {},
};
const vectors = {};
for (const arithmetic of arithmetics) {
  let t = now();
  const model = await MeaningHandle.load(dir, arithmetic);
  const loadMs = now() - t;
  /** ms of embedding each text alone, after one warm-up. */
  const timeEach = async (texts) => {
    await model.embed([texts[0]]);
    const samples = [];
    for (const text of texts) {
      t = now();
      await model.embed([text]);
      samples.push(now() - t);
    }
    return samples;
  };
  /**
   * Texts a second when the messages go through in batches, as a build sends them: each of
   * BATCH_ROUNDS passes over them, summarized (its best the least disturbed by other work).
   */
  const batched = async () => {
    const rates = [];
    for (let round = 0; round < BATCH_ROUNDS; round++) {
      t = now();
      vectors[arithmetic] = await model.embed(messages);
      rates.push(messages.length / ((now() - t) / 1000));
    }
    return summarize(rates, 1);
  };
  result.arithmetic[arithmetic] = {
    loadMs: Number(loadMs.toFixed(1)),
    message: {
      chars: summarize(
        messages.map((m) => m.length),
        0,
      ),
      ms: summarize(await timeEach(messages)),
    },
    query: { ms: summarize(await timeEach(queries)) },
    fullWindow: {
      tokens: model.maxTokens,
      ms: summarize(await timeEach(Array(20).fill(longText))),
    },
    batchedTextsPerSecond: await batched(),
  };
}
if (vectors.int8) {
  // How far int8 moves a message's vector: its cosine with the float32 one.
  const cosines = messages.map((_, i) =>
    vectors.int8[i].reduce((sum, x, d) => sum + x * vectors.float32[i][d], 0),
  );
  result.int8CosineWithFloat32 = summarize(
    cosines.map((c) => Number(c.toFixed(5))),
    5,
  );
  result.int8CosineWithFloat32.min = Math.min(...cosines);
}
result.peakRssMiB = Number((process.resourceUsage().maxRSS / 1024).toFixed(0));
result.loadAverage.after = load();
console.log(JSON.stringify(result, null, 2));
