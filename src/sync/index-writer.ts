/**
 * The steps every write to the index shares (a sync of session files, a tag update): take the
 * writer lock, commit under a new stamp with the index state (see state.ts), release.
 */
import { statfsSync } from "node:fs";
import { RecallError } from "../errors.js";
import { randomId } from "../hash.js";
import type { IndexStore } from "../store.js";
import type { IndexState } from "./state.js";

/**
 * Takes the writer lock; false when another process held it for longer than `timeoutMs`. A
 * `heavy` write (a first index, a large batch) gets more indexing threads.
 */
export async function lockIndex(
  store: IndexStore,
  timeoutMs: number,
  heavy = false,
): Promise<boolean> {
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

/** Free space below which a failed write is taken for a full disk. */
const MIN_FREE_BYTES = 1 << 20;

function freeBytes(folder: string): number {
  try {
    const { bavail, bsize } = statfsSync(folder);
    return bavail * bsize;
  } catch {
    return Infinity;
  }
}

/** Whether `error` says the cache folder cannot be written to (read-only, no permission, full). */
export function cannotWrite(error: unknown): boolean {
  return (
    error instanceof RecallError &&
    error.code === "IO" &&
    /Read-only file system|Permission denied|EROFS|EACCES|the disk is full/.test(error.message)
  );
}

/**
 * Why the cache refused a write (`Read-only file system (os error 30)`), without the words
 * around it, for a line that says which folder itself.
 */
export function refusal(store: IndexStore, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  for (const prefix of [
    `cannot write to the index in ${store.locations.cacheDir}: `,
    "cannot write to the index: ",
  ]) {
    if (message.startsWith(prefix)) return message.slice(prefix.length);
  }
  return message;
}

/**
 * A refused write as the error of a command that writes the index: one line that names the folder.
 */
export function cannotWriteIn(store: IndexStore, error: unknown): unknown {
  if (!cannotWrite(error) || (error as Error).message.includes(store.locations.cacheDir))
    return error;
  return new RecallError(
    "IO",
    `cannot write to the index in ${store.locations.cacheDir}: ${refusal(store, error)}`,
  );
}

/**
 * A write that failed because the disk is full, as one line that says so and where. Nothing of
 * the sync was committed: the index stays as its last commit left it.
 */
export function diskFull(store: IndexStore, error: unknown): unknown {
  const message = error instanceof Error ? error.message : String(error);
  // Tantivy's indexing threads report only that they failed: the free space tells why.
  if (
    !/No space left on device|ENOSPC|StorageFull/.test(message) &&
    freeBytes(store.locations.cacheDir) >= MIN_FREE_BYTES
  )
    return error;
  return new RecallError(
    "IO",
    `the disk is full: no space left on device for ${store.locations.cacheDir}`,
  );
}
