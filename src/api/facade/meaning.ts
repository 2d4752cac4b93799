/**
 * The facade's meaning index (`recall.meaning`): building it (embedding what the conversation
 * holds that it lacks), following the index in a long-lived host, and saying how much of the
 * conversation it covers. Searching by meaning is the sessions part's (`search({ match })`); the
 * model and the index are the lease's, loaded once.
 */
import { RecallError } from "../../errors.js";
import {
  buildMeaning,
  MeaningFollower,
  meaningUnavailable,
  modelInstalled,
  type MeaningBuildOptions,
  type MeaningCoverage,
  type MeaningReport,
} from "../meaning.js";
import type { IndexLease } from "./lease.js";
import type { MeaningCatchUp } from "./meaning-catch-up.js";

export class MeaningIndexing {
  /** While following: stops the build under way, between two batches. */
  private following: AbortController | undefined;

  constructor(
    private readonly lease: IndexLease,
    private readonly catchUp: MeaningCatchUp,
  ) {}

  /**
   * Builds the meaning index from the conversation as the index holds it (bring the index up to
   * date first): the messages it lacks are embedded on one thread of the pool, newest first, and
   * appended as they are, so a stopped or killed build resumes where it was. A search by meaning
   * meanwhile uses what is there. MODEL_UNAVAILABLE without the model package; LOCKED while
   * another process builds it.
   */
  async build(options: MeaningBuildOptions = {}): Promise<MeaningReport> {
    const meaning = await this.lease.meaning();
    if (!meaning) throw meaningUnavailable();
    return buildMeaning(await this.lease.store(), meaning, options);
  }

  /**
   * For a long-lived host (Pi, the MCP server): with the model package installed, builds the
   * meaning index in the background now and after every sync that changes the index, on one
   * thread at the lowest priority, until `stopFollowing()` (`recall.close()` calls it). Another
   * process building it (LOCKED) is left to it; other failures go to `onError`. Returns false,
   * doing nothing, without the model package.
   */
  follow(onError: (error: unknown) => void = () => {}): boolean {
    if (!this.modelInstalled()) return false;
    if (this.following) return true;
    const stop = new AbortController();
    this.following = stop;
    this.catchUp.paused = true;
    const follower = new MeaningFollower(
      () => this.build({ signal: stop.signal }),
      (error) => {
        if (!(error instanceof RecallError && error.code === "LOCKED")) onError(error);
      },
    );
    const synced = () => follower.synced();
    this.lease.changeListeners.add(synced);
    stop.signal.addEventListener("abort", () => this.lease.changeListeners.delete(synced), {
      once: true,
    });
    follower.synced();
    return true;
  }

  /** Stops following (see `follow`); the build under way stops after its batch. */
  stopFollowing(): void {
    this.following?.abort();
    this.following = undefined;
    this.catchUp.paused = false;
  }

  /**
   * Waits for what searches started in the background: a search by meaning embeds the few
   * messages its index lacked (at most 32, as after a sync) so that the next search covers them.
   * A short-lived process awaits it before it exits; nothing is lost if it does not.
   */
  settled(): Promise<void> {
    return this.catchUp.settled();
  }

  /** Whether the meaning model's package is installed, without loading it. */
  modelInstalled(): boolean {
    return modelInstalled(this.lease.env);
  }

  /** How much of the conversation the meaning index covers; null without the model package. */
  async coverage(): Promise<MeaningCoverage | null> {
    const meaning = await this.lease.meaning();
    return meaning ? meaning.index.coverage((await this.lease.store()).native) : null;
  }
}
