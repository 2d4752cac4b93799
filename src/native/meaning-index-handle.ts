/**
 * The one owner of a meaning index handle (MeaningIndex in addon.d.ts,
 * native/src/search/by_meaning.rs and store.rs): the vectors of the conversation in the cache
 * folder, with every native error turned into a RecallError here, once.
 */
import { native, nativeSync } from "../errors.js";
import type { MeaningIndex, NativeMeaningCoverage, NativeMeaningStep } from "./addon.js";
import { nativeModule } from "./binding.js";
import type { IndexHandle } from "./index-handle.js";
import type { MeaningHandle } from "./meaning-handle.js";

export class MeaningIndexHandle {
  private constructor(readonly inner: MeaningIndex) {}

  /**
   * The store of vectors in `dir` made by the model named `identity` (another model's is not read).
   */
  static async open(dir: string, identity: string): Promise<MeaningIndexHandle> {
    const { MeaningIndex } = nativeModule();
    return new MeaningIndexHandle(await native(() => MeaningIndex.open(dir, identity)));
  }

  /**
   * Embeds up to `batch` messages the store lacks, newest first; LOCKED while another process
   * embeds.
   */
  embed(index: IndexHandle, model: MeaningHandle, batch: number): Promise<NativeMeaningStep> {
    return native(() => this.inner.embed(index.inner, model.inner, batch));
  }

  /**
   * Drops the vectors no message refers to any more, once they are a quarter of the store: the
   * count dropped.
   */
  compact(index: IndexHandle): Promise<number> {
    return native(() => this.inner.compact(index.inner));
  }

  /** How many of the index's conversation messages have their vector. */
  coverage(index: IndexHandle): Promise<NativeMeaningCoverage> {
    return native(() => this.inner.coverage(index.inner));
  }

  /** Lets another process embed. */
  release(): void {
    nativeSync(() => this.inner.release());
  }
}
