#!/usr/bin/env node
// A cold `recall search` process by the default match (both, with the model) beside `--match
// words` and `node -e 0`, in one run: each round runs the three one after the other (their order
// turning each round), as a shell would, so a busy machine weighs on all three alike. Prints p10,
// p50 and p95 of each over the rounds, and both's cost over words.
//
//   node bench/search-cold.mjs --agent <agent folder> --cache <recall cache folder> [--rounds 20]
//        [-- staging deploy]
//
// The index and the meaning index must be built (bench/meaning-search.mjs builds both for a
// corpus); the model is found as the eval finds it (RECALL_MODEL_DIR, else .cache/model-minilm).
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { machineInfo, now, RECALL_BIN, REPO_ROOT, summarize } from "./lib.mjs";

const argv = process.argv.slice(2);
const separator = argv.indexOf("--");
const { values } = parseArgs({
  args: separator < 0 ? argv : argv.slice(0, separator),
  options: {
    agent: { type: "string" },
    cache: { type: "string" },
    rounds: { type: "string", default: "20" },
    json: { type: "boolean", default: false },
  },
});
if (!values.agent || !values.cache)
  throw new Error("--agent <agent folder> and --cache <recall cache folder> are required");
const query = separator < 0 ? ["staging", "deploy"] : argv.slice(separator + 1);
const env = {
  ...process.env,
  PI_CODING_AGENT_DIR: values.agent,
  RECALL_CACHE_DIR: values.cache,
  RECALL_MODEL_DIR: process.env.RECALL_MODEL_DIR ?? join(REPO_ROOT, ".cache", "model-minilm"),
};
const search = ["search", "--no-sync", "--json", "-n", "10"];
const commands = {
  "node -e 0": [process.execPath, ["-e", "0"]],
  words: [process.execPath, [RECALL_BIN, ...search, "--match", "words", ...query]],
  both: [process.execPath, [RECALL_BIN, ...search, ...query]],
};
const names = Object.keys(commands);
const samples = Object.fromEntries(names.map((name) => [name, []]));
for (let round = 0; round < Number(values.rounds); round++) {
  for (let k = 0; k < names.length; k++) {
    const name = names[(round + k) % names.length];
    const [file, args] = commands[name];
    const started = now();
    const result = spawnSync(file, args, { env, stdio: ["ignore", "ignore", "pipe"] });
    samples[name].push(now() - started);
    if (result.status !== 0 && name !== "node -e 0")
      throw new Error(`${name} exited ${result.status}: ${result.stderr}`);
  }
}
const percentile = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const result = Object.fromEntries(
  names.map((name) => [
    name,
    { ...summarize(samples[name], 1), p10: Number(percentile(samples[name], 10).toFixed(1)) },
  ]),
);
if (values.json)
  process.stdout.write(
    `${JSON.stringify({ query: query.join(" "), rounds: Number(values.rounds), result, machine: machineInfo() })}\n`,
  );
else {
  console.log(
    `cold recall search ${query.join(" ")}, ${values.rounds} rounds (ms): p10 / p50 / p95`,
  );
  for (const name of names)
    console.log(
      `  ${name.padEnd(10)} ${result[name].p10} / ${result[name].median} / ${result[name].p95}`,
    );
  console.log(`  both − words, p50: ${(result.both.median - result.words.median).toFixed(1)} ms`);
}
