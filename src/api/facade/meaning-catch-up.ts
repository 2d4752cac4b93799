/**
 * The facade's catch-up after a search by meaning whose index lacked a few messages: they are
 * embedded after it answers, so that the next search covers them (the sessions part starts it,
 * `recall.meaning.settled()` waits for it).
 */
import type { IndexStore } from "../../store.js";
import { catchUpMeaning, type Meaning, type MeaningCoverage } from "../meaning.js";

/**
 * The most messages a search embeds after it: what a sync of Pi's latest turns adds, a fraction
 * of a second on one core; more is `recall index --meaning`'s to embed.
 */
const CATCH_UP = 32;

export class MeaningCatchUp {
  /** While the host follows the meaning index (which embeds them anyway): no catch-up. */
  paused = false;
  /** The catch-ups searches started, one after another. */
  private caughtUp: Promise<void> = Promise.resolve();

  /**
   * After a search by meaning whose index lacked at most CATCH_UP messages (`coverage`): embeds
   * them. Not while another process builds the index (LOCKED: left to it); failures are left for
   * `recall index --meaning` or `recall doctor` to name.
   */
  searched(store: IndexStore, meaning: Meaning, coverage: MeaningCoverage): void {
    const missing = coverage.messages - coverage.embedded;
    if (this.paused || missing <= 0 || missing > CATCH_UP) return;
    this.caughtUp = this.caughtUp
      .then(() => catchUpMeaning(store, meaning, CATCH_UP))
      .catch(() => undefined);
  }

  /** Waits for the catch-ups searches started. */
  settled(): Promise<void> {
    return this.caughtUp;
  }
}
