/**
 * The steps every write to the index shares (a sync of session files, a tag update): take the
 * writer lock, commit under a new stamp and save the sync state with that same stamp, release.
 * The shared stamp is what ties the state to the index (see state.ts): a crash between the
 * commit and the save leaves them different, and the next sync rebuilds.
 */
import { RecallError, native } from "../errors.js";
import { randomId } from "../hash.js";
import type { IndexStore } from "../store.js";
import { saveState, type SyncState } from "./state.js";

/**
 * Takes the writer lock; false when another process held it for longer than `timeoutMs`. A
 * `heavy` write (a first index, a large batch) gets more indexing threads.
 */
export async function lockIndex(store: IndexStore, timeoutMs: number, heavy = false): Promise<boolean> {
  try {
    await native(() => store.native.lock(timeoutMs, heavy));
    return true;
  } catch (error) {
    if (error instanceof RecallError && error.code === "LOCKED") return false;
    throw error;
  }
}

/** Commits what was applied and records the commit's stamp in `state`, then saves it. */
export async function commitIndex(store: IndexStore, state: SyncState): Promise<void> {
  state.stamp = randomId();
  await native(() => store.native.commit(state.stamp));
  saveState(store.statePath, state);
}

/** Releases the writer lock; anything applied but not committed is dropped. */
export async function unlockIndex(store: IndexStore): Promise<void> {
  await native(() => store.native.unlock());
}
