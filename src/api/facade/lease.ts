/**
 * The one owner of a `Recall`'s mutable state, shared by the facade's parts (sessions.ts,
 * tags.ts, models.ts, maintenance.ts), which hold none of their own:
 * - the index handle, opened on first use (never by `Recall.open`), and opened again when the
 *   cache folder was deleted or replaced under a long-lived process (storeInPlace); replaced after
 *   a repair;
 * - the freshness policy: a query brings the index up to date before it answers unless asked not
 *   to (`sync: false`); what a sync had to say waits as notices (`takeNotices`), never printed; a
 *   long-lived host (`live: true`) watches the session folders and syncs only after a change
 *   (sync/live-freshness.ts);
 * - the sync under way, which callers asking meanwhile share;
 * - the offload of long work: with `background: true` (hosts with a UI thread), syncs and session
 *   reads run on a worker thread; otherwise on this one, overlapped with the read that needs them.
 */
import { loadConfig, type LoadedConfig } from "../../config.js";
import { asRecallError } from "../../errors.js";
import { resolveLocations, type LocationOverrides, type Locations } from "../../locations.js";
import { openStore, storeInPlace, type IndexStore } from "../../store.js";
import { cannotWrite, refusal } from "../../sync/index-writer.js";
import { mayComeFromDamage, repairIfDamaged } from "../../sync/repair.js";
import {
  readWhileSyncing,
  RETRY_LOCK_MS,
  untilFirstCommit,
  syncIndex,
  type SyncProgress,
  type SyncReport,
} from "../../sync/sync.js";
import { LiveFreshness } from "../../sync/live-freshness.js";
import { watcherKeepsFresh } from "../../sync/watch-lock.js";
import { takeTagNotices } from "../../tags/open-tags.js";
import type { EarlyLook } from "../../sessions/discover.js";
import type { IndexCheck } from "../../native/index-handle.js";
import type { JobRunner, PlainOverrides } from "../background-jobs.js";
import type { Meaning } from "../meaning.js";
import type { MeaningIndexHandle } from "../../native/meaning-index-handle.js";
import { syncNotices, type Notice } from "../notices.js";
import { sessionContext, type ContextOptions, type ContextResult } from "../context.js";
import { workStats, type Stats, type StatsOptions } from "../stats.js";
import { readSession, type ReadOptions, type ReadResult } from "../read.js";
import type { SessionRef } from "../resolve-session.js";

export interface RecallOptions extends LocationOverrides {
  /** Run syncs and session reads on a worker thread, so a host's main thread never parses JSONL. */
  background?: boolean;
  /**
   * Which index files' checksums opening reads: those changed since the last commit (the
   * default), every one written since they all last passed (`"written"`: `recall index`), or
   * every one (`"every"`: the whole index); a damaged index is rebuilt.
   */
  check?: IndexCheck;
  /**
   * A long-lived host (the MCP server, Pi): while this recall is open the session folders are
   * watched, and a query checks the session files only when a change was seen since the last sync
   * (or the watches cannot be trusted; see sync/live-freshness.ts). `close()` stops watching.
   */
  live?: boolean;
  /**
   * The archive's errors name a remote's URL or host too, not only its name: for a person at their
   * own terminal (the CLI). Left out, what a host answers a model or another program (the Pi
   * extension, the MCP server, `recall serve`) never holds a remote's host.
   */
  showRemoteHosts?: boolean;
}

/** How a query treats the index before it answers. */
export interface Freshness {
  /** Bring the index up to date first (default true); false answers from the index as it is. */
  sync?: boolean;
  /** A look at the session files already under way (`startEarlyLook`), for the sync to take. */
  early?: EarlyLook;
}

export interface SyncRequest {
  /** Start from an empty index (tags are kept). */
  rebuild?: boolean;
  /** How long to wait for another process's write (default 5 s; 30 s for a rebuild). */
  lockTimeoutMs?: number;
  onProgress?: (progress: SyncProgress) => void;
  /**
   * Stops the sync between two files: what was read is committed, the rest is left for the next
   * one (`stopped` in the report). A sync on the background thread runs to its end.
   */
  signal?: AbortSignal;
}

export class IndexLease {
  private opened: IndexStore | undefined;
  private opening: Promise<IndexStore> | undefined;
  private jobs: Promise<JobRunner> | undefined;
  private running: Promise<SyncReport> | undefined;
  private watched: LiveFreshness | undefined;
  private meaningLoaded: Promise<Meaning | null> | undefined;
  /** Whether the notice that the model could not be loaded was given (meaningIfUsable). */
  private modelUnusableSaid = false;
  private meaningIndexOpened: Promise<MeaningIndexHandle | null> | undefined;
  private readonly notices: Notice[] = [];
  private located: Locations | undefined;
  /** The location overrides as plain data (they cross to the background thread). */
  readonly overrides: PlainOverrides;
  readonly env: NodeJS.ProcessEnv;

  constructor(private readonly options: RecallOptions) {
    this.env = options.env ?? process.env;
    this.overrides = {
      sessionsDir: options.sessionsDir,
      env: { ...this.env },
      cwd: options.cwd ?? process.cwd(),
    };
  }

  /** Where the sessions, index and user data are; worked out once (it reads Pi's settings). */
  get locations(): Locations {
    this.located ??= resolveLocations(this.overrides);
    return this.located;
  }

  /**
   * recall's settings (config.json and the earlier tools' files), read now, with what could not be
   * used.
   */
  config(): LoadedConfig {
    return loadConfig(this.locations, this.env, this.overrides.cwd);
  }

  /**
   * The index, opened on first call, and again if its folder was deleted since (see storeInPlace);
   * callers at once share one opening.
   */
  store(): Promise<IndexStore> {
    this.opening ??= (async () => {
      try {
        this.opened = this.opened
          ? await storeInPlace(this.opened)
          : await openStore(this.locations, { check: this.options.check ?? "changed" });
        return this.opened;
      } finally {
        this.opening = undefined;
      }
    })();
    return this.opening;
  }

  /**
   * The meaning model and the meaning index (api/meaning.ts), loaded on first use, once; null
   * when the model package is not installed. Loaded lazily: a word search never pays for it.
   */
  meaning(): Promise<Meaning | null> {
    this.meaningLoaded ??= import("../meaning.js").then(({ openMeaning }) =>
      openMeaning(this.meaningIndex(), this.env, this.locations.cacheDir),
    );
    return this.meaningLoaded;
  }

  /**
   * The meaning model for a search that did not ask for it: null when it is not installed, and
   * when it is but cannot be loaded (a damaged file), with a notice saying so, once.
   */
  meaningIfUsable(): Promise<Meaning | null> {
    return this.meaning().catch((error: unknown) => {
      if (!this.modelUnusableSaid)
        this.notices.push({
          code: "MODEL_UNUSABLE",
          message: `${error instanceof Error ? error.message : String(error)}; searching by words`,
          hint: "reinstall the model package, or search with match words",
        });
      this.modelUnusableSaid = true;
      return null;
    });
  }

  /**
   * The meaning index alone (no model loaded), opened once; null when the model package is not
   * installed.
   */
  meaningIndex(): Promise<MeaningIndexHandle | null> {
    this.meaningIndexOpened ??= import("../meaning.js").then(({ openMeaningIndex }) =>
      openMeaningIndex(this.locations, this.env),
    );
    return this.meaningIndexOpened;
  }

  /** The notices waiting, each handed out once: the store's, the syncs', the tag store's. */
  takeNotices(): Notice[] {
    const fromStore = this.opened
      ? this.opened.notices
          .splice(0)
          .map((message): Notice => ({ code: "INDEX_REPLACED", message }))
      : [];
    const fromTags = this.opened
      ? takeTagNotices(this.opened).map((message): Notice => ({ code: "TAGS_IMPORTED", message }))
      : [];
    return [...fromStore, ...this.notices.splice(0), ...fromTags];
  }

  /**
   * `operation`, and once more after a repair if it failed in a way damaged index files could
   * explain (see sync/repair.ts): every file's checksum is checked then, and a damaged index is
   * replaced and rebuilt from the session files, tags kept, with a notice.
   */
  async repairing<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (!mayComeFromDamage(error)) throw error;
      const repair = await repairIfDamaged(this.locations);
      if (!repair) throw error;
      this.opened = undefined;
      this.notices.push(
        ...repair.notices.map((message): Notice => ({ code: "INDEX_REPLACED", message })),
        ...syncNotices(repair.report),
      );
      return operation();
    }
  }

  /** The query, after bringing the index up to date unless `sync: false`. */
  fresh<T>(freshness: Freshness, read: (store: IndexStore) => Promise<T>): Promise<T> {
    return this.repairing(() => this.freshOnce(freshness, read));
  }

  private async freshOnce<T>(
    freshness: Freshness,
    read: (store: IndexStore) => Promise<T>,
  ): Promise<T> {
    const store = await this.store();
    // An index just rebuilt empty is filled even so: it would answer nothing.
    if (freshness.sync === false && !store.replaced) return read(store);
    if (this.options.background || this.options.live) {
      await this.freshen(store, { trustWatcher: true });
      return read(await this.store());
    }
    const { value, report } = await readWhileSyncing(store, () => read(store), freshness.early);
    if (report) this.notices.push(...syncNotices(report));
    return value;
  }

  /**
   * Brings the index up to date unless nothing can have changed: this recall's own watches (live)
   * saw nothing since its last sync, or else (`trustWatcher`) `recall watch` says the index is
   * fresh, as readWhileSyncing finds on this thread. Either way, what other processes committed
   * is seen.
   */
  async freshen(store: IndexStore, { trustWatcher }: { trustWatcher: boolean }): Promise<void> {
    const watched = this.liveFreshness();
    const live = watched ? await watched.state(store) : "unknown";
    if (
      live === "fresh" ||
      (live === "unknown" && trustWatcher && watcherKeepsFresh(store.locations))
    ) {
      await store.native.reload();
      return;
    }
    // A sync under way began before this query was asked, perhaps before the change it must see.
    const underWay = this.running !== undefined;
    await this.refresh();
    if (underWay) await this.refresh();
  }

  /**
   * Brings the index up to date. Callers asking while a sync runs share it; a rebuild always
   * starts its own.
   */
  sync(request: SyncRequest = {}): Promise<SyncReport> {
    if (this.running && !request.rebuild) return this.running;
    const previous = this.running ?? Promise.resolve(undefined);
    const options = {
      rebuild: request.rebuild,
      lockTimeoutMs: request.lockTimeoutMs ?? (request.rebuild ? 30_000 : undefined),
    };
    const run = previous
      .catch(() => undefined)
      .then(() =>
        this.repairing(() =>
          this.runSync(
            options,
            (progress) => this.reportProgress(progress, request.onProgress),
            request.signal,
          ),
        ),
      )
      .then((report) => {
        if (report.changed) for (const listener of this.changeListeners) listener();
        return report;
      })
      .finally(() => {
        if (this.running === run) this.running = undefined;
      });
    this.running = run;
    return run;
  }

  /**
   * Who hears that a sync changed the index (the meaning index follows it in a long-lived host).
   */
  readonly changeListeners = new Set<() => void>();

  /** Who hears of every sync's progress, besides the caller that asked for the sync. */
  readonly progressListeners = new Set<(progress: SyncProgress) => void>();

  private reportProgress(
    progress: SyncProgress,
    caller: ((progress: SyncProgress) => void) | undefined,
  ): void {
    caller?.(progress);
    for (const listener of this.progressListeners) listener(progress);
  }

  /** Brings the index up to date as a query does: what the sync had to say waits as notices. */
  async refresh(): Promise<void> {
    try {
      const report = await untilFirstCommit(await this.store(), await this.sync(), () =>
        this.sync({ lockTimeoutMs: RETRY_LOCK_MS }),
      );
      this.notices.push(...syncNotices(report));
    } catch (error) {
      // A read-only or full cache: the query answers from the index as it is, and says so.
      if (!cannotWrite(error)) throw error;
      this.notices.push({
        code: "INDEX_STALE",
        message: `the index in ${this.locations.cacheDir} could not be updated (${refusal(await this.store(), error)}); answering from it as it is`,
      });
    }
  }

  /**
   * A session's messages, read on the background thread with `background`; a file error as a
   * RecallError either way.
   */
  async read(session: SessionRef, options: ReadOptions): Promise<ReadResult> {
    try {
      if (!this.options.background) return readSession(session, options);
      return await (await this.runner()).read(session, options);
    } catch (error) {
      throw asRecallError(error);
    }
  }

  /**
   * The part of a session that bears on a question (context.ts), found on the background thread
   * with `background`.
   */
  async context(
    session: SessionRef,
    question: string,
    options: ContextOptions,
  ): Promise<ContextResult> {
    try {
      if (!this.options.background) return sessionContext(session, question, options);
      return await (await this.runner()).context(session, question, options);
    } catch (error) {
      throw asRecallError(error);
    }
  }

  /**
   * The work counted (stats.ts), on the background thread with `background`: its cache of each
   * file's facts is kept there.
   */
  async stats(options: StatsOptions): Promise<Stats> {
    if (!this.options.background) return workStats(await this.store(), options);
    return (await this.runner()).stats(this.overrides, options);
  }

  /** Stops watching and stops the background thread once its jobs are done. */
  close(): void {
    this.watched?.close();
    this.watched = undefined;
    // A thread that never started has nothing to stop.
    this.jobs?.then(
      (jobs) => jobs.dispose(),
      () => undefined,
    );
    this.jobs = undefined;
  }

  /** With `live`: the watches of the session folders, set up by the first sync. */
  private liveFreshness(): LiveFreshness | undefined {
    if (this.options.live) this.watched ??= new LiveFreshness(this.locations);
    return this.watched;
  }

  private async runSync(
    options: { rebuild?: boolean; lockTimeoutMs?: number },
    onProgress?: (p: SyncProgress) => void,
    signal?: AbortSignal,
  ): Promise<SyncReport> {
    const store = await this.store();
    const mark = this.liveFreshness()?.syncing(store);
    let report: SyncReport;
    if (!this.options.background)
      report = await syncIndex(store, { ...options, onProgress, signal });
    else {
      report = await (await this.runner()).sync(this.overrides, options, onProgress);
      // The sync ran on another thread, with its own reader: look at what it committed.
      await store.native.reload();
    }
    if (mark && !report.busy && !report.stopped) this.watched!.synced(mark);
    return report;
  }

  /**
   * The background thread, started on first use; loaded lazily, so a CLI start never pays for it.
   */
  private runner(): Promise<JobRunner> {
    this.jobs ??= import("../background-jobs.js").then(({ WorkerJobs }) => {
      const inline: JobRunner = {
        sync: async (_overrides, options, onProgress) =>
          syncIndex(await this.store(), { ...options, onProgress }),
        read: async (session, options) => readSession(session, options),
        context: async (session, question, options) => sessionContext(session, question, options),
        stats: async (_overrides, options) => workStats(await this.store(), options),
        dispose: () => {},
      };
      return new WorkerJobs(inline);
    });
    return this.jobs;
  }
}
