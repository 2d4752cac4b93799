/**
 * The steps every write to the index shares (a sync of session files, a tag update): take the
 * writer lock, commit under a new stamp with the index state (see state.ts), release.
 */
import { RecallError } from "../errors.js";
import { randomId } from "../hash.js";
import type { IndexStore } from "../store.js";
import type { IndexState } from "./state.js";

/**
 * Takes the writer lock; false when another process held it for longer than `timeoutMs`. A
 * `heavy` write (a first index, a large batch) gets more indexing threads.
 */
export async function lockIndex(store: IndexStore, timeoutMs: number, heavy = false): Promise<boolean> {
  try {
    await store.native.lock(timeoutMs, heavy);
    return true;
  } catch (error) {
    if (error instanceof RecallError && error.code === "LOCKED") return false;
    throw error;
  }
}

/** Commits what was applied, recording `state` with it. */
export async function commitIndex(store: IndexStore, state: IndexState): Promise<void> {
  await store.native.commit(randomId(), JSON.stringify(state));
}

/** Releases the writer lock; anything applied but not committed is dropped. */
export async function unlockIndex(store: IndexStore): Promise<void> {
  await store.native.unlock();
}
