/**
 * The facade's meaning index: building it (embedding what the conversation holds that it lacks),
 * following the index in a long-lived host, and saying how much of the conversation it covers.
 * Searching by meaning is the sessions part's (`search({ match })`); the model and the index are
 * the lease's, loaded once.
 */
import { RecallError } from "../../errors.js";
import type { IndexStore } from "../../store.js";
import { buildMeaning, catchUpMeaning, MeaningFollower, meaningUnavailable, modelInstalled, type Meaning, type MeaningBuildOptions, type MeaningCoverage, type MeaningReport } from "../meaning.js";
import type { IndexLease } from "./lease.js";

/**
 * The most messages a search embeds after it (catchUp): what a sync of Pi's latest turns adds,
 * a fraction of a second on one core; more is `recall index --meaning`'s to embed.
 */
const CATCH_UP = 32;

export class MeaningIndexing {
  /** While following: stops the build under way, between two batches. */
  private following: AbortController | undefined;
  /** The catch-ups searches started, one after another. */
  private caughtUp: Promise<void> = Promise.resolve();

  constructor(private readonly lease: IndexLease) {}

  /**
   * In a long-lived host with the model package: builds the meaning index now, in the background,
   * and again after every sync that changes the index, until `stop`. Another process building it
   * (LOCKED) is left to it; other failures go to `onError`. False, doing nothing, without the
   * model package.
   */
  follow(onError: (error: unknown) => void): boolean {
    if (!this.installed()) return false;
    if (this.following) return true;
    const stop = new AbortController();
    this.following = stop;
    const follower = new MeaningFollower(
      () => this.build({ signal: stop.signal }),
      (error) => {
        if (!(error instanceof RecallError && error.code === "LOCKED")) onError(error);
      },
    );
    const synced = () => follower.synced();
    this.lease.changeListeners.add(synced);
    stop.signal.addEventListener("abort", () => this.lease.changeListeners.delete(synced), { once: true });
    follower.synced();
    return true;
  }

  /** Stops following (see `follow`); the build under way stops after its batch. */
  stop(): void {
    this.following?.abort();
    this.following = undefined;
  }

  /** Embeds the messages the meaning index lacks; MODEL_UNAVAILABLE without the model package. */
  async build(options: MeaningBuildOptions): Promise<MeaningReport> {
    const meaning = await this.lease.meaning();
    if (!meaning) throw meaningUnavailable();
    return buildMeaning(await this.lease.store(), meaning, options);
  }

  /**
   * After a search by meaning whose index lacked a few messages (`coverage`; at most CATCH_UP,
   * as after a sync of Pi's latest turns): embeds them, so the next search covers them. Not in a
   * process that follows the index anyway, nor while another process builds it (LOCKED: left to
   * it); failures are left for `recall index --meaning` or `recall doctor` to name.
   */
  catchUp(store: IndexStore, meaning: Meaning, coverage: MeaningCoverage): void {
    const missing = coverage.messages - coverage.embedded;
    if (this.following || missing <= 0 || missing > CATCH_UP) return;
    this.caughtUp = this.caughtUp.then(() => catchUpMeaning(store, meaning, CATCH_UP)).catch(() => undefined);
  }

  /** Waits for the catch-ups searches started (a short-lived process, before it exits). */
  settled(): Promise<void> {
    return this.caughtUp;
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
