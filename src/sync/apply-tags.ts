/**
 * Brings the tags in the index up to date with the tag store. Only session documents are
 * rewritten (the change set's `tagUpdates`); message documents stay as they are.
 *
 * The index state (see state.ts) records which store and which revision the index last applied.
 * Whatever the store holds beyond that is sent: the edit just made, and any edit whose index update
 * never happened (a crash between the two writes, a writer lock held elsewhere for too long). A
 * store the index has not seen before (the tag database was deleted or replaced) is applied whole,
 * clearing the tags of every known session that no longer has any.
 */
import type { RecallError } from "../errors.js";
import type { IndexStore } from "../store.js";
import { hasTagData, tagsFor } from "../tags/open-tags.js";
import { restoreEmptiedTags } from "../tags/restore-tags.js";
import type { TagChanges, TagStore } from "../tags/tag-store.js";
import {
  cannotWrite,
  cannotWriteIn,
  commitIndex,
  diskFull,
  lockIndex,
  unlockIndex,
} from "./index-writer.js";
import { indexState, type IndexState } from "./state.js";

export interface TagSyncOptions {
  /** How long to wait for another process's write to finish (default 5 s). */
  lockTimeoutMs?: number;
}

export interface TagSyncReport {
  /** Sessions whose tags were rewritten in the index. */
  updated: number;
  /** True when another process held the writer lock too long: the update is left for later. */
  busy: boolean;
  /** Why the cache refused the write (read-only, full), naming it: the update is left for later. */
  unwritable?: RecallError;
}

/** What the index has not applied yet, or undefined when it is up to date. */
async function pending(
  store: IndexStore,
  state: IndexState,
  tags: TagStore,
): Promise<TagChanges | undefined> {
  if (state.tags && state.tags.store !== tags.id) {
    const changes = await tags.changesSince(0);
    const tagged = new Set(changes.sessions.map((s) => s.sessionId));
    for (const { sessionId } of await store.native.fileRecords({})) {
      if (tagged.has(sessionId)) continue;
      tagged.add(sessionId);
      changes.sessions.push({ sessionId, tags: [] });
    }
    return changes;
  }
  // No record: the last rebuild read tags from this store, or there never were any.
  const changes = await tags.changesSince(state.tags?.seq ?? 0);
  return changes.sessions.length > 0 ? changes : undefined;
}

export async function syncTags(
  store: IndexStore,
  options: TagSyncOptions = {},
): Promise<TagSyncReport> {
  const report: TagSyncReport = { updated: 0, busy: false };
  const quick = await indexState(store);
  // Without tag data there is nothing to apply, unless the index holds tags of a database that was
  // removed.
  if (!quick.tags && !hasTagData(store)) return report;
  const tags = await tagsFor(store);
  // Before an emptied database is taken for a replaced one, which would clear the index's copy.
  await restoreEmptiedTags(store);
  if (!(await pending(store, quick, tags))) return report;

  try {
    return await applyLocked(store, tags, options, report);
  } catch (error) {
    // A cache that cannot be written to (read-only, full): the edit is in the tag store, and
    // the index takes it at its next update.
    const refused = cannotWriteIn(store, diskFull(store, error));
    if (!cannotWrite(refused)) throw error;
    return { updated: 0, busy: false, unwritable: refused as RecallError };
  }
}

async function applyLocked(
  store: IndexStore,
  tags: TagStore,
  options: TagSyncOptions,
  report: TagSyncReport,
): Promise<TagSyncReport> {
  if (!(await lockIndex(store, options.lockTimeoutMs ?? 5000))) {
    report.busy = true;
    return report;
  }
  try {
    // Another process may have written while this one waited for the lock.
    await store.native.reload();
    const state = await indexState(store);
    const changes = await pending(store, state, tags);
    if (!changes) return report;
    await store.native.apply({ tagUpdates: changes.sessions });
    await commitIndex(store, { ...state, tags: { store: tags.id, seq: changes.seq } });
    report.updated = changes.sessions.length;
  } finally {
    await unlockIndex(store);
  }
  return report;
}
