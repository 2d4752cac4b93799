/**
 * recall as a library: the `Recall` facade (its parts are properties: `recall.tags`, `.meaning`,
 * `.models`, `.exports`, `.sessionTools`, `.archive`), a few pure functions, and the types and
 * constants of what they take and give. The CLI, the Pi extension, the MCP server and `recall
 * serve` import this module and nothing else of the library (a test checks it). Node ≥ 20; never
 * imports Pi.
 */
export { Recall } from "./api/recall.js";
export type { RecallOptions, Freshness, SyncRequest, Resolved, ModelChoice } from "./api/recall.js";
export type { IndexCheck } from "./native/index-handle.js";
export type { ModelCaller, ModelQuestion } from "./api/pi-model.js";
export { startEarlyLook } from "./api/early-look.js";
// Pure helpers the adapters share: no index, no state.
export { resolveLocations as locate } from "./locations.js";
export { versions } from "./api/versions.js";
export { isTerminal } from "./api/terminal.js";
export { prefixMarks as wordMarks } from "./native/words.js";
export { normalizeTag, parseTags } from "./tags/normalize.js";
export { projectOf } from "./sessions/project-identity.js";
export { meaningIncomplete } from "./api/meaning.js";
// The pi_session_* tools' arguments, checked and turned into a search (`recall.sessionTools.page`
// takes it).
export {
  searchQuery as sessionSearchQuery,
  findQuery as sessionFindQuery,
  listQuery as sessionListQuery,
} from "./api/session-tools/session-query.js";
export {
  checkedPageChars as sessionPageChars,
  readMode as sessionReadMode,
} from "./api/session-tools/session-query.js";
export type { EarlyLook } from "./sessions/discover.js";
export { RecallError } from "./errors.js";
export { RECALL_VERSION } from "./version.js";
export type { Versions } from "./api/versions.js";
export type { RecallErrorCode, RecallErrorDetails } from "./errors.js";
export type { Notice, NoticeCode } from "./api/notices.js";
export type {
  Locations,
  LocationOverrides,
  SessionsFolderProblem,
  SessionsSource,
} from "./locations.js";
export { DEFAULT_LIMIT, MAX_LIMIT } from "./answers/limits.js";
export { TYPO_MODES } from "./api/search.js";
export { CONTENT_SCOPES } from "./sessions/content-scope.js";
export { MATCH_MODES } from "./answers/search-hit.js";
export { MODEL_PACKAGE_NAME } from "./api/meaning-model.js";
export type { Match } from "./answers/search-hit.js";
export type { MeaningCoverage, MeaningBuildOptions, MeaningReport } from "./api/meaning.js";
export type { ContentScope, TextKind } from "./sessions/content-scope.js";
export type { FileCall } from "./answers/search-hit.js";
export type { SearchHit, MatchedMessage } from "./answers/search-hit.js";
export type { SearchOptions, SearchPage, ReadAs, Suggestion, Typos } from "./api/search.js";
export { DEFAULT_RELATED_LIMIT } from "./api/related.js";
export type { RelatedOptions, RelatedHit, RelatedPage } from "./api/related.js";
export type { SessionSummary } from "./answers/session-summary.js";
export type { SessionRef } from "./api/resolve-session.js";
export { MAX_SESSION_BYTES } from "./sessions/file-guard.js";
export type { FileIdentity } from "./sessions/file-guard.js";
export { DEFAULT_LIST_LIMIT } from "./api/list.js";
export type { ListOptions } from "./api/list.js";
export { DEFAULT_PAGE_CHARS } from "./answers/limits.js";
export type { ReadMessage, ReadPage } from "./answers/read-page.js";
export type { ReadOptions, ReadResult } from "./api/read.js";
export { TRANSCRIPT_MODES } from "./sessions/transcript.js";
export type { TranscriptMode } from "./sessions/transcript.js";
export { DEFAULT_CONTEXT_CHARS } from "./api/context.js";
export type {
  ContextOptions,
  ContextMessage,
  ContextSummary,
  ContextResult,
} from "./api/context.js";
export type { ResumePlan } from "./api/resume.js";
export { EXPORT_FORMATS } from "./api/export.js";
export { DEFAULT_STATS_FILES } from "./api/stats.js";
export type { Activity, Stats, StatsOptions } from "./api/stats.js";
export type { ExportedSession, ExportFormat, ExportOptions } from "./api/export.js";
export type { SessionView, ConversationPart, HeaderField } from "./api/session-view.js";
export type {
  DocumentBlock,
  DocumentEntry,
  EntryKind,
  SessionDocument,
  Usage,
} from "./sessions/session-document.js";
export type { SessionTags, TagEdit } from "./api/tags.js";
export type { TagCount } from "./tags/tag-store.js";
export type { SyncReport, SyncProgress, SyncFailure, MalformedFile } from "./sync/sync.js";
export type { MalformedLine } from "./sessions/lines.js";
export type { AskOptions, AskResult } from "./api/ask.js";
export type { DoctorCheck, DoctorCheckName, DoctorFix } from "./api/doctor.js";
export type { AutoTagOptions, AutoTagResult } from "./api/autotag.js";
export type { AutoTagConfig, LoadedConfig, PickerScope, RecallConfig } from "./config.js";
export type { WatchOptions } from "./sync/watch.js";
export { SESSION_TOOL_LIMITS, SESSION_TOOL_MODES } from "./api/session-tools/limits.js";
export type { SessionToolMode } from "./api/session-tools/limits.js";
export { SESSION_TOOL_TEXT } from "./api/session-tools/descriptions.js";
export type { SessionQuery, SessionSearchArgs } from "./api/session-tools/session-query.js";
export type {
  SessionPage,
  SessionPageRequest,
  IndexingProgress,
} from "./api/session-tools/session-page.js";
export type { Archive } from "./archive/archive.js";
export { PUSHED_CONTENT } from "./archive/remotes.js";
export type { Remote, RemoteSettings, PushedContent } from "./archive/remotes.js";
export type { RemoteCheck } from "./archive/remote-check.js";
export type { PushOptions, PushReport } from "./archive/push.js";
export type { ForgetOptions, ForgetReport } from "./archive/forget.js";
export type { PullResult } from "./archive/pull.js";
export type { KeptFile } from "./archive/kept-files.js";
export type { PushOnChange } from "./archive/push-on-change.js";
export type { ArchiveDocument, IdentifiedDocument, Redactions } from "./archive/documents.js";
export type { SecretCheckReport, SessionSecrets, SecretFind } from "./archive/secret-check.js";
export type {
  ArchiveSearchOptions,
  ArchiveSearchPage,
  ArchiveHit,
  Origin,
} from "./archive/search.js";
export type { ArchiveReadOptions, ArchiveReadResult } from "./archive/read.js";
