/**
 * The recall library as one object: `Recall.open()` for a sessions folder, then search, list,
 * read, ask for context, sync and watch; tags, meaning, models, exports, the session tools and the
 * archive are its parts, each a property. The CLI, the Pi extension, the MCP server and `recall
 * serve` all stand on this class (through src/index.ts) and on nothing else of the library.
 *
 * Each method is one line handing the call to a part in facade/: the index lease (lease.ts: the
 * index handle, freshness, repair and the background thread, most of the mutable state), sessions
 * (search, list, read, context) and maintenance (watch, doctor). The parts shown as properties
 * answer their calls themselves.
 */
import { sessionsFolderProblem, type Locations, type SessionsFolderProblem } from "../locations.js";
import type { SyncReport } from "../sync/sync.js";
import type { WatchOptions } from "../sync/watch.js";
import type { LoadedConfig } from "../config.js";
import type { ContextOptions, ContextResult } from "./context.js";
import type { DoctorCheck } from "./doctor.js";
import type { ListOptions } from "./list.js";
import type { Notice } from "./notices.js";
import type { ReadOptions, ReadResult } from "./read.js";
import type { RelatedOptions, RelatedPage } from "./related.js";
import type { SessionRef } from "./resolve-session.js";
import type { ResumePlan } from "./resume.js";
import type { SearchOptions, SearchPage } from "./search.js";
import type { Stats, StatsOptions } from "./stats.js";
import type { FileIdentity } from "../sessions/file-guard.js";
import type { SessionSummary } from "../answers/session-summary.js";
import {
  IndexLease,
  type Freshness,
  type RecallOptions,
  type SyncRequest,
} from "./facade/lease.js";
import { Maintenance } from "./facade/maintenance.js";
import { Models } from "./facade/models.js";
import { Sessions, type Resolved } from "./facade/sessions.js";
import { Tags } from "./facade/tags.js";
import { Exports } from "./facade/exports.js";
import { Archive } from "../archive/archive.js";
import { SessionTools } from "./facade/session-tools.js";
import { MeaningIndexing } from "./facade/meaning.js";
import { MeaningCatchUp } from "./facade/meaning-catch-up.js";

export type { Freshness, RecallOptions, SyncRequest } from "./facade/lease.js";
export type { ModelChoice } from "./facade/models.js";
export type { Resolved } from "./facade/sessions.js";

export class Recall {
  /** A session's tags, editing them, the tags in use and the sessions without any. */
  readonly tags: Tags;
  /** The meaning index: building it, following it in a long-lived host, how much it covers. */
  readonly meaning: MeaningIndexing;
  /** Asking a model about a session, tagging sessions with one, and which model that is. */
  readonly models: Models;
  /** A whole session as Markdown or HTML, as the document those render, or as a page shows it. */
  readonly exports: Exports;
  /** The pi_session_* tools' pages, one implementation for the MCP server and the Pi extension. */
  readonly sessionTools: SessionTools;

  private readonly lease: IndexLease;
  private readonly sessions: Sessions;
  private readonly maintenance: Maintenance;
  /**
   * The archive, opened on first use (`archive`); its errors name no host unless `showRemoteHosts`.
   */
  private opened: Archive | undefined;
  private readonly hostHidden: boolean;

  private constructor(options: RecallOptions) {
    this.lease = new IndexLease(options);
    this.hostHidden = !options.showRemoteHosts;
    const catchUp = new MeaningCatchUp();
    this.meaning = new MeaningIndexing(this.lease, catchUp);
    this.sessions = new Sessions(this.lease, catchUp);
    this.tags = new Tags(this.lease);
    this.models = new Models(this.lease, this.sessions);
    this.maintenance = new Maintenance(this.lease);
    this.sessionTools = new SessionTools(this.lease, this.sessions);
    this.exports = new Exports(this.sessions, () => this.archive);
  }

  /**
   * recall for the sessions folder these overrides name (Pi's default without any). Opens nothing
   * yet.
   */
  static open(options: RecallOptions = {}): Recall {
    return new Recall(options);
  }

  /**
   * The team archives, the remotes of config.json: pushing to one, searching and reading it,
   * pulling a session file it keeps. The one way into src/archive; it loads no OpenSearch client
   * until an operation needs it, and never touches the local index. Its errors name the remote
   * only (REMOTE_UNAVAILABLE within the remote's timeout), never its URL or host, unless opened
   * with `showRemoteHosts`.
   */
  get archive(): Archive {
    this.opened ??= Archive.open({ ...this.lease.overrides, hostHidden: this.hostHidden });
    return this.opened;
  }

  /**
   * Where this recall's sessions, index and user data are; worked out once (it reads Pi's
   * settings).
   */
  get locations(): Locations {
    return this.lease.locations;
  }

  /**
   * What is wrong with the sessions folder, if anything, without opening the index: a folder a
   * setting names that does not exist is fatal; Pi's default one not there yet is not.
   */
  sessionsFolderProblem(): SessionsFolderProblem | undefined {
    return sessionsFolderProblem(this.lease.locations);
  }

  /**
   * Opens the index (the first call does it anyway); its notices (a rebuilt cache) are then
   * waiting.
   */
  async open(): Promise<this> {
    await this.lease.store();
    return this;
  }

  /**
   * One-line notices for the user, each handed out once: a cache that had to be rebuilt, tags
   * imported from pi-recall, what a query's sync skipped or could not do.
   */
  takeNotices(): Notice[] {
    return this.lease.takeNotices();
  }

  /**
   * recall's settings (config.json and the earlier tools' files), read now, with what could not be
   * used.
   */
  config(): LoadedConfig {
    return this.lease.config();
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
  search<T>(
    options: SearchOptions & Freshness,
    present?: (page: SearchPage) => T,
  ): Promise<T | SearchPage> {
    return this.sessions.search(options, present);
  }

  /**
   * The sessions nearest one session (id, id prefix, path or resolved), best first, each with the
   * distinctive words it shares with it; no model involved (see related.ts).
   */
  related(options: RelatedOptions & Freshness): Promise<RelatedPage> {
    return this.sessions.related(options);
  }

  /** Sessions, most recently active first; `present` as for `search`. */
  list(options?: ListOptions & Freshness): Promise<SessionSummary[]>;
  list<T>(options: ListOptions & Freshness, present: (sessions: SessionSummary[]) => T): Promise<T>;
  list<T>(
    options: ListOptions & Freshness = {},
    present?: (sessions: SessionSummary[]) => T,
  ): Promise<T | SessionSummary[]> {
    return this.sessions.list(options, present);
  }

  /**
   * Pictures of the work in a window: sessions, messages, tokens and cost by day, project and
   * model, and the files calls touched most (see stats.ts). Reads the session files of the sessions
   * active in the window once each.
   */
  stats(options: StatsOptions & Freshness = {}): Promise<Stats> {
    return this.sessions.stats(options);
  }

  /**
   * How many sessions the index holds (of one folder, with `cwd`), as it is: what a search looked
   * through.
   */
  count(options: Pick<ListOptions, "cwd"> = {}): Promise<number> {
    return this.sessions.count(options);
  }

  /**
   * The identity of a session's file (device and inode, hashed) if it is a file a guarded read
   * accepts (see src/sessions/file-guard.ts): inside the sessions folder, regular, one link, at
   * most 64 MiB. A RecallError (UNSAFE_FILE, FILE_TOO_LARGE, NOT_FOUND) otherwise.
   */
  checkFile(session: SessionRef): FileIdentity {
    return this.sessions.checkFile(session);
  }

  /**
   * `read`, of a file checked before and after as `checkFile` does and still the one `expected`
   * names (SESSION_REPLACED otherwise).
   */
  readGuarded(
    session: SessionRef,
    options: ReadOptions = {},
    expected?: FileIdentity,
  ): Promise<ReadResult> {
    return this.sessions.readGuarded(session, options, expected);
  }

  /** `context`, guarded as `readGuarded` is. */
  contextGuarded(
    session: SessionRef,
    question: string,
    options: ContextOptions = {},
    expected?: FileIdentity,
  ): Promise<ContextResult> {
    return this.sessions.contextGuarded(session, question, options, expected);
  }

  /** A session named by full id, unique id prefix or file path. */
  resolve(ref: string): Promise<SessionRef> {
    return this.sessions.resolve(ref);
  }

  /**
   * Several sessions at once, each resolved or failed on its own (one stale id in a piped list
   * does not stop the others). Ids are looked up after one sync, so a session Pi has just
   * started is found; paths need none.
   */
  resolveAll(refs: readonly string[]): Promise<Resolved[]> {
    return this.sessions.resolveAll(refs);
  }

  /**
   * A session's summary, as search and list give it, by id, id prefix or path (an id after a sync,
   * unless `sync: false`).
   */
  get(ref: string | SessionRef, options: Freshness = {}): Promise<SessionSummary> {
    return this.sessions.get(ref, options);
  }

  /** A session's messages, a page at a time. */
  read(ref: string | SessionRef, options: ReadOptions = {}): Promise<ReadResult> {
    return this.sessions.read(ref, options);
  }

  /** The messages of one session that bear on a question, within a budget; no model involved. */
  context(
    ref: string | SessionRef,
    question: string,
    options: ContextOptions = {},
  ): Promise<ContextResult> {
    return this.sessions.context(ref, question, options);
  }

  /** How to continue a session in Pi: the command and the folder to run it in. */
  resumePlan(ref: string | SessionRef): Promise<ResumePlan> {
    return this.sessions.resumePlan(ref);
  }

  /**
   * Brings the index up to date. Callers asking while a sync runs share it; a rebuild always
   * starts its own. The report says what was read, skipped and left to do.
   */
  sync(request: SyncRequest = {}): Promise<SyncReport> {
    return this.lease.sync(request);
  }

  /**
   * Brings the index up to date as a query does before it answers: what the sync had to say
   * comes back as notices (`takeNotices`) rather than as a report.
   */
  refresh(): Promise<void> {
    return this.lease.refresh();
  }

  /**
   * Keeps the index up to date as Pi writes, until the signal aborts (see sync/watch.ts). Each
   * sync's report comes with what it has to tell the user. With `meaning`, the meaning index
   * follows: what each sync added is embedded after it (`meaning.build`; its errors go to
   * `onError`).
   */
  watch(
    options: Omit<WatchOptions, "onSync"> & {
      onSync?: (report: SyncReport, notices: Notice[]) => void;
      meaning?: boolean;
    },
  ): Promise<void> {
    const { meaning, ...rest } = options;
    return this.maintenance.watch({ ...rest, ...(meaning ? { meaning: this.meaning } : {}) });
  }

  /**
   * Checks Pi's sessions folder, the index (checksums, every session file indexed), the tag
   * database, the config file and the watcher lock, each with what fixes it. Opens nothing first.
   */
  doctor(): Promise<DoctorCheck[]> {
    return this.maintenance.doctor();
  }

  /** Sees what other processes committed since this one last looked. Cheap. */
  reload(): Promise<void> {
    return this.maintenance.reload();
  }

  /** Stops the background thread once its jobs are done. The index needs no closing. */
  close(): void {
    this.meaning.stopFollowing();
    this.lease.close();
  }
}
