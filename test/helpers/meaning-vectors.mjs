// Prints the sha256 of the vectors the native core gives the texts of
// test/fixtures/meaning/texts.json, run by whichever runtime runs this file (Node 20, Node 22,
// Bun): the same core must give the same bytes on each. Usage: <runtime> meaning-vectors.mjs
// <addon.node> <model-package-dir>
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const [addonPath, packageDir] = process.argv.slice(2);
const { MeaningModel } = createRequire(import.meta.url)(addonPath);
const texts = JSON.parse(
  readFileSync(new URL("../fixtures/meaning/texts.json", import.meta.url), "utf8"),
);
const model = await MeaningModel.load(packageDir);
const vectors = await model.embed(texts);
process.stdout.write(
  createHash("sha256")
    .update(new Uint8Array(vectors.buffer, vectors.byteOffset, vectors.byteLength))
    .digest("hex") + "\n",
);
