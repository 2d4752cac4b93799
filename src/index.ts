/**
 * recall as a library: the same functions the `recall` CLI, the Pi extension and the MCP server
 * call. Node ≥ 20; never imports Pi.
 */
export { openRecall } from "./api/open.js";
export type { IndexStore, Locations, LocationOverrides } from "./api/open.js";
export { resolveLocations } from "./locations.js";
export { searchSessions, DEFAULT_LIMIT } from "./api/search.js";
export type { SearchOptions, SearchHit, MatchedMessage } from "./api/search.js";
export type { SessionSummary } from "./api/session-summary.js";
export { syncIndex } from "./sync/sync.js";
export type { SyncOptions, SyncReport, SyncProgress, SyncFailure } from "./sync/sync.js";
export { readSessionForIndex } from "./sessions/session-index-reader.js";
export type { SessionRead, IndexedMessage, SessionHeaderInfo } from "./sessions/session-index-reader.js";
export { discoverSessionFiles } from "./sessions/discover.js";
export { RecallError } from "./errors.js";
export type { RecallErrorCode } from "./errors.js";
