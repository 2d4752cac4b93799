/**
 * Tagging sessions: what `recall tag`, `recall untag` and `recall tags` do, for any caller. Tags
 * are kept by session id in the tag store (tags/tag-store.ts); each edit is then written to the
 * index's session documents, so results show it and its words are searchable.
 */
import type { IndexStore } from "../store.js";
import { syncTags } from "../sync/apply-tags.js";
import { parseTags } from "../tags/normalize.js";
import { tagsFor } from "../tags/open-tags.js";
import type { TagCount } from "../tags/tag-store.js";
import type { SessionRef } from "./resolve-session.js";

export interface SessionTags {
  id: string;
  /** The session file it was named by (or found at). */
  path: string;
  /** What the session is tagged with: manual tags, then automatic ones. */
  tags: string[];
  manual: string[];
  auto: string[];
  /** Removed by the user: automatic tagging will not add these. */
  suppressed: string[];
}

export interface TagEdit {
  sessions: SessionTags[];
  /**
   * The tags are saved, but another process held the index for too long; the next sync applies
   * them.
   */
  indexBusy: boolean;
  /**
   * The tags are saved, but the cache cannot be written (read-only, full): why, naming the folder.
   */
  indexUnwritable?: string;
}

/** How long an edit waits for another process's index write before leaving the update for later. */
const INDEX_LOCK_TIMEOUT_MS = 30_000;

export async function sessionTags(store: IndexStore, session: SessionRef): Promise<SessionTags> {
  const sets = (await tagsFor(store)).sets(session.id);
  return { id: session.id, path: session.path, tags: [...sets.manual, ...sets.auto], ...sets };
}

/** Adds manual tags (`#` optional; normalized; one that normalizes to nothing is an error). */
export async function addTags(
  store: IndexStore,
  sessions: SessionRef[],
  tags: readonly string[],
): Promise<TagEdit> {
  const wanted = parseTags(tags);
  const tagStore = await tagsFor(store);
  for (const session of sessions) await tagStore.addManual(session.id, wanted);
  return applied(store, sessions);
}

/** Removes tags and suppresses them, so automatic tagging cannot bring them back. */
export async function removeTags(
  store: IndexStore,
  sessions: SessionRef[],
  tags: readonly string[],
): Promise<TagEdit> {
  const unwanted = parseTags(tags);
  const tagStore = await tagsFor(store);
  for (const session of sessions) await tagStore.suppress(session.id, unwanted);
  return applied(store, sessions);
}

/** Every tag in use with its number of sessions, most used first. */
export async function tagCounts(store: IndexStore): Promise<TagCount[]> {
  return (await tagsFor(store)).counts();
}

async function applied(store: IndexStore, sessions: SessionRef[]): Promise<TagEdit> {
  const { busy, unwritable } = await syncTags(store, { lockTimeoutMs: INDEX_LOCK_TIMEOUT_MS });
  const edit: TagEdit = {
    sessions: await Promise.all(sessions.map((session) => sessionTags(store, session))),
    indexBusy: busy,
  };
  if (unwritable) edit.indexUnwritable = unwritable.message;
  return edit;
}
