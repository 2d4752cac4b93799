/**
 * A freshness check started ahead of the query it is for: the one stat per session file that is
 * the longest part of a query on a large history, on threads of its own, so that it overlaps
 * whatever the caller does before it asks (the CLI: loading itself and parsing its command
 * line). Pass the look to the query as `early`; a look no query takes is only wasted work, and
 * a query of another folder drops it.
 */
import { resolveLocations, type LocationOverrides } from "../locations.js";
import { startEarlyLook as startLook, type EarlyLook } from "../sessions/discover.js";
import { watcherKeepsFresh } from "../sync/watch-lock.js";

/**
 * The look, or undefined when `recall watch` keeps the index fresh (a query then checks nothing).
 */
export function startEarlyLook(overrides: LocationOverrides = {}): EarlyLook | undefined {
  const locations = resolveLocations(overrides);
  return watcherKeepsFresh(locations) ? undefined : startLook(locations);
}
