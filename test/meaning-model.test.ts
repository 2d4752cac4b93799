/**
 * The meaning model as recall runs it (native/src/meaning/, through MeaningHandle): vectors on the
 * thread pool, equal to the model's own toolchain's (onnxruntime and Hugging Face tokenizers,
 * test/fixtures/meaning/reference.json, made by scripts/meaning-reference.py) within 1e-4 in
 * float32 and within a cosine of 0.99 in int8 (the default where the processor has it), the same
 * bytes on every run and runtime (Node 20, Node 22, Bun), closer for a paraphrase than for another
 * topic, and one clear line for a missing or damaged model file. Skipped, visibly, without the
 * model package (scripts/model-package.sh).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, truncateSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RecallError } from "../src/errors.js";
import { MeaningHandle } from "../src/native/meaning-handle.js";
import { MODEL_PACKAGE, MODEL_SKIP_REASON } from "./helpers/model-package.js";
import { PI_RUNTIME, PI_SKIP_REASON, REPO } from "./helpers/pi-env.js";

const ADDON = join(REPO, "native", "recall.node");
const VECTORS_SCRIPT = join(REPO, "test", "helpers", "meaning-vectors.mjs");
const reference: { references: { text: string; vector: number[] }[] } = JSON.parse(
  readFileSync(join(REPO, "test/fixtures/meaning/reference.json"), "utf8"),
);
const BUN = spawnSync("bun", ["--version"]).status === 0 ? "bun" : undefined;

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);

/** The sha256 of the vectors `runtime` gets from the core for the reference texts. */
const vectorsIn = (runtime: string) =>
  execFileSync(runtime, [VECTORS_SCRIPT, ADDON, MODEL_PACKAGE!], { encoding: "utf8" }).trim();

describe.skipIf(!MODEL_PACKAGE)(`the meaning model${MODEL_SKIP_REASON}`, () => {
  let model: MeaningHandle;
  let here: string;
  beforeAll(async () => {
    model = await MeaningHandle.load(MODEL_PACKAGE!);
    here = vectorsIn(process.execPath);
  });

  it("loads and embeds on the thread pool, giving vectors of length 1", async () => {
    const { MeaningModel } = (await import("../src/native/binding.js")).nativeModule();
    const loading = MeaningModel.load(MODEL_PACKAGE!);
    expect(loading).toBeInstanceOf(Promise);
    const embedding = (await loading).embed(["one text", "another"]);
    expect(embedding).toBeInstanceOf(Promise);
    expect((await embedding).length).toBe(2 * 384);
    const [vector] = await model.embed(["a text of a few words"]);
    expect(vector!.length).toBe(model.dimensions);
    expect(dot(vector!, vector!)).toBeCloseTo(1, 5);
    expect(model.maxTokens).toBe(256);
  });

  it("gives the vectors of the model's own toolchain within 1e-4 in float32", async () => {
    const float32 = await MeaningHandle.load(MODEL_PACKAGE!, "float32");
    expect(float32.arithmetic).toBe("float32");
    const vectors = await float32.embed(reference.references.map((r) => r.text));
    reference.references.forEach(({ text, vector }, i) => {
      const worst = Math.max(...vector.map((x, d) => Math.abs(x - vectors[i]![d]!)));
      expect(worst, text).toBeLessThan(1e-4);
    });
  });

  it("loads in the fastest arithmetic of this processor by default", () => {
    expect(["float32", "int8"]).toContain(MeaningHandle.arithmetic());
    expect(model.arithmetic).toBe(MeaningHandle.arithmetic());
  });

  it.skipIf(MeaningHandle.arithmetic() !== "int8")(
    `points where the model's own toolchain does in int8 (cosine > 0.99)${MeaningHandle.arithmetic() === "int8" ? "" : " — skipped: this processor has no VNNI"}`,
    async () => {
      const vectors = await model.embed(reference.references.map((r) => r.text));
      reference.references.forEach(({ text, vector }, i) => {
        expect(dot(vectors[i]!, Float32Array.from(vector)), text).toBeGreaterThan(0.99);
      });
    },
  );

  it("gives the same bytes in another run of Node 20", () => {
    expect(here).toMatch(/^[0-9a-f]{64}$/);
    expect(vectorsIn(process.execPath)).toBe(here);
  });

  it.skipIf(!PI_RUNTIME)(`gives the same bytes in Node 22${PI_SKIP_REASON}`, () => {
    expect(vectorsIn(PI_RUNTIME!.node)).toBe(here);
  });

  it.skipIf(!BUN)(`gives the same bytes in Bun${BUN ? "" : " (skipped: no bun on PATH)"}`, () => {
    expect(vectorsIn(BUN!)).toBe(here);
  });

  it("puts a paraphrase closer to its sentence than a sentence on another topic", async () => {
    const triples = [
      [
        "the unit test failed now and then because it depended on the current time",
        "that spec kept breaking at random due to the clock",
        "we changed the colour of the login button to blue",
      ],
      [
        "the deploy to staging failed because the readiness probe timed out",
        "rolling out to the pre-production cluster broke: its health check was too slow",
        "the invoice total was rounded wrongly for amounts in yen",
      ],
      [
        "memory usage grows until the process is killed",
        "the service leaks RAM and ends up out of memory",
        "rename the config option for the log file path",
      ],
    ];
    for (const [sentence, paraphrase, other] of triples) {
      const [s, p, o] = await model.embed([sentence!, paraphrase!, other!]);
      expect(dot(s!, p!), paraphrase).toBeGreaterThan(dot(s!, o!) + 0.2);
    }
  });

  describe("a missing or damaged model file", () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), "recall-model-"));
      for (const file of ["model.onnx", "tokenizer.json"])
        copyFileSync(join(MODEL_PACKAGE!, file), join(dir, file));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    const loadError = async () => {
      const error = await MeaningHandle.load(dir).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(RecallError);
      expect((error as RecallError).code).toBe("MODEL_UNAVAILABLE");
      expect((error as RecallError).message).not.toContain("\n");
      return (error as RecallError).message;
    };

    it("is one line naming it, cut short or gone", async () => {
      truncateSync(join(dir, "model.onnx"), 1000);
      expect(await loadError()).toMatch(/^the meaning model's .*model\.onnx is damaged: \S/);
      rmSync(join(dir, "model.onnx"));
      expect(await loadError()).toBe(`the meaning model's ${join(dir, "model.onnx")} is missing`);
    });
  });
});
