/**
 * What the background thread (background-worker.mjs) runs: opening an index, syncing it and
 * reading a session file or the part of one that bears on a question, and counting the work
 * (stats), as the facade runs them on its own thread.
 */
export { openStore, storeInPlace } from "../store.js";
export { resolveLocations } from "../locations.js";
export { syncIndex } from "../sync/sync.js";
export { readSession } from "./read.js";
export { sessionContext } from "./context.js";
export { workStats } from "./stats.js";
export { asRecallError } from "../errors.js";
