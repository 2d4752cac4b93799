/**
 * The facade's meaning index: building it (embedding what the conversation holds that it lacks)
 * and saying how much of the conversation it covers. Searching by meaning is the sessions part's
 * (`search({ match })`); the model and the index are the lease's, loaded once.
 */
import { buildMeaning, meaningUnavailable, modelInstalled, type MeaningBuildOptions, type MeaningCoverage, type MeaningReport } from "../meaning.js";
import type { IndexLease } from "./lease.js";

export class MeaningIndexing {
  constructor(private readonly lease: IndexLease) {}

  /** Embeds the messages the meaning index lacks; MODEL_UNAVAILABLE without the model package. */
  async build(options: MeaningBuildOptions): Promise<MeaningReport> {
    const meaning = await this.lease.meaning();
    if (!meaning) throw meaningUnavailable();
    return buildMeaning(await this.lease.store(), meaning, options);
  }

  /** Whether the model package is installed (without loading it). */
  installed(): boolean {
    return modelInstalled(this.lease.env);
  }

  /** How much of the conversation the meaning index covers; null without the model package. */
  async coverage(): Promise<MeaningCoverage | null> {
    const meaning = await this.lease.meaning();
    return meaning ? meaning.index.coverage((await this.lease.store()).native) : null;
  }
}
