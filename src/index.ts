/**
 * recall as a library: the same functions the `recall` CLI, the Pi extension and the MCP server
 * call. Node ≥ 20; never imports Pi.
 */
export { openRecall, storeInPlace } from "./api/open.js";
export type { IndexStore, Locations, LocationOverrides } from "./api/open.js";
export { resolveLocations } from "./locations.js";
export { searchSessions, DEFAULT_LIMIT } from "./api/search.js";
export type { SearchOptions, SearchHit, MatchedMessage } from "./api/search.js";
export type { SessionSummary } from "./api/session-summary.js";
export { checkFreshness, readWhileSyncing, syncIndex } from "./sync/sync.js";
export type { Freshness, SyncOptions, SyncReport, SyncProgress, SyncFailure } from "./sync/sync.js";
export { watchSessions } from "./sync/watch.js";
export type { WatchOptions } from "./sync/watch.js";
export { readSessionForIndex } from "./sessions/session-index-reader.js";
export type { SessionRead, IndexedMessage, SessionHeaderInfo } from "./sessions/session-index-reader.js";
export { discoverSessionFiles } from "./sessions/discover.js";
export { RecallError } from "./errors.js";
export type { RecallErrorCode } from "./errors.js";
export { listSessions, DEFAULT_LIST_LIMIT } from "./api/list.js";
export type { ListOptions } from "./api/list.js";
export { resolveSession } from "./api/resolve-session.js";
export type { SessionRef } from "./api/resolve-session.js";
export { readSession, DEFAULT_PAGE_CHARS } from "./api/read.js";
export type { ReadOptions, ReadMessage, ReadPage, ReadResult } from "./api/read.js";
export { sessionContext, DEFAULT_CONTEXT_CHARS } from "./api/context.js";
export type { ContextOptions, ContextMessage, ContextSummary, ContextResult } from "./api/context.js";
export { resumePlan } from "./api/resume.js";
export type { ResumePlan } from "./api/resume.js";
export { readSessionTree, activeBranch, depthFirst } from "./sessions/session-tree.js";
export type { SessionTree, TreeEntry, TreeHeader } from "./sessions/session-tree.js";
export { transcript } from "./sessions/transcript.js";
export type { TranscriptItem, TranscriptMode, TranscriptOptions } from "./sessions/transcript.js";
export { addTags, removeTags, sessionTags, tagCounts } from "./api/tags.js";
export type { SessionTags, TagEdit } from "./api/tags.js";
export { tagsFor } from "./tags/open-tags.js";
export { TagStore } from "./tags/tag-store.js";
export type { TagSets, TagCount } from "./tags/tag-store.js";
export { normalizeTag } from "./tags/normalize.js";
export { parseTagQuery } from "./tags/query-tags.js";
export type { TagQuery } from "./tags/query-tags.js";
export { syncTags } from "./sync/apply-tags.js";
export type { TagSyncReport } from "./sync/apply-tags.js";
