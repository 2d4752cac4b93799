/**
 * The facade's session tools: the pi_session_* tools' semantics, one implementation for the MCP
 * server and the Pi extension (../session-tools/): a page of sessions, and the first index of a
 * long-lived host built in the background while queries answer from what is indexed.
 */
import type { SyncProgress } from "../../sync/sync.js";
import { SessionCounts } from "../session-tools/session-counts.js";
import {
  sessionPage,
  type SessionPage,
  type SessionPageRequest,
} from "../session-tools/session-page.js";
import type { IndexLease } from "./lease.js";
import type { Sessions } from "./sessions.js";

/**
 * How long after a long-lived host starts its first index a query waits for it (a small history is
 * done by then).
 */
const FIRST_INDEX_WAIT_MS = 5_000;

interface FirstIndex {
  progress: SyncProgress | undefined;
  run: Promise<void> | undefined;
  failure: unknown;
  /** When queries stop waiting for it and answer from what is indexed. */
  answerBy: number;
}

export class SessionTools {
  private readonly counts = new SessionCounts();
  /** Until the index has been brought up to date once after `startIndexing`: how far it got. */
  private firstIndex: FirstIndex | undefined;

  constructor(
    private readonly lease: IndexLease,
    private readonly sessions: Sessions,
  ) {}

  /**
   * Starts bringing the index up to date in the background (a long-lived host, at its start).
   * Until it has, a session-tools page waits for it only until FIRST_INDEX_WAIT_MS after it
   * started, then answers from what is indexed, with a note saying how far indexing got, instead
   * of waiting for every file (minutes for a large history).
   */
  startIndexing(): void {
    this.firstIndex ??= {
      progress: undefined,
      run: undefined,
      failure: undefined,
      answerBy: Date.now() + FIRST_INDEX_WAIT_MS,
    };
    const state = this.firstIndex;
    if (state.run) return;
    state.run = this.lease.sync({ onProgress: (progress) => (state.progress = progress) }).then(
      (report) => {
        state.run = undefined;
        if (!report.busy && !report.stopped && this.firstIndex === state)
          this.firstIndex = undefined;
      },
      (error: unknown) => {
        state.run = undefined;
        state.failure = error;
      },
    );
  }

  /**
   * A page of sessions for pi_session_search, find or list; `onProgress` hears of any sync that
   * runs meanwhile.
   */
  async page(
    request: SessionPageRequest,
    onProgress?: (progress: SyncProgress) => void,
  ): Promise<SessionPage> {
    if (onProgress) this.lease.progressListeners.add(onProgress);
    try {
      return await sessionPage(
        {
          search: (options) => this.sessions.search(options),
          count: async (cwd) => this.counts.of(await this.lease.store(), cwd),
          locations: this.lease.locations,
          indexing: () => this.indexingState(),
        },
        request,
      );
    } finally {
      if (onProgress) this.lease.progressListeners.delete(onProgress);
    }
  }

  /**
   * While the first index is under way, once its time to answer has come: how far it got, with
   * what it committed so far in view. It is restarted if it stopped (another process held the
   * index); if it failed, the failure is thrown (once; the next call starts it again).
   */
  private async indexingState(): Promise<FirstIndex | undefined> {
    const state = this.firstIndex;
    if (!state) return undefined;
    const wait = state.answerBy - Date.now();
    if (state.run && wait > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        state.run,
        new Promise((resolve) => (timer = setTimeout(resolve, wait))),
      ]);
      clearTimeout(timer);
    }
    if (this.firstIndex !== state) return undefined;
    if (state.failure !== undefined) {
      const failure = state.failure;
      state.failure = undefined;
      throw failure;
    }
    if (!state.run) this.startIndexing();
    await (await this.lease.store()).native.reload();
    return state;
  }
}
