/**
 * The recall library as one object: `Recall.open()` for a sessions folder, then search, list,
 * read, ask for context, tag, sync and watch. The CLI, the Pi extension and the MCP server all
 * stand on this class (through src/index.ts) and on nothing else of the library.
 *
 * It owns, once for everyone:
 * - the index handle and the tag store, opened on first use (never by `open`), and opened again
 *   when the cache folder was deleted or replaced under a long-lived process (storeInPlace);
 * - the freshness policy: a query brings the index up to date before it answers unless asked not
 *   to (`sync: false`), and a session named by id is looked for after a sync; what a sync had to
 *   say comes back as notices (`takeNotices`), never printed; a long-lived host (`live: true`)
 *   watches the session folders and syncs only after a change (sync/live-freshness.ts);
 * - the offload of long work: with `background: true` (hosts with a UI thread), syncs and session
 *   reads run on a worker thread; otherwise on this one, overlapped with the read that needs them.
 */
import { resolveLocations, sessionsFolderProblem, type LocationOverrides, type Locations, type SessionsFolderProblem } from "../locations.js";
import { openStore, storeInPlace, type IndexStore } from "../store.js";
import { cannotWrite, refusal } from "../sync/index-writer.js";
import { mayComeFromDamage, repairIfDamaged } from "../sync/repair.js";
import { readWhileSyncing, RETRY_LOCK_MS, untilFirstCommit, syncIndex, type SyncProgress, type SyncReport } from "../sync/sync.js";
import { LiveFreshness } from "../sync/live-freshness.js";
import type { WatchOptions } from "../sync/watch.js";
import { watcherKeepsFresh } from "../sync/watch-lock.js";
import { normalizeTag, parseTags } from "../tags/normalize.js";
import { damagedTagStore, takeTagNotices } from "../tags/open-tags.js";
import type { EarlyLook } from "../sessions/discover.js";
// What `recall search` never does (watch, doctor, the model features) is imported when first used:
// a cold search then evaluates none of it (see BENCHMARKS.md).
import type { DoctorCheck } from "./doctor.js";
import type { AskOptions, AskResult } from "./ask.js";
import type { AutoTagOptions, AutoTagResult } from "./autotag.js";
import type { JobRunner, PlainOverrides } from "./background-jobs.js";
import { loadConfig, saveModel, strictConfig, type LoadedConfig } from "./config.js";
import { sessionContext, type ContextOptions, type ContextResult } from "./context.js";
import { countSessions, listSessions, type ListOptions } from "./list.js";
import { syncNotices, type Notice } from "./notices.js";
import type { ModelCaller } from "./pi-model.js";
import { readSession, type ReadOptions, type ReadResult } from "./read.js";
import { looksLikePath, resolveSession, sessionSummary, type SessionRef } from "./resolve-session.js";
import { resumePlan, type ResumePlan } from "./resume.js";
import { searchPage, type SearchOptions, type SearchPage } from "./search.js";
import { checkSessionFile, guardedRead, type FileIdentity } from "./session-file-guard.js";
import type { SessionSummary } from "./session-summary.js";
import { addTags, removeTags, sessionTags, tagCounts, type SessionTags, type TagEdit } from "./tags.js";
import type { TagCount } from "../tags/tag-store.js";

export interface RecallOptions extends LocationOverrides {
  /** Run syncs and session reads on a worker thread, so a host's main thread never parses JSONL. */
  background?: boolean;
  /**
   * Check the checksum of every index file when opening, not only of those changed since the last
   * commit (it reads the whole index); a damaged index is rebuilt.
   */
  verify?: boolean;
  /**
   * A long-lived host (the MCP server, Pi): while this recall is open the session folders are
   * watched, and a query checks the session files only when a change was seen since the last sync
   * (or the watches cannot be trusted; see sync/live-freshness.ts). `close()` stops watching.
   */
  live?: boolean;
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

/** Which model answers: `model` (`provider/id`; default the configured one, else Pi's default), asked through `caller`. */
export interface ModelChoice {
  model?: string;
  /**
   * How to ask the model chosen (undefined: Pi's default): inside Pi, Pi's own API. Without it,
   * the user's `pi` is run (see pi-model.ts).
   */
  caller?: (model: string | undefined) => ModelCaller;
}

/** A list limit that lets every session through. */
const UNBOUNDED = 1_000_000;

/** A session as commands name it, resolved; or why it could not be. */
export type Resolved = { ref: string; session: SessionRef } | { ref: string; error: unknown };

export class Recall {
  private opened: IndexStore | undefined;
  private opening: Promise<IndexStore> | undefined;
  private jobs: Promise<JobRunner> | undefined;
  private running: Promise<SyncReport> | undefined;
  private watched: LiveFreshness | undefined;
  private readonly notices: Notice[] = [];
  private readonly overrides: PlainOverrides;
  private readonly env: NodeJS.ProcessEnv;
  private located: Locations | undefined;

  private constructor(private readonly options: RecallOptions) {
    this.env = options.env ?? process.env;
    this.overrides = { sessionsDir: options.sessionsDir, env: { ...this.env }, cwd: options.cwd ?? process.cwd() };
  }

  /** recall for the sessions folder these overrides name (Pi's default without any). Opens nothing yet. */
  static open(options: RecallOptions = {}): Recall {
    return new Recall(options);
  }

  /** A tag as recall keeps it: lowercase letters, digits, `_` and `-` (`#Rust/Search!` → `rust-search`). */
  static normalizeTag(raw: string): string {
    return normalizeTag(raw);
  }

  /** Tags as a user gives them (`#` optional), normalized; one that normalizes to nothing is an error. */
  static parseTags(raws: readonly string[]): string[] {
    return parseTags(raws);
  }

  /** Where the sessions, the index and the user data of these overrides are, without opening anything. */
  static locate(overrides: LocationOverrides = {}): Locations {
    return resolveLocations(overrides);
  }

  /** Where this recall's sessions, index and user data are; worked out once (it reads Pi's settings). */
  get locations(): Locations {
    this.located ??= resolveLocations(this.overrides);
    return this.located;
  }

  /**
   * What is wrong with the sessions folder, if anything, without opening the index: a folder a
   * setting names that does not exist is fatal; Pi's default one not there yet is not.
   */
  sessionsFolderProblem(): SessionsFolderProblem | undefined {
    return sessionsFolderProblem(this.locations);
  }

  /** Opens the index (the first call does it anyway); its notices (a rebuilt cache) are then waiting. */
  async open(): Promise<this> {
    await this.store();
    return this;
  }

  /**
   * One-line notices for the user, each handed out once: a cache that had to be rebuilt, tags
   * imported from pi-recall, what a query's sync skipped or could not do.
   */
  takeNotices(): Notice[] {
    const fromStore = this.opened ? this.opened.notices.splice(0).map((message): Notice => ({ code: "INDEX_REPLACED", message })) : [];
    const fromTags = this.opened ? takeTagNotices(this.opened).map((message): Notice => ({ code: "TAGS_IMPORTED", message })) : [];
    return [...fromStore, ...this.notices.splice(0), ...fromTags];
  }

  /**
   * Sessions ranked for a query, a page at a time. An empty query (no words, no tags) lists the
   * latest sessions instead.
   *
   * `present`, if given, turns the page into what the caller shows, as soon as it is read: while
   * a freshness check is still under way (a large history), the presenting overlaps it.
   */
  search(options: SearchOptions & Freshness): Promise<SearchPage>;
  search<T>(options: SearchOptions & Freshness, present: (page: SearchPage) => T): Promise<T>;
  async search<T>(options: SearchOptions & Freshness, present?: (page: SearchPage) => T): Promise<T | SearchPage> {
    return this.fresh(options, async (store) => {
      const page = await searchPage(store, options);
      return present ? present(page) : page;
    });
  }

  /** Sessions, most recently active first; `present` as for `search`. */
  list(options?: ListOptions & Freshness): Promise<SessionSummary[]>;
  list<T>(options: ListOptions & Freshness, present: (sessions: SessionSummary[]) => T): Promise<T>;
  async list<T>(options: ListOptions & Freshness = {}, present?: (sessions: SessionSummary[]) => T): Promise<T | SessionSummary[]> {
    return this.fresh(options, async (store) => {
      const sessions = await listSessions(store, options);
      return present ? present(sessions) : sessions;
    });
  }

  /** How many sessions the index holds (of one folder, with `cwd`), as it is: what a search looked through. */
  async count(options: Pick<ListOptions, "cwd"> = {}): Promise<number> {
    return countSessions(await this.store(), options);
  }

  /**
   * The identity of a session's file (device and inode, hashed) if it is a file a guarded read
   * accepts (see session-file-guard.ts): inside the sessions folder, regular, one link, at most
   * 64 MiB. A RecallError (UNSAFE_FILE, FILE_TOO_LARGE, NOT_FOUND) otherwise.
   */
  checkFile(session: SessionRef): FileIdentity {
    return checkSessionFile(this.locations.sessionsDir, session.path);
  }

  /** `read`, of a file checked before and after as `checkFile` does and still the one `expected` names (SESSION_REPLACED otherwise). */
  readGuarded(session: SessionRef, options: ReadOptions = {}, expected?: FileIdentity): Promise<ReadResult> {
    return guardedRead(this.locations.sessionsDir, session.path, expected, () => this.read(session, options));
  }

  /** `context`, guarded as `readGuarded` is. */
  contextGuarded(session: SessionRef, question: string, options: ContextOptions = {}, expected?: FileIdentity): Promise<ContextResult> {
    return guardedRead(this.locations.sessionsDir, session.path, expected, () => this.context(session, question, options));
  }

  /** A session named by full id, unique id prefix or file path. */
  async resolve(ref: string): Promise<SessionRef> {
    const [resolved] = await this.resolveAll([ref]);
    if ("error" in resolved!) throw resolved.error;
    return resolved!.session;
  }

  /**
   * Several sessions at once, each resolved or failed on its own (one stale id in a piped list
   * does not stop the others). Ids are looked up after one sync, so a session Pi has just
   * started is found; paths need none.
   */
  async resolveAll(refs: readonly string[]): Promise<Resolved[]> {
    if (refs.some((ref) => !looksLikePath(ref))) await this.freshen(await this.store(), { trustWatcher: false });
    return this.repairing(() => this.resolveEach(refs));
  }

  private async resolveEach(refs: readonly string[]): Promise<Resolved[]> {
    const store = await this.store();
    const resolved: Resolved[] = [];
    for (const ref of refs) {
      try {
        resolved.push({ ref, session: await resolveSession(store, ref, this.overrides.cwd) });
      } catch (error) {
        resolved.push({ ref, error });
      }
    }
    return resolved;
  }

  /** A session's summary, as search and list give it, by id, id prefix or path. */
  async get(ref: string | SessionRef): Promise<SessionSummary> {
    const session = typeof ref === "string" ? await this.resolve(ref) : ref;
    return sessionSummary(await this.store(), session);
  }

  /** A session's messages, a page at a time. */
  async read(ref: string | SessionRef, options: ReadOptions = {}): Promise<ReadResult> {
    const session = typeof ref === "string" ? await this.resolve(ref) : ref;
    if (!this.options.background) return readSession(session, options);
    return (await this.runner()).read(session, options);
  }

  /** The messages of one session that bear on a question, within a budget; no model involved. */
  async context(ref: string | SessionRef, question: string, options: ContextOptions = {}): Promise<ContextResult> {
    const session = typeof ref === "string" ? await this.resolve(ref) : ref;
    return sessionContext(session, question, options);
  }

  /**
   * Asks a model about one session: the messages `context` picks for the question go to the
   * model (`model`, else the configured one, else Pi's default), through the user's `pi`.
   */
  async ask(ref: string | SessionRef, question: string, options: AskOptions & ModelChoice = {}): Promise<AskResult> {
    const session = typeof ref === "string" ? await this.resolve(ref) : ref;
    const model = options.model ?? strictConfig(this.config()).ask.model;
    const [{ askAboutSession }, { printModeCaller }] = await Promise.all([import("./ask.js"), import("./pi-model.js")]);
    return askAboutSession(session, question, options.caller?.(model) ?? printModeCaller(this.env, model), options);
  }

  /**
   * Tags sessions with a model (`model`, else the configured one, else Pi's default); see
   * autotag.ts. A batch keeps one `pi` process for all its sessions.
   */
  async autoTag(sessions: readonly SessionRef[], options: AutoTagOptions & ModelChoice = {}): Promise<AutoTagResult[]> {
    const config = strictConfig(this.config()).autoTags;
    const model = options.model ?? config.model;
    const [{ autoTagSessions, autoTagSystemPrompt }, { PiConversation, printModeCaller }] = await Promise.all([import("./autotag.js"), import("./pi-model.js")]);
    const caller = options.caller?.(model) ?? (sessions.length > 1 ? new PiConversation(this.env, model, autoTagSystemPrompt(config)) : printModeCaller(this.env, model));
    try {
      return await autoTagSessions(await this.store(), sessions, caller, config, options);
    } finally {
      await caller.close();
    }
  }

  /** The model a feature would ask: `provider/id` from the configuration, or undefined for Pi's default. */
  modelFor(feature: "autoTags" | "ask"): string | undefined {
    return strictConfig(this.config())[feature].model;
  }

  /** Makes `model` (`provider/id`) the one asking and auto-tagging use, in recall's config.json. */
  chooseModel(model: string): void {
    saveModel(this.config().path, model);
  }

  /** recall's settings (config.json and the earlier tools' files), read now, with what could not be used. */
  config(): LoadedConfig {
    return loadConfig(this.locations, this.env, this.overrides.cwd);
  }

  /** Sessions without any tag, most recently active first (what `autotag --all-untagged` takes). */
  async untagged(options: ListOptions & Freshness = {}): Promise<SessionSummary[]> {
    const all = await this.list({ ...options, limit: UNBOUNDED });
    const untagged = all.filter((s) => s.tags.length === 0);
    return options.limit === undefined ? untagged : untagged.slice(0, options.limit);
  }

  /** How to continue a session in Pi: the command and the folder to run it in. */
  async resumePlan(ref: string | SessionRef): Promise<ResumePlan> {
    return resumePlan(typeof ref === "string" ? await this.resolve(ref) : ref);
  }

  /** Throws the error a damaged tag database gives: tag operations and `#tag` filters stop on it. */
  async checkTags(): Promise<void> {
    const damaged = await damagedTagStore(await this.store());
    if (damaged) throw damaged;
  }

  /** A session's manual, automatic and suppressed tags. */
  async tagsOf(session: SessionRef): Promise<SessionTags> {
    return sessionTags(await this.store(), session);
  }

  /** Adds manual tags (`#` optional, normalized); the index shows them at once. */
  addTags(sessions: SessionRef[], tags: readonly string[]): Promise<TagEdit> {
    return this.repairing(async () => addTags(await this.store(), sessions, tags));
  }

  /** Removes tags and keeps automatic tagging from adding them back. */
  removeTags(sessions: SessionRef[], tags: readonly string[]): Promise<TagEdit> {
    return this.repairing(async () => removeTags(await this.store(), sessions, tags));
  }

  /** Every tag in use with its number of sessions, most used first. */
  async tagCounts(): Promise<TagCount[]> {
    return tagCounts(await this.store());
  }

  /**
   * Brings the index up to date. Callers asking while a sync runs share it; a rebuild always
   * starts its own. The report says what was read, skipped and left to do.
   */
  sync(request: SyncRequest = {}): Promise<SyncReport> {
    if (this.running && !request.rebuild) return this.running;
    const previous = this.running ?? Promise.resolve(undefined);
    const options = { rebuild: request.rebuild, lockTimeoutMs: request.lockTimeoutMs ?? (request.rebuild ? 30_000 : undefined) };
    const run = previous
      .catch(() => undefined)
      .then(() => this.repairing(() => this.runSync(options, request.onProgress, request.signal)))
      .finally(() => {
        if (this.running === run) this.running = undefined;
      });
    this.running = run;
    return run;
  }

  /**
   * Brings the index up to date as a query does before it answers: what the sync had to say
   * comes back as notices (`takeNotices`) rather than as a report.
   */
  async refresh(): Promise<void> {
    try {
      const report = await untilFirstCommit(await this.store(), await this.sync(), () => this.sync({ lockTimeoutMs: RETRY_LOCK_MS }));
      this.notices.push(...syncNotices(report));
    } catch (error) {
      // A read-only or full cache: the query answers from the index as it is, and says so.
      if (!cannotWrite(error)) throw error;
      this.notices.push({ code: "INDEX_STALE", message: `the index in ${this.locations.cacheDir} could not be updated (${refusal(await this.store(), error)}); answering from it as it is` });
    }
  }

  /**
   * Keeps the index up to date as Pi writes, until the signal aborts (see sync/watch.ts). Each
   * sync's report comes with what it has to tell the user.
   */
  async watch(options: Omit<WatchOptions, "onSync"> & { onSync?: (report: SyncReport, notices: Notice[]) => void }): Promise<void> {
    const { onSync } = options;
    const { watchSessions } = await import("../sync/watch.js");
    return watchSessions(await this.store(), { ...options, onSync: onSync && ((report) => onSync(report, syncNotices(report))) });
  }

  /**
   * Checks Pi's sessions folder, the index (checksums, every session file indexed), the tag
   * database, the config file and the watcher lock, each with what fixes it. Opens nothing first.
   */
  async doctor(): Promise<DoctorCheck[]> {
    const { runDoctor } = await import("./doctor.js");
    return runDoctor(this.locations, this.env, this.overrides.cwd!);
  }

  /** Sees what other processes committed since this one last looked. Cheap. */
  async reload(): Promise<void> {
    await (await this.store()).native.reload();
  }

  /** Stops the background thread once its jobs are done. The index needs no closing. */
  close(): void {
    this.watched?.close();
    this.watched = undefined;
    void this.jobs?.then((jobs) => jobs.dispose());
    this.jobs = undefined;
  }

  /** With `live`: the watches of the session folders, set up by the first sync. */
  private liveFreshness(): LiveFreshness | undefined {
    if (this.options.live) this.watched ??= new LiveFreshness(this.locations);
    return this.watched;
  }

  /**
   * The index, opened on first call, and again if its folder was deleted since (see storeInPlace).
   * Callers at the same time share one opening.
   */
  private store(): Promise<IndexStore> {
    this.opening ??= (async () => {
      try {
        this.opened = this.opened ? await storeInPlace(this.opened) : await openStore(this.locations, { verify: this.options.verify ?? false });
        return this.opened;
      } finally {
        this.opening = undefined;
      }
    })();
    return this.opening;
  }

  /**
   * `operation`, and once more after a repair if it failed in a way damaged index files could
   * explain (see sync/repair.ts): every file's checksum is checked then, and a damaged index is
   * replaced and rebuilt from the session files, tags kept, with a notice.
   */
  private async repairing<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (!mayComeFromDamage(error)) throw error;
      const repair = await repairIfDamaged(this.locations);
      if (!repair) throw error;
      this.opened = undefined;
      this.notices.push(...repair.notices.map((message): Notice => ({ code: "INDEX_REPLACED", message })), ...syncNotices(repair.report));
      return operation();
    }
  }

  /** The query, after bringing the index up to date unless `sync: false`. */
  private fresh<T>(freshness: Freshness, read: (store: IndexStore) => Promise<T>): Promise<T> {
    return this.repairing(() => this.freshOnce(freshness, read));
  }

  private async freshOnce<T>(freshness: Freshness, read: (store: IndexStore) => Promise<T>): Promise<T> {
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
  private async freshen(store: IndexStore, { trustWatcher }: { trustWatcher: boolean }): Promise<void> {
    const watched = this.liveFreshness();
    const live = watched ? await watched.state(store) : "unknown";
    if (live === "fresh" || (live === "unknown" && trustWatcher && watcherKeepsFresh(store.locations))) {
      await store.native.reload();
      return;
    }
    // A sync under way began before this query was asked, perhaps before the change it must see.
    const underWay = this.running !== undefined;
    await this.refresh();
    if (underWay) await this.refresh();
  }

  private async runSync(options: { rebuild?: boolean; lockTimeoutMs?: number }, onProgress?: (p: SyncProgress) => void, signal?: AbortSignal): Promise<SyncReport> {
    const store = await this.store();
    const mark = this.liveFreshness()?.syncing(store);
    let report: SyncReport;
    if (!this.options.background) report = await syncIndex(store, { ...options, onProgress, signal });
    else {
      report = await (await this.runner()).sync(this.overrides, options, onProgress);
      // The sync ran on another thread, with its own reader: look at what it committed.
      await store.native.reload();
    }
    if (mark && !report.busy && !report.stopped) this.watched!.synced(mark);
    return report;
  }

  /** The background thread, started on first use; loaded lazily, so a CLI start never pays for it. */
  private runner(): Promise<JobRunner> {
    this.jobs ??= import("./background-jobs.js").then(({ WorkerJobs }) => {
      const inline: JobRunner = {
        sync: async (_overrides, options, onProgress) => syncIndex(await this.store(), { ...options, onProgress }),
        read: async (session, options) => readSession(session, options),
        dispose: () => {},
      };
      return new WorkerJobs(inline);
    });
    return this.jobs;
  }
}
