// Generated from native/src by scripts/native-typings.mjs (napi-rs); do not edit.

/** A look at the session files under way on a thread of its own (see index/scan.rs), for a scan to take. */
export declare class EarlyLook {
  /** Starts looking at the session files in `sessionsDir` (`flat` and `listingsFile` as for `scan`). */
  static start(sessionsDir: string, flat: boolean, listingsFile?: string | undefined | null): EarlyLook
}
export type JsEarlyLook = EarlyLook

/** A lock file this process holds (see fs/lock_file.rs); released by `release` or when the process ends. */
export declare class LockFile {
  /** Takes the lock at `path`; fails with RECALL_LOCKED when another process holds it. */
  static hold(path: string): LockFile
  setText(text: string): void
  /** Whether its path still names the locked file (see fs/lock_file.rs); false once released. */
  isInPlace(): boolean
  release(): void
}

/**
 * The meaning index of one cache folder (search/by_meaning.rs, meaning/store.rs): the latest
 * snapshot of the store of vectors in `dir`, which a search reads and a refresh on the thread pool
 * replaces (the mutex is held only to take or put a snapshot, never while reading the file or
 * searching); `embed` takes the store's writer lock on first use and holds it until `release`.
 */
export declare class MeaningIndex {
  /** The store in `dir` of the model named `identity` (another model's vectors are not read). */
  static open(dir: string, identity: string): Promise<MeaningIndex>
  /**
   * Embeds up to `batch` of the index's messages whose vectors the store lacks, newest first,
   * with `model` at the lowest priority (meaning/background.rs: on each core the machine leaves
   * idle, one at least), and appends them to the store (synced to disk). RECALL_LOCKED, naming
   * the process, when another process is embedding; RECALL_IO when the store's folder was
   * deleted since this one began.
   */
  embed(index: NativeIndex, model: MeaningModel, batch: number): Promise<NativeMeaningStep>
  /**
   * Drops the vectors no message of the index refers to any more, once they are at least a
   * quarter of the store: the count dropped. Needs the writer (after `embed`).
   */
  compact(index: NativeIndex): Promise<number>
  /** How many of the index's messages the store covers. */
  coverage(index: NativeIndex): Promise<NativeMeaningCoverage>
  /** Lets another process embed. */
  release(): void
}

/** A loaded meaning model (recall-model's model.rs). */
export declare class MeaningModel {
  /**
   * Loads the model package in `dir` (`model.onnx`, `tokenizer.json`); a missing or damaged
   * file is a `RECALL_MODEL_UNUSABLE` error naming it. `arithmetic` (`float32` or `int8`,
   * default the fastest this processor has: `meaningArithmetic()`) is how it multiplies.
   * `packed` (a file of the cache folder): the model pre-packed there by an earlier load, read
   * in place when whole and made from these files, else written there (recall-model's packed.rs).
   */
  static load(dir: string, arithmetic?: string | undefined | null, packed?: string | undefined | null): Promise<MeaningModel>
  /** How the model multiplies: `float32` or `int8`. */
  get arithmetic(): string
  /** The floats of a vector. */
  get dimensions(): number
  /** The tokens of a text the model reads; the rest of a longer text is not read. */
  get maxTokens(): number
  /**
   * The vectors of `texts`, one after another: text i's `dimensions` floats (length 1) start
   * at i × `dimensions`. On one thread of the pool.
   */
  embed(texts: Array<string>): Promise<Float32Array>
}

/** The index of Pi sessions in one folder. */
export declare class NativeIndex {
  /**
   * Opens (or creates) the index in `dir`: reads the index's metadata and checks the segment
   * files changed since its last commit. An index that cannot be used is replaced with an
   * empty one (see replace.rs).
   */
  static open(dir: string): Promise<NativeIndex>
  /** Like `open`, checking every segment file's checksum first: after a failure. */
  static openVerified(dir: string): Promise<NativeIndex>
  /**
   * Like `open`, first checking every segment file written since they all last passed their
   * checksum (`recall index`; see index/integrity.rs): an index nothing wrote to since is not read.
   */
  static openRechecked(dir: string): Promise<NativeIndex>
  /** Whether the index's folder is still the one it was opened in (not deleted or replaced). */
  isInPlace(): boolean
  /** Why `open` replaced the index in the folder with an empty one, or null if it did not. */
  replacedBecause(): string | null
  /** Counts of documents and sessions, and the last commit's stamp and state. */
  stats(): Promise<NativeStats>
  /** The folders the indexed sessions were started in, each once, sorted. */
  folders(): Promise<string[]>
  /** Picks up commits made since the index was opened or last reloaded. */
  reload(): Promise<void>
  /**
   * Takes the writer lock, waiting up to `timeoutMs`; fails with RECALL_LOCKED after that.
   * A `heavy` write (a first index, a large batch) indexes with two threads, a light one with
   * one (fewer segments to write and flush per commit).
   */
  lock(timeoutMs: number, heavy?: boolean | undefined | null): Promise<void>
  /** Applies a change set under the writer lock; nothing is visible before `commit`. */
  apply(changes: NativeChangeSet): Promise<NativeApplyCounts>
  /** Deletes every document (for a rebuild); needs the writer lock. */
  clear(): Promise<void>
  /** Commits under `stamp`, recording `state` (the caller's, returned by `stats`) with it. */
  commit(stamp: string, state: string): Promise<void>
  /**
   * Looks at the session files in `sessionsDir` (`flat`: directly in it; otherwise one project
   * folder down) and reports those that differ from their records, after picking up other
   * processes' commits. With `compare` false, every file is reported changed. Folder listings
   * are remembered in `listingsFile` (see index/listing.rs). `early`, a look started before, is taken
   * for this one if it was of the same folder (and used up either way).
   */
  scan(sessionsDir: string, flat: boolean, compare: boolean, listingsFile?: string | undefined | null, early?: EarlyLook | undefined | null): Promise<NativeScan>
  /** The records of the files the selector names, sorted by path. */
  fileRecords(selector: NativeRecordSelector): Promise<NativeFileRecord[]>
  unlock(): Promise<void>
  /**
   * The hits of a search; by meaning or both (`request.matching`) with the meaning index given,
   * and the query's vector (`request.vector`) or the model that embeds it.
   */
  search(request: NativeSearchRequest, signal?: AbortSignal | undefined | null, meaning?: MeaningIndex | undefined | null, model?: MeaningModel | undefined | null): Promise<NativeFound>
  /**
   * The sessions that share the most of one session's distinctive words, or lie nearest it in
   * meaning, or both (search/related.rs).
   */
  related(request: NativeRelatedRequest, signal?: AbortSignal | undefined | null, meaning?: MeaningIndex | undefined | null): Promise<NativeRelated>
  /** The snippet of each text, as `search` makes it for text of that kind it keeps. */
  snippets(request: NativeSnippetRequest): Promise<NativeSnippet[]>
  /** The indexed tool calls that touched `file` (an absolute path), by session file. */
  callsTouching(file: string): Promise<NativeFileCall[]>
  /** Sessions matching the filters, most recently active first. */
  list(request: NativeListRequest): Promise<NativeSession[]>
}

/** An open tag database (see tags/store.rs); `close` ends it, after which every call fails. */
export declare class TagDatabase {
  /**
   * Opens (or creates, with `freshId`) the tag database at `path`; `now` stamps the restore
   * marker of a database made in place of an empty file.
   */
  static open(path: string, freshId: string, now: string): TagDatabase
  /** Random, made with the database: tells the index a replaced database from an edited one. */
  id(): string
  close(): void
  /** Manual, automatic and suppressed tags of a session, each in name order. */
  sets(sessionId: string): NativeTagSets
  /** A session's tags: manual ones, then automatic ones. */
  merged(sessionId: string): Array<string>
  /** Makes `tags` manual tags of the session, whatever they were. */
  addManual(sessionId: string, tags: Array<string>): Promise<void>
  /** Makes `tags` suppressed on the session, whether or not it had them. */
  suppress(sessionId: string, tags: Array<string>): Promise<void>
  /** Replaces the session's automatic tags; manual and suppressed ones stay as they are. */
  setAuto(sessionId: string, tags: Array<string>): Promise<void>
  /** Every tag in use with its number of sessions, most used first. */
  counts(): Array<NativeTagCount>
  /** The sessions edited after revision `seq`, with their merged tags, as one snapshot. */
  changesSince(seq: number): Promise<NativeTagChanges>
  /** Whether the database's meta table has `key`. */
  hasMeta(key: string): boolean
  /**
   * Adds the sessions' tags once, under `marker` (null if it was recorded before); rows already
   * here win, and within a session manual beats suppressed beats automatic. Returns how many
   * sessions gained a tag.
   */
  importOnce(marker: string, now: string, sessions: Array<NativeSessionTagSets>): Promise<number | null>
  /** Whether the database was made in place of an empty file and waits for the index's tags. */
  needsRestore(): boolean
  /** Takes the given tags as manual ones, once: null if another process already did. */
  restore(sessions: Array<NativeSessionTags>): Promise<number | null>
}

/**
 * BM25 of one session's messages against a question's terms, the texts added a part at a time
 * (words/relevance.rs): only what scoring needs of each is kept, not the texts.
 */
export declare class TextScorer {
  constructor(terms: Array<string>)
  /** Counts the next texts of the collection. */
  add(texts: Array<string>): void
  /** The score of each text added that holds a term (the others score 0), in the order added. */
  scores(): Array<NativeTextScore>
}

export declare function coreVersion(): string

/**
 * What is wrong with the files of the index in the cache folder `dir` and of its depth index,
 * read without opening them (index/integrity.rs, for `recall doctor`): one line per problem.
 */
export declare function indexFileProblems(dir: string): Promise<string[]>

/**
 * Whether file descriptor `fd` is a terminal: what Node's `tty.isatty` says, without loading
 * Node's tty module (it loads net and streams, milliseconds of a short command's start).
 */
export declare function isTerminal(fd: number): boolean

/** The project folders of a sessions directory in Pi's layout, by the rules of the scan. */
export declare function listProjectFolders(sessionsDir: string): Array<string>

/** Every session file in `sessionsDir` with its signature (as `changed`), without an index. */
export declare function listSessionFiles(sessionsDir: string, flat: boolean): Promise<NativeScan>

/**
 * The arithmetic a model loads with by default on this processor (MeaningModel.load): `int8`
 * where it has VNNI (AVX-VNNI or AVX-512 VNNI), else `float32`. Vectors of one are not read as the other's.
 */
export declare function meaningArithmetic(): string

/** A later page: the sessions after `place`, `shown` sessions having been shown up to it. */
export interface NativeAfter {
  place: NativePlace
  shown: number
}

/** With `after`: the sessions ranked at or before it, and the wrapping sum of their path keys (decimal). */
export interface NativeAhead {
  sessions: number
  digest: string
}

export interface NativeApplyCounts {
  removedPaths: number
  sessions: number
  messages: number
  tagUpdates: number
  files: number
}

/** What one `apply` changes (see index/changes.rs); an absent list changes nothing. */
export interface NativeChangeSet {
  /** Files that no longer exist: every document of theirs goes. */
  removePaths?: Array<string>
  sessions?: Array<NativeSessionUpdate>
  /** New records of files, replacing their old ones. */
  files?: Array<NativeFileRecordUpdate>
  tagUpdates?: Array<NativeTagUpdate>
}

export interface NativeFileCall {
  sessionPath: string
  tool: string
  entryId: string
  timestamp: number
}

export interface NativeFileRecord {
  path: string
  size: number
  mtimeMs: number
  ino: number
  sessionId: string
  /** The caller's own data, as it gave it. */
  state: string
}

/** A file's new record; `state` is the caller's own data about it, stored as given. */
export interface NativeFileRecordUpdate {
  path: string
  size: number
  mtimeMs: number
  ino: number
  /** The session id in the file's header (empty when it has none). */
  sessionId: string
  /** File name of the fork's parent session, if the file is a fork. */
  parentName?: string
  state: string
}

export interface NativeFilters {
  cwds?: Array<string>
  /** Only these sessions (by id): a session's summary by its id. */
  sessionIds?: Array<string>
  /** ms since epoch, inclusive. */
  since?: number
  until?: number
  /** Tags a session must all carry / must carry none of (normalized), as the index holds them. */
  tagsAll?: Array<string>
  tagsNone?: Array<string>
  /** Only these session files (by path). */
  paths?: Array<string>
}

export interface NativeFound {
  hits: Array<NativeHit>
  /** Each hit's place in the ranking, in the order of `hits`. */
  places: Array<NativePlace>
  /** With `after`: what ranked at or before it. */
  ahead?: NativeAhead
  /** The words of the query read as others (typos), in query order. */
  readAs: Array<NativeReadAs>
  /** With `matching` meaning or both: how many of the messages in scope the meaning index covers. */
  coverage?: NativeMeaningCoverage
  /**
   * With `matching` meaning or both: the vectors of the meaning index the search read, for a
   * later page to read the same (`vectors` of the request).
   */
  vectors?: number
}

export interface NativeHit {
  session: NativeSession
  score: number
  message?: NativeMessageRef
  snippet: string
  spans: Array<NativeSpan>
  /** `words`, `meaning` or `both`: which ranking found the session. */
  matchedBy: string
}

export interface NativeListRequest {
  limit: number
  filters?: NativeFilters
}

export interface NativeMeaningCoverage {
  /** Conversation messages whose vector the meaning index holds. */
  embedded: number
  /** Conversation messages in the index. */
  messages: number
}

export interface NativeMeaningStep {
  /** Texts embedded by this step (0: nothing was left to embed). */
  added: number
  /** The coverage after it. */
  coverage: NativeMeaningCoverage
}

/**
 * One normalized message, ready to index: consecutive same-role conversation text joined, or one
 * piece of another kind of text (a thinking block, a tool call, a tool's output).
 */
export interface NativeMessageDoc {
  /**
   * Position among the session's indexed conversation messages, from 0; text of another kind
   * has the position of the conversation message it came after (or during).
   */
  index: number
  role: string
  /** Pi entry id of the last joined entry (for v1 files, a line-based id). */
  entryId: string
  /** ms since epoch. */
  timestamp: number
  text: string
  /** `thinking`, `call` or `output`; absent for conversation. */
  kind?: string
  /** The tool of a call or output. */
  tool?: string
  /** Absolute paths of the files a call touched. */
  files?: Array<string>
  /**
   * Byte offset of the line of the entry the text came from, for text the index does not keep
   * (`TextKind::kept_whole`): its snippet is made from the session file.
   */
  lineOffset?: number
}

export interface NativeMessageRef {
  index: number
  role: string
  entryId: string
  timestamp: number
  /** `conversation`, `thinking`, `call` or `output`. */
  kind: string
  /** The tool of a call or output. */
  tool?: string
  /**
   * Where the entry's line starts in the session file, for text the index does not keep
   * whole (tool output): the hit has no snippet, `snippets` makes it from the entry's text.
   */
  lineOffset?: number
}

/** A session's place in a search's ranking (search/find.rs, `Place`): where a next page continues. */
export interface NativePlace {
  score: number
  /** ms since epoch. */
  lastActivity: number
  /** The session file's path key, in decimal (a u64). */
  key: string
}

/** A word of the query that no searched text holds, and the word one typo away it was read as. */
export interface NativeReadAs {
  word: string
  readAs: string
}

/** Which file records to read: exactly one of the fields, or none for all of them. */
export interface NativeRecordSelector {
  paths?: Array<string>
  /** Forks of these parent file names. */
  parentNames?: Array<string>
  sessionIdPrefix?: string
}

export interface NativeRelated {
  /** The session's distinctive words, best first: what it was looked up by. */
  words: Array<string>
  hits: Array<NativeRelatedHit>
  /** With "meaning" or "both": how many of the messages in scope the meaning index covers. */
  coverage?: NativeMeaningCoverage
}

export interface NativeRelatedHit {
  hit: NativeHit
  /** The distinctive words of the session asked about that this one holds, best first. */
  shared: Array<string>
}

export interface NativeRelatedRequest {
  /** The session's file, and its id. */
  path: string
  sessionId: string
  limit: number
  filters?: NativeFilters
  snippetChars?: number
  /** "words" (the default), "meaning" or "both": the latter two read the meaning index given. */
  matching?: string
}

export interface NativeScan {
  filesTotal: number
  unchanged: number
  changed: Array<NativeSessionFile>
  removed: Array<string>
  failures: Array<NativeScanFailure>
}

export interface NativeScanFailure {
  path: string
  reason: string
}

export interface NativeSearchRequest {
  query: string
  limit: number
  /** Match the unfinished last word as a prefix too. */
  prefix?: boolean
  filters?: NativeFilters
  /** The kinds of text to search: `conversation` (the default), `thinking`, `call`, `output`. */
  content?: Array<string>
  /** The time recency is measured from, ms since epoch (default: now). */
  now?: number
  /** Weight of the 7-day recency factor (default 0.2; 0 turns it off). */
  recencyWeight?: number
  /** Score added per distinct query word a message contains (default 6; 0 turns it off). */
  coordination?: number
  snippetChars?: number
  /**
   * What a word no searched text holds is read as: `correct` (the default: its nearest word,
   * named in `readAs`), `suggest` (itself, its nearest word named in `readAs`) or `off`.
   */
  typos?: string
  /** `meaning` or `both` (a `MeaningIndex` given with the request), `words` (the default). */
  matching?: string
  /**
   * The query's vector, with `matching` meaning or both; without it, the `model` given with
   * the request embeds the query on the meaning's thread while the words are searched.
   */
  vector?: Array<number>
  /**
   * With `matching` meaning or both: read only the first this many vectors of the meaning
   * index (what the first page of a search read: `vectors` of its answer), so that a build
   * appending meanwhile does not reorder the pages.
   */
  vectors?: number
  /** A later page: continue after the place of the previous page's last session. */
  after?: NativeAfter
}

/** A session's metadata: what list and search results show about it, and what a change set sends. */
export interface NativeSession {
  id: string
  /** Absolute path of the session file: the identity of a session in the index. */
  path: string
  cwd: string
  name?: string
  /** Header time, ms since epoch. */
  created: number
  /** Last message time, ms since epoch. */
  modified: number
  messageCount: number
  firstMessage: string
  /**
   * The start of its conversation (meaning/unit.rs), as the meaning index embeds it; given when
   * indexing, never read back.
   */
  opening?: string
  /** Path of the session this one was forked from. */
  parent?: string
  /** Merged manual and automatic tags, normalized by the caller. */
  tags: Array<string>
}

export interface NativeSessionFile {
  path: string
  size: number
  mtimeMs: number
  ino: number
}

export interface NativeSessionTags {
  sessionId: string
  tags: Array<string>
}

export interface NativeSessionTagSets {
  sessionId: string
  manual: Array<string>
  auto: Array<string>
  suppressed: Array<string>
}

export interface NativeSessionUpdate {
  session: NativeSession
  messages: Array<NativeMessageDoc>
  /**
   * Absent: replace every document of the session. A number k: an append; messages with an
   * index below k stay, those from k on are replaced by `messages` (the last message is
   * re-sent when the append continued it with the same role).
   */
  replaceFrom?: number
  /**
   * True for a further part of a session read in parts (a large file, sent as several updates
   * in order, with no commit between them): no message is deleted, its messages add to those
   * of the parts before, and its session document replaces theirs. Only a session's first
   * part replaces messages (`replaceFrom`, which a continued update does not read).
   */
  continued?: boolean
}

export interface NativeSnippet {
  snippet: string
  spans: Array<NativeSpan>
}

export interface NativeSnippetRequest {
  /** The query as `search` was given it. */
  query: string
  prefix?: boolean
  /** The kind of text the texts are. */
  kind: string
  /**
   * The kinds of text the search read (default: `kind` alone), so that a word it read as
   * another (a typo, see search/correction.rs) is read so here too.
   */
  content?: Array<string>
  texts: Array<string>
  snippetChars?: number
  /** As the search had it (`JsSearchRequest::typos`). */
  typos?: string
}

export interface NativeSpan {
  /** UTF-8 byte offset into the text it marks. */
  start: number
  end: number
}

export interface NativeStats {
  documents: number
  sessions: number
  /** The stamp given to the last commit; empty for a new index. */
  stamp: string
  /** The state given to the last commit; empty for a new index. */
  state: string
}

export interface NativeTagChanges {
  seq: number
  sessions: Array<NativeSessionTags>
}

export interface NativeTagCount {
  tag: string
  sessions: number
}

export interface NativeTagSets {
  manual: Array<string>
  auto: Array<string>
  suppressed: Array<string>
}

/**
 * New merged tags for every indexed file of one session id. Only the session document is
 * rewritten; message documents are untouched.
 */
export interface NativeTagUpdate {
  sessionId: string
  tags: Array<string>
}

export interface NativeTextScore {
  /** Position of the text among those added, from 0. */
  index: number
  /** BM25 against the terms, above 0. */
  score: number
  /** Where the text first holds its rarest term, as a JavaScript string index. */
  focus: number
}

/** For each of `texts`, the spans of its words that start with a word of `query` (words/marks.rs). */
export declare function prefixMarks(texts: Array<string>, query: string): Array<Array<NativeSpan>>

/** The distinct words of a question worth looking for, as the index cuts and folds them (words/relevance.rs). */
export declare function questionTerms(question: string): Array<string>

/** The problems SQLite's integrity check finds in the tag database at `path` (none: sound). */
export declare function tagDatabaseProblems(path: string): Array<string>

/** The text of the lock file at `path` while another process holds it; null when none does. */
export declare function textOfHeldLock(path: string): string | null
