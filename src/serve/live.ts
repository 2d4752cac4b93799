/**
 * Pages that follow the index: `serve` keeps the index up to date as Pi writes (the facade's
 * `watch`, as `recall watch` does) and tells every open page after each sync that changed it, as
 * server-sent events on /api/events. When another process already watches (`recall watch`), that
 * one keeps the index current and queries check freshness themselves; pages then update on their
 * next search.
 */
import type { ServerResponse } from "node:http";
import type { Recall } from "../index.js";
import type { LiveEvent } from "./wire.js";

/** A comment line now and then keeps proxies and idle timers from closing a quiet feed. */
const KEEP_ALIVE_MS = 25_000;

export class LiveFeed {
  private readonly pages = new Set<ServerResponse>();
  private watching = false;
  private markCaughtUp: () => void = () => {};
  /** Settles when the first catch-up sync is done (never, if following failed). */
  readonly caughtUp = new Promise<void>((resolve) => (this.markCaughtUp = resolve));
  private keepAlive: NodeJS.Timeout | undefined;

  constructor(
    private readonly recall: Recall,
    private readonly say: (line: string) => void,
  ) {}

  /** Whether this server keeps the index current (queries may then skip the freshness check). */
  get following(): boolean {
    return this.watching;
  }

  /**
   * Follows the index until `signal` aborts. The first catch-up sync runs while the server
   * already answers: until it is done, queries check for changed files themselves.
   */
  start(signal: AbortSignal): void {
    let first = true;
    this.recall
      .watch({
        signal,
        onSync: (report) => {
          if (first) {
            first = false;
            this.watching = true;
            this.markCaughtUp();
            this.send("following", { at: Date.now() });
          } else if (report.changed) this.send("changed", { at: Date.now() });
        },
        onError: (error) =>
          this.say(
            `a sync failed (${error instanceof Error ? error.message : String(error)}); trying again at the next change`,
          ),
      })
      .catch((error: unknown) => {
        if (!signal.aborted)
          this.say(
            `not following the index (${error instanceof Error ? error.message : String(error)}); searches check for new sessions themselves`,
          );
      })
      .finally(() => (this.watching = false));
  }

  attach(page: ServerResponse): void {
    page.writeHead(200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      Connection: "keep-alive",
    });
    page.write(`retry: 2000\n: ${this.watching ? "following" : "not following"}\n\n`);
    this.pages.add(page);
    page.on("close", () => this.pages.delete(page));
    this.keepAlive ??= setInterval(() => {
      for (const open of this.pages) open.write(": still here\n\n");
    }, KEEP_ALIVE_MS).unref();
  }

  /**
   * `following` once the first sync is done (the feed's first comment says whether it was), then
   * `changed` after each sync that changed the index.
   */
  private send(name: "following" | "changed", event: LiveEvent): void {
    const line = `event: ${name}\ndata: ${JSON.stringify(event)}\n\n`;
    for (const page of this.pages) page.write(line);
  }

  close(): void {
    clearInterval(this.keepAlive);
    for (const page of this.pages) page.end();
    this.pages.clear();
  }
}
