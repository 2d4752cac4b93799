/**
 * Search as you type: each request replaces the one before it. A request may wait (the debounce,
 * so a burst of keys costs one search), and a response is delivered only if no newer request was
 * made meanwhile, so a slow search for "sta" can never overwrite the results for "staging".
 */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** How long typing pauses before the picker searches. */
export const SEARCH_DEBOUNCE_MS = 40;

export class LatestOnly<Request, Response> {
  private seq = 0;
  private timer: unknown;
  private disposed = false;

  constructor(
    private readonly run: (request: Request) => Promise<Response>,
    private readonly deliver: (response: Response, request: Request) => void,
    private readonly fail: (error: unknown, request: Request) => void,
    private readonly timers: Timers = realTimers,
  ) {}

  /** Runs `request` after `delayMs` (0: now), superseding every earlier request. */
  request(request: Request, delayMs = 0): void {
    if (this.disposed) return;
    const seq = ++this.seq;
    this.cancelTimer();
    if (delayMs <= 0) {
      this.start(seq, request);
      return;
    }
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      this.start(seq, request);
    }, delayMs);
  }

  /** Whether a request is waiting for its delay to pass. */
  get pending(): boolean {
    return this.timer !== undefined;
  }

  dispose(): void {
    this.disposed = true;
    this.cancelTimer();
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private start(seq: number, request: Request): void {
    let promise: Promise<Response>;
    try {
      promise = this.run(request);
    } catch (error) {
      promise = Promise.reject(error);
    }
    promise.then(
      (response) => {
        if (!this.disposed && seq === this.seq) this.deliver(response, request);
      },
      (error: unknown) => {
        if (!this.disposed && seq === this.seq) this.fail(error, request);
      },
    );
  }
}
