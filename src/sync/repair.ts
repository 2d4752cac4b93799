/**
 * What follows a failure that may come from a damaged index: a check of every segment file's
 * checksum (native/src/integrity.rs), and when one fails, the same replacement and rebuild from
 * the session files as for an index that cannot be opened (tags come back from the tag store).
 * The check reads the whole index, so it is made only after something went wrong.
 */
import { RecallError } from "../errors.js";
import type { Locations } from "../locations.js";
import { openStore } from "../store.js";
import { syncIndex, type SyncReport } from "./sync.js";

/** Errors that cannot come from damaged index files: they are what they say. */
const NOT_DAMAGE = new Set(["LOCKED", "NOT_FOUND", "AMBIGUOUS", "BAD_INPUT", "INCOMPATIBLE"]);

/** Whether `error` might come from damaged index files: a panic, a read error, corrupt data. */
export function mayComeFromDamage(error: unknown): boolean {
  if (error instanceof RecallError) return !NOT_DAMAGE.has(error.code);
  return error instanceof Error;
}

export interface Repair {
  /** The one-line notice that the index was replaced. */
  notices: string[];
  report: SyncReport;
}

/** Checks the index; if files are damaged, replaces it and fills it again. Undefined when intact. */
export async function repairIfDamaged(locations: Locations): Promise<Repair | undefined> {
  const store = await openStore(locations, { verify: true });
  if (!store.replaced) return undefined;
  return { notices: store.notices, report: await syncIndex(store) };
}
