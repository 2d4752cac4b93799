/**
 * The recall library as one object: `Recall.open()` for a sessions folder, then search, list,
 * read, ask for context, tag, sync and watch. The CLI, the Pi extension and the MCP server all
 * stand on this class (through src/index.ts) and on nothing else of the library.
 *
 * Each method is one line handing the call to a part in facade/: the index lease (lease.ts: the
 * index handle, freshness, repair and the background thread, the only mutable state), sessions
 * (search, list, read, context), tags, models (ask, autotag) and maintenance (watch, doctor).
 */
import { resolveLocations, sessionsFolderProblem, type LocationOverrides, type Locations, type SessionsFolderProblem } from "../locations.js";
import { prefixMarks } from "../native/words.js";
import { normalizeTag, parseTags } from "../tags/normalize.js";
import type { TagCount } from "../tags/tag-store.js";
import type { SyncProgress, SyncReport } from "../sync/sync.js";
import type { WatchOptions } from "../sync/watch.js";
import type { AskOptions, AskResult } from "./ask.js";
import type { AutoTagOptions, AutoTagResult } from "./autotag.js";
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
import type { SessionTags, TagEdit } from "./tags.js";
import { isTerminal } from "./terminal.js";
import { versions, type Versions } from "./versions.js";
import { IndexLease, type Freshness, type RecallOptions, type SyncRequest } from "./facade/lease.js";
import { Maintenance } from "./facade/maintenance.js";
import { Models, type ModelChoice } from "./facade/models.js";
import { Sessions, type Resolved } from "./facade/sessions.js";
import { Tags } from "./facade/tags.js";
import { Exports } from "./facade/exports.js";
import { projectOf } from "../sessions/project-identity.js";
import type { ExportedSession, ExportOptions } from "./export.js";
import type { SessionView } from "./session-view.js";
import type { Archive } from "../archive/archive.js";
import { SessionTools } from "./facade/session-tools.js";
import { ArchivedSessions, type RemoteReadOptions, type RemoteSearchOptions } from "./facade/archived-sessions.js";
import type { ArchiveSearchPage } from "../archive/search.js";
import type { ArchiveReadResult } from "../archive/read.js";
import type { PullResult } from "../archive/pull.js";
import { MeaningIndexing } from "./facade/meaning.js";
import { meaningIncomplete, type MeaningBuildOptions, type MeaningCoverage, type MeaningReport } from "./meaning.js";
import type { SessionPage, SessionPageRequest } from "./session-tools/session-page.js";
import { checkedPageChars, findQuery, listQuery, readMode, searchQuery, type SessionQuery, type SessionSearchArgs } from "./session-tools/session-query.js";
import type { SessionToolMode } from "./session-tools/limits.js";

export type { Freshness, RecallOptions, SyncRequest } from "./facade/lease.js";
export type { ModelChoice } from "./facade/models.js";
export type { Resolved } from "./facade/sessions.js";
export type { RemoteReadOptions, RemoteSearchOptions } from "./facade/archived-sessions.js";

/** Options naming a remote (a `remote` key left undefined names none). */
function isRemote<T extends object>(options: T | RemoteSearchOptions | RemoteReadOptions): options is RemoteSearchOptions | RemoteReadOptions {
  return (options as { remote?: string }).remote !== undefined;
}

export class Recall {
  private readonly lease: IndexLease;
  private readonly sessions: Sessions;
  private readonly tags: Tags;
  private readonly models: Models;
  private readonly maintenance: Maintenance;
  private readonly sessionTools: SessionTools;
  private readonly meaning: MeaningIndexing;
  private readonly archived: ArchivedSessions;
  private readonly exports: Exports;

  private constructor(options: RecallOptions) {
    this.lease = new IndexLease(options);
    this.meaning = new MeaningIndexing(this.lease);
    this.sessions = new Sessions(this.lease, this.meaning);
    this.tags = new Tags(this.lease);
    this.models = new Models(this.lease, this.sessions);
    this.maintenance = new Maintenance(this.lease);
    this.sessionTools = new SessionTools(this.lease, this.sessions);
    this.archived = new ArchivedSessions(this.lease);
    this.exports = new Exports(this.sessions);
  }

  /**
   * The team archives (remotes in config.json) for the sessions these overrides name: src/archive.
   * Loaded when first asked for, so nothing else pays for the OpenSearch client.
   */
  static async openArchive(options: LocationOverrides = {}): Promise<Archive> {
    const { Archive } = await import("../archive/archive.js");
    return Archive.open(options);
  }

  /** recall for the sessions folder these overrides name (Pi's default without any). Opens nothing yet. */
  static open(options: RecallOptions = {}): Recall {
    return new Recall(options);
  }

  /** Whether a search by meaning should say its index is incomplete (more than 1 in 100 messages lack a vector). */
  static meaningIncomplete(coverage: MeaningCoverage): boolean {
    return meaningIncomplete(coverage);
  }

  /** The project identity of a folder (its git remote, normalized; what `--repo` compares): "" for a folder of no project. */
  static projectOf(folder: string): string {
    return projectOf(folder);
  }

  /** A tag as recall keeps it: lowercase letters, digits, `_` and `-` (`#Rust/Search!` → `rust-search`). */
  static normalizeTag(raw: string): string {
    return normalizeTag(raw);
  }

  /** Tags as a user gives them (`#` optional), normalized; one that normalizes to nothing is an error. */
  static parseTags(raws: readonly string[]): string[] {
    return parseTags(raws);
  }

  /** The package's version and the loaded native core's (loading fails when it is of another release). */
  static versions(): Versions {
    return versions();
  }

  /**
   * For each of `texts`, the UTF-8 byte spans of its words that start with a word of `query`, by
   * the index's words (case and accents folded: `orst` marks `Ørsted`). One native call for all.
   */
  static wordMarks(texts: string[], query: string): [number, number][][] {
    return prefixMarks(texts, query);
  }

  /** Whether descriptor 1 or 2 is a terminal, without loading Node's tty module (see terminal.ts). */
  static isTerminal(fd: 1 | 2): boolean {
    return isTerminal(fd);
  }

  /** Where the sessions, the index and the user data of these overrides are, without opening anything. */
  static locate(overrides: LocationOverrides = {}): Locations {
    return resolveLocations(overrides);
  }

  /** Where this recall's sessions, index and user data are; worked out once (it reads Pi's settings). */
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

  /** Opens the index (the first call does it anyway); its notices (a rebuilt cache) are then waiting. */
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
   * Sessions ranked for a query, a page at a time. An empty query (no words, no tags) lists the
   * latest sessions instead.
   *
   * `present`, if given, turns the page into what the caller shows, as soon as it is read: while
   * a freshness check is still under way (a large history), the presenting overlaps it.
   *
   * With `remote`, the archive of that name in config.json is searched instead (never the local
   * index): the same query language, each hit with its `origin`, and its errors
   * (REMOTE_UNAVAILABLE within the remote's timeout) naming the remote, never its URL or host.
   */
  search(options: RemoteSearchOptions): Promise<ArchiveSearchPage>;
  search(options: SearchOptions & Freshness): Promise<SearchPage>;
  search<T>(options: SearchOptions & Freshness, present: (page: SearchPage) => T): Promise<T>;
  search<T>(options: (SearchOptions & Freshness) | RemoteSearchOptions, present?: (page: SearchPage) => T): Promise<T | SearchPage | ArchiveSearchPage> {
    return isRemote(options) ? this.archived.search(options) : this.sessions.search(options, present);
  }

  /** The names of the archives config.json lists (`remotes`), in its order; none configured: empty. */
  remoteNames(): string[] {
    return this.archived.names();
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
  list<T>(options: ListOptions & Freshness = {}, present?: (sessions: SessionSummary[]) => T): Promise<T | SessionSummary[]> {
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

  /** How many sessions the index holds (of one folder, with `cwd`), as it is: what a search looked through. */
  count(options: Pick<ListOptions, "cwd"> = {}): Promise<number> {
    return this.sessions.count(options);
  }

  /**
   * The identity of a session's file (device and inode, hashed) if it is a file a guarded read
   * accepts (see src/sessions/file-guard.ts): inside the sessions folder, regular, one link, at most
   * 64 MiB. A RecallError (UNSAFE_FILE, FILE_TOO_LARGE, NOT_FOUND) otherwise.
   */
  checkFile(session: SessionRef): FileIdentity {
    return this.sessions.checkFile(session);
  }

  /** `read`, of a file checked before and after as `checkFile` does and still the one `expected` names (SESSION_REPLACED otherwise). */
  readGuarded(session: SessionRef, options: ReadOptions = {}, expected?: FileIdentity): Promise<ReadResult> {
    return this.sessions.readGuarded(session, options, expected);
  }

  /** `context`, guarded as `readGuarded` is. */
  contextGuarded(session: SessionRef, question: string, options: ContextOptions = {}, expected?: FileIdentity): Promise<ContextResult> {
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

  /** A session's summary, as search and list give it, by id, id prefix or path (an id after a sync, unless `sync: false`). */
  get(ref: string | SessionRef, options: Freshness = {}): Promise<SessionSummary> {
    return this.sessions.get(ref, options);
  }

  /**
   * A session's messages, a page at a time. With `remote`, a session of that archive, by id or
   * unique id prefix, as it was pushed; its errors as `search({ remote })`'s.
   */
  read(ref: string, options: RemoteReadOptions): Promise<ArchiveReadResult>;
  read(ref: string | SessionRef, options?: ReadOptions): Promise<ReadResult>;
  read(ref: string | SessionRef, options: ReadOptions | RemoteReadOptions = {}): Promise<ReadResult | ArchiveReadResult> {
    return isRemote(options) ? this.archived.read(ref as string, options) : this.sessions.read(ref, options);
  }

  /**
   * Writes a session file the remote named `remote` keeps (`keepFiles`) into this machine's Pi
   * sessions folder, never over another file, so that Pi can resume it here (`recall pull`); its
   * errors as `search({ remote })`'s.
   */
  pull(session: string, { remote }: { remote: string }): Promise<PullResult> {
    return this.archived.pull(session, remote);
  }

  /** The messages of one session that bear on a question, within a budget; no model involved. */
  context(ref: string | SessionRef, question: string, options: ContextOptions = {}): Promise<ContextResult> {
    return this.sessions.context(ref, question, options);
  }

  /**
   * Asks a model about one session: the messages `context` picks for the question go to the
   * model (`model`, else the configured one, else Pi's default), through the user's `pi`.
   */
  ask(ref: string | SessionRef, question: string, options: AskOptions & ModelChoice = {}): Promise<AskResult> {
    return this.models.ask(ref, question, options);
  }

  /**
   * Tags sessions with a model (`model`, else the configured one, else Pi's default); see
   * autotag.ts. A batch keeps one `pi` process for all its sessions.
   */
  autoTag(sessions: readonly SessionRef[], options: AutoTagOptions & ModelChoice = {}): Promise<AutoTagResult[]> {
    return this.models.autoTag(sessions, options);
  }

  /** The model a feature would ask: `provider/id` from the configuration, or undefined for Pi's default. */
  modelFor(feature: "autoTags" | "ask"): string | undefined {
    return this.models.modelFor(feature);
  }

  /** Makes `model` (`provider/id`) the one asking and auto-tagging use, in recall's config.json. */
  chooseModel(model: string): void {
    this.models.chooseModel(model);
  }

  /** recall's settings (config.json and the earlier tools' files), read now, with what could not be used. */
  config(): LoadedConfig {
    return this.models.config();
  }

  /** Sessions without any tag, most recently active first (what `autotag --all-untagged` takes). */
  untagged(options: ListOptions & Freshness = {}): Promise<SessionSummary[]> {
    return this.sessions.untagged(options);
  }

  /**
   * A whole session as one text to read elsewhere: Markdown (`format: "md"`, the default) or one
   * self-contained HTML file (`"html"`: no script, nothing fetched, session text escaped). With
   * `redact`, secrets are replaced as a push to an archive replaces them. A session file that is
   * not a regular file (UNSAFE_FILE) or is over `MAX_SESSION_BYTES` (FILE_TOO_LARGE) is refused
   * before anything of it is read.
   */
  exportSession(ref: string | SessionRef, options: ExportOptions = {}): Promise<string> {
    return this.exports.render(ref, options);
  }

  /** The session an export renders: every entry a reader sees, as blocks, with its project and tags. */
  exportedSession(ref: string | SessionRef, options: Omit<ExportOptions, "format"> = {}): Promise<ExportedSession> {
    return this.exports.document(ref, options);
  }

  /** A session as a page shows it: header fields and its conversation as HTML, a part per shown entry (`recall serve`); its file checked as `exportSession` checks it. */
  viewSession(ref: string | SessionRef, options: Pick<ExportOptions, "allBranches" | "redact"> = {}): Promise<SessionView> {
    return this.exports.view(ref, options);
  }

  /** A session of the remote named `remote` as a page shows it: every message a part (its errors as `search({ remote })`'s). */
  viewArchivedSession(id: string, { remote }: { remote: string }): Promise<SessionView> {
    return this.archived.view(id, remote);
  }

  /** The stylesheet of a session's parts (an HTML export's). */
  sessionStylesheet(): Promise<string> {
    return this.exports.stylesheet();
  }

  /** Loads the renderers ahead of the first `viewSession` or export (~100 ms, once per process). */
  loadRenderers(): Promise<void> {
    return this.exports.loadRenderers();
  }

  /** How to continue a session in Pi: the command and the folder to run it in. */
  resumePlan(ref: string | SessionRef): Promise<ResumePlan> {
    return this.sessions.resumePlan(ref);
  }

  /** Throws the error a damaged tag database gives: tag operations and `#tag` filters stop on it. */
  checkTags(): Promise<void> {
    return this.tags.check();
  }

  /** A session's manual, automatic and suppressed tags. */
  tagsOf(session: SessionRef): Promise<SessionTags> {
    return this.tags.of(session);
  }

  /** Adds manual tags (`#` optional, normalized); the index shows them at once. */
  addTags(sessions: SessionRef[], tags: readonly string[]): Promise<TagEdit> {
    return this.tags.add(sessions, tags);
  }

  /** Removes tags and keeps automatic tagging from adding them back. */
  removeTags(sessions: SessionRef[], tags: readonly string[]): Promise<TagEdit> {
    return this.tags.remove(sessions, tags);
  }

  /** Every tag in use with its number of sessions, most used first. */
  tagCounts(): Promise<TagCount[]> {
    return this.tags.counts();
  }

  /**
   * Brings the index up to date. Callers asking while a sync runs share it; a rebuild always
   * starts its own. The report says what was read, skipped and left to do.
   */
  sync(request: SyncRequest = {}): Promise<SyncReport> {
    return this.lease.sync(request);
  }

  /**
   * Builds the meaning index from the conversation as the index holds it (bring the index up to
   * date first): the messages it lacks are embedded on one thread of the pool, newest first, and
   * appended as they are, so a stopped or killed build resumes where it was. A search by meaning
   * meanwhile uses what is there. MODEL_UNAVAILABLE without the model package; LOCKED while
   * another process builds it.
   */
  indexMeaning(options: MeaningBuildOptions = {}): Promise<MeaningReport> {
    return this.meaning.build(options);
  }

  /**
   * For a long-lived host (Pi, the MCP server): with the model package installed, builds the
   * meaning index in the background now and after every sync that changes the index, on one
   * thread at the lowest priority, until `close()`; another process building it is left to it,
   * other failures go to `onError`. Returns false, doing nothing, without the model package.
   */
  followMeaning(onError: (error: unknown) => void = () => {}): boolean {
    return this.meaning.follow(onError);
  }

  /**
   * Waits for what searches started in the background: a search by meaning embeds the few
   * messages its index lacked (at most 32, as after a sync) so that the next search covers them.
   * A short-lived process awaits it before it exits; nothing is lost if it does not.
   */
  meaningSettled(): Promise<void> {
    return this.meaning.settled();
  }

  /** Whether the meaning model's package is installed, without loading it. */
  meaningModelInstalled(): boolean {
    return this.meaning.installed();
  }

  /** How much of the conversation the meaning index covers; null without the model package. */
  meaningCoverage(): Promise<MeaningCoverage | null> {
    return this.meaning.coverage();
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
   * follows: what each sync added is embedded after it (`indexMeaning`; its errors go to `onError`).
   */
  watch(options: Omit<WatchOptions, "onSync"> & { onSync?: (report: SyncReport, notices: Notice[]) => void; meaning?: boolean }): Promise<void> {
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
    this.meaning.stop();
    this.lease.close();
  }

  // The pi_session_* tools' semantics (session-tools/), one implementation for the MCP server and the Pi extension.

  /** pi_session_search's arguments as a search: a complete UUID finds that session, mode "raw" searches every kind of text. */
  static sessionSearchQuery(args: SessionSearchArgs): SessionQuery {
    return searchQuery(args);
  }

  /** pi_session_find's argument as a search; anything but a complete UUID is BAD_INPUT (named `field`). */
  static sessionFindQuery(sessionId: string, field?: string): SessionQuery {
    return findQuery(sessionId, field);
  }

  /** pi_session_list's search: the latest sessions, from `since` (ms since epoch) on. */
  static sessionListQuery(since: number | undefined): SessionQuery {
    return listQuery(since);
  }

  /** A read or context budget of the session tools, checked (BAD_INPUT outside their limits, named `field`). */
  static sessionPageChars(chars: number | undefined, fallback: number, field?: string): number {
    return checkedPageChars(chars, fallback, field);
  }

  /** The session tools' `mode` as a read's: "conversation" unless "raw"; anything else is BAD_INPUT. */
  static sessionReadMode(mode: string | undefined): SessionToolMode {
    return readMode(mode);
  }

  /** Starts the first index of a long-lived host in the background (session-tools pages answer from what is indexed meanwhile). */
  startIndexing(): void {
    this.sessionTools.startIndexing();
  }

  /** A page of sessions for pi_session_search, find or list; `onProgress` hears of any sync that runs meanwhile. */
  sessionPage(request: SessionPageRequest, onProgress?: (progress: SyncProgress) => void): Promise<SessionPage> {
    return this.sessionTools.page(request, onProgress);
  }
}
