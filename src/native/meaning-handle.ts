/**
 * The one owner of a loaded meaning model (MeaningModel in addon.d.ts, native/src/meaning/): the
 * library reaches the model through this class, whose methods are the model's with every native
 * error turned into a RecallError here, once (a missing or damaged model file: MODEL_UNAVAILABLE).
 */
import { native } from "../errors.js";
import type { MeaningModel } from "./addon.js";
import { nativeModule } from "./binding.js";

/** How a model multiplies in its dense layers (native/model/src/arithmetic.rs). */
export type Arithmetic = "float32" | "int8";

export class MeaningHandle {
  /** The native model, for the meaning index's embedding (meaning-index-handle.ts). */
  private constructor(readonly inner: MeaningModel) {}

  /**
   * Loads the model package in `dir` (its `model.onnx` and `tokenizer.json`), on the thread pool,
   * to multiply in `arithmetic` (default: `arithmetic()`). With `packed` (a file of the cache
   * folder), through the model pre-packed there: read in place when whole and made from these
   * files, else written there for the next load (native/model/src/packed.rs).
   */
  static async load(dir: string, arithmetic?: Arithmetic, packed?: string): Promise<MeaningHandle> {
    const { MeaningModel } = nativeModule();
    return new MeaningHandle(await native(() => MeaningModel.load(dir, arithmetic, packed)));
  }

  /**
   * The fastest arithmetic of this processor, a model's default: `int8` where it multiplies bytes
   * in one instruction (VNNI; three to four times as fast, a vector's cosine with the float
   * one 0.997 or more), else `float32`.
   */
  static arithmetic(): Arithmetic {
    return nativeModule().meaningArithmetic() as Arithmetic;
  }

  /** How this model multiplies. */
  get arithmetic(): Arithmetic {
    return this.inner.arithmetic as Arithmetic;
  }

  /** The floats of a vector. */
  get dimensions(): number {
    return this.inner.dimensions;
  }

  /** The tokens of a text the model reads; the rest of a longer text is not read. */
  get maxTokens(): number {
    return this.inner.maxTokens;
  }

  /** The vector of each text (length 1, so a dot product is the cosine), on the thread pool. */
  async embed(texts: string[]): Promise<Float32Array[]> {
    const flat = await native(() => this.inner.embed(texts));
    const size = this.inner.dimensions;
    return texts.map((_, i) => flat.subarray(i * size, (i + 1) * size));
  }
}
