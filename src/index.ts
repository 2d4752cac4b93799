/**
 * recall as a library: the `Recall` facade and the types of what it takes and gives. The CLI,
 * the Pi extension and the MCP server import this module and nothing else of the library (a
 * test checks it). Node ≥ 20; never imports Pi.
 */
export { Recall } from "./api/recall.js";
export type { RecallOptions, Freshness, SyncRequest, Resolved, ModelChoice } from "./api/recall.js";
export type { IndexCheck } from "./native/index-handle.js";
export type { ModelCaller, ModelQuestion } from "./api/pi-model.js";
export { startEarlyLook } from "./api/early-look.js";
export type { EarlyLook } from "./sessions/discover.js";
export { RecallError } from "./errors.js";
export { RECALL_VERSION } from "./version.js";
export type { Versions } from "./api/versions.js";
export type { RecallErrorCode, RecallErrorDetails } from "./errors.js";
export type { Notice, NoticeCode } from "./api/notices.js";
export type { Locations, LocationOverrides, SessionsFolderProblem, SessionsSource } from "./locations.js";
export { DEFAULT_LIMIT, MAX_LIMIT, TYPO_MODES } from "./api/search.js";
export { CONTENT_SCOPES } from "./api/content-scope.js";
export type { ContentScope, TextKind } from "./api/content-scope.js";
export type { FileCall } from "./api/touched-file.js";
export type { SearchOptions, SearchPage, SearchHit, MatchedMessage, ReadAs, Suggestion, Typos } from "./api/search.js";
export type { SessionSummary } from "./api/session-summary.js";
export type { SessionRef } from "./api/resolve-session.js";
export { MAX_SESSION_BYTES } from "./api/session-file-guard.js";
export type { FileIdentity } from "./api/session-file-guard.js";
export { DEFAULT_LIST_LIMIT } from "./api/list.js";
export type { ListOptions } from "./api/list.js";
export { DEFAULT_PAGE_CHARS } from "./api/read.js";
export type { ReadOptions, ReadMessage, ReadPage, ReadResult } from "./api/read.js";
export { TRANSCRIPT_MODES } from "./sessions/transcript.js";
export type { TranscriptMode } from "./sessions/transcript.js";
export { DEFAULT_CONTEXT_CHARS } from "./api/context.js";
export type { ContextOptions, ContextMessage, ContextSummary, ContextResult } from "./api/context.js";
export type { ResumePlan } from "./api/resume.js";
export type { SessionTags, TagEdit } from "./api/tags.js";
export type { TagCount } from "./tags/tag-store.js";
export type { SyncReport, SyncProgress, SyncFailure, MalformedFile } from "./sync/sync.js";
export type { MalformedLine } from "./sessions/lines.js";
export type { AskOptions, AskResult } from "./api/ask.js";
export type { DoctorCheck, DoctorCheckName, DoctorFix } from "./api/doctor.js";
export type { AutoTagOptions, AutoTagResult } from "./api/autotag.js";
export type { AutoTagConfig, LoadedConfig, PickerScope, RecallConfig } from "./api/config.js";
export type { WatchOptions } from "./sync/watch.js";
export { SESSION_TOOL_LIMITS, SESSION_TOOL_MODES } from "./api/session-tools/limits.js";
export type { SessionToolMode } from "./api/session-tools/limits.js";
export { SESSION_TOOL_TEXT } from "./api/session-tools/descriptions.js";
export type { SessionQuery, SessionSearchArgs } from "./api/session-tools/session-query.js";
export type { SessionPage, SessionPageRequest, IndexingProgress } from "./api/session-tools/session-page.js";
export type { Archive } from "./archive/archive.js";
export { PUSHED_CONTENT } from "./archive/remotes.js";
export type { Remote, RemoteSettings, PushedContent } from "./archive/remotes.js";
export type { RemoteCheck } from "./archive/remote-check.js";
export type { PushOptions, PushReport } from "./archive/push.js";
export type { ArchiveDocument, IdentifiedDocument } from "./archive/documents.js";
export type { ArchiveSearchOptions, ArchiveSearchPage, ArchiveHit, Origin } from "./archive/search.js";
export type { ArchiveReadOptions, ArchiveReadResult } from "./archive/read.js";
