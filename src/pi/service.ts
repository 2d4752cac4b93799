/**
 * The recall library as the extension uses it: one index, opened on first use (never when Pi
 * loads the extension), kept up to date by a background thread, shared by the picker, the
 * commands and the model's tool. It is the same index the `recall` CLI uses, in the same place,
 * and either may write to it while the other runs: the library's writer lock orders the writes.
 */
import { isAbsolute, relative, resolve } from "node:path";
import { listSessions } from "../api/list.js";
import { openRecall, storeInPlace, type IndexStore } from "../api/open.js";
import { readSession, type ReadOptions, type ReadResult } from "../api/read.js";
import type { SessionRef } from "../api/resolve-session.js";
import { searchSessions, type SearchHit } from "../api/search.js";
import type { SessionSummary } from "../api/session-summary.js";
import { resolveLocations, type LocationOverrides, type Locations } from "../locations.js";
import { syncIndex, type SyncProgress, type SyncReport } from "../sync/sync.js";
import { WorkerJobs, type JobRunner, type PlainOverrides } from "./jobs.js";

export interface ServiceOptions {
  /** Pi's working directory when recall is first used. */
  cwd: string;
  /** The folder Pi keeps this session in (`ctx.sessionManager.getSessionDir()`). */
  piSessionDir?: string;
  env?: NodeJS.ProcessEnv;
  /** Run jobs on this thread (tests; runtimes without worker threads). */
  inline?: boolean;
}

export interface SyncOutcome {
  report: SyncReport;
  /** Whether the index changed (the reader was reloaded). */
  changed: boolean;
}

function inside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * Where recall should look. Pi's own settings (PI_CODING_AGENT_DIR, PI_CODING_AGENT_SESSION_DIR,
 * `sessionDir`) are read by the library exactly as the CLI reads them; only `pi --session-dir`
 * is invisible to it, so a session folder outside the one recall would pick is passed on.
 */
export function locationOverrides(options: ServiceOptions): PlainOverrides {
  const env = { ...(options.env ?? process.env) };
  const overrides: PlainOverrides = { env, cwd: options.cwd };
  const defaults = resolveLocations({ env, cwd: options.cwd });
  if (options.piSessionDir) {
    const piDir = resolve(options.cwd, options.piSessionDir);
    if (!inside(piDir, defaults.sessionsDir)) overrides.sessionsDir = piDir;
  }
  return overrides;
}

function toHit(session: SessionSummary): SearchHit {
  return { ...session, score: 0, message: null, snippet: "", spans: [] };
}

function changedIndex(report: SyncReport): boolean {
  return report.rebuilt || report.indexed + report.appended + report.removed > 0;
}

export class RecallService {
  private opened: IndexStore | undefined;
  private running: Promise<SyncOutcome> | undefined;
  private readonly jobs: JobRunner;
  readonly overrides: PlainOverrides;
  /** Set once a sync has finished in this process. */
  lastSync: SyncOutcome | undefined;

  constructor(options: ServiceOptions) {
    this.overrides = locationOverrides(options);
    const inline: JobRunner = {
      sync: (_overrides, syncOptions, onProgress) => syncIndex(this.store(), { ...syncOptions, onProgress }),
      read: async (ref, readOptions) => readSession(ref, readOptions),
      dispose: () => {},
    };
    this.jobs = options.inline ? inline : new WorkerJobs(inline);
  }

  /** Where the sessions, the index and the user data are, without opening anything. */
  locations(): Locations {
    return this.opened?.locations ?? resolveLocations(this.overrides as LocationOverrides);
  }

  /** The index, opened on first call, and again if its folder was deleted since (see storeInPlace). */
  store(): IndexStore {
    this.opened = this.opened ? storeInPlace(this.opened) : openRecall(this.overrides as LocationOverrides);
    return this.opened;
  }

  /** One-line notices (a rebuilt cache, imported tags) not yet shown, each handed out once. */
  takeNotices(): string[] {
    return this.opened ? this.opened.notices.splice(0) : [];
  }

  /** Sees what other processes committed (the background thread, the CLI). Cheap. */
  reload(): void {
    this.store().native.reload();
  }

  /**
   * Brings the index up to date off the UI thread. Callers asking while a sync runs share it;
   * a rebuild always starts its own.
   */
  sync(options: { rebuild?: boolean; onProgress?: (p: SyncProgress) => void } = {}): Promise<SyncOutcome> {
    if (this.running && !options.rebuild) return this.running;
    const store = this.store();
    const previous = this.running ?? Promise.resolve(undefined);
    const run = previous
      .catch(() => undefined)
      .then(() => this.jobs.sync(this.overrides, options.rebuild ? { rebuild: true, lockTimeoutMs: 30_000 } : {}, options.onProgress))
      .then((report) => {
        const changed = changedIndex(report);
        // The sync may have run in another thread (its own reader): look at what it committed.
        store.native.reload();
        const outcome = { report, changed };
        this.lastSync = outcome;
        return outcome;
      })
      .finally(() => {
        if (this.running === run) this.running = undefined;
      });
    this.running = run;
    return run;
  }

  /** The picker's query: words (the last one also as a prefix when `prefix`), or the latest sessions. */
  async search(request: { query: string; cwd?: string; limit: number; prefix?: boolean; signal?: AbortSignal }): Promise<SearchHit[]> {
    const store = this.store();
    if (!request.query.trim()) {
      const sessions = await listSessions(store, { limit: request.limit, ...(request.cwd !== undefined ? { cwd: request.cwd } : {}) });
      return sessions.map(toHit);
    }
    return searchSessions(store, {
      query: request.query,
      limit: request.limit,
      prefix: request.prefix ?? false,
      ...(request.cwd !== undefined ? { cwd: request.cwd } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
    });
  }

  read(ref: SessionRef, options: ReadOptions): Promise<ReadResult> {
    return this.jobs.read(ref, options);
  }

  dispose(): void {
    this.jobs.dispose();
  }
}
