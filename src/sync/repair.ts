/**
 * What follows a failure that may come from a damaged index: a check of every segment file's
 * checksum (native/src/index/integrity.rs), and when one fails, the same replacement and rebuild
 * from the session files as for an index that cannot be opened (tags come back from the tag store).
 * The check reads the whole index, so it is made only after something went wrong.
 */
import { RecallError, type RecallErrorCode } from "../errors.js";
import type { Locations } from "../locations.js";
import { openStore } from "../store.js";
import { syncIndex, type SyncReport } from "./sync.js";

/**
 * What damaged index files make the core report, and nothing else: an allow-list, so that an
 * error of another kind (a bad cursor, a session file gone, a refused file, a network failure, a
 * bug) is never answered with a check that reads the whole index. Native errors cross threads
 * and the worker as a code and a message, so these are read from the two.
 */
const DAMAGE_SIGNATURES: readonly { code: RecallErrorCode; message: RegExp }[] = [
  // Tantivy's data corruption, a segment file missing or unreadable, data that cannot be decoded,
  // a failed checksum; the tag database's own damage is not the index's.
  { code: "CORRUPT", message: /^(?!the tag database)/ },
  // A panic of the core while it read or wrote index files (a damaged file it trusted).
  { code: "INTERNAL", message: /^(the search core|opening the index|writing the index) panicked/ },
];

/** Whether `error` might come from damaged index files. */
export function mayComeFromDamage(error: unknown): boolean {
  if (!(error instanceof RecallError)) return false;
  return DAMAGE_SIGNATURES.some(
    ({ code, message }) => error.code === code && message.test(error.message),
  );
}

export interface Repair {
  /** The one-line notice that the index was replaced. */
  notices: string[];
  report: SyncReport;
}

/**
 * Checks the index; if files are damaged, replaces it and fills it again. Undefined when intact.
 */
export async function repairIfDamaged(locations: Locations): Promise<Repair | undefined> {
  const store = await openStore(locations, { check: "every" });
  if (!store.replaced) return undefined;
  return { notices: store.notices, report: await syncIndex(store) };
}
