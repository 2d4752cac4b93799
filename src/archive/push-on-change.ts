/**
 * Pushing as sessions change (`recall watch --push`): each change asks for a push, and pushes
 * never overlap: changes that come while one runs are sent by one more push after it.
 */
import type { Archive } from "./archive.js";
import type { PushReport } from "./push.js";

export class PushOnChange {
  /** The push under way, if any. */
  private running: Promise<void> | undefined;
  /** Whether something changed since the push under way started. */
  private again = false;

  constructor(
    private readonly archive: Archive,
    private readonly remote: string,
    private readonly onPush: (report: PushReport) => void,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Something changed: push it, now or after the push under way. */
  changed(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pushUntilSettled().finally(() => {
      this.running = undefined;
    });
  }

  /** Resolves once no push is under way or wanted. */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  private async pushUntilSettled(): Promise<void> {
    do {
      this.again = false;
      try {
        this.onPush(await this.archive.push(this.remote));
      } catch (error) {
        // A remote down now may answer the next time something changes; the watch goes on.
        this.onError(error);
      }
    } while (this.again);
  }
}
