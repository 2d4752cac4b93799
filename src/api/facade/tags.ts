/**
 * The facade's tags (`recall.tags`): reading and editing a session's tags, the tags in use, and
 * the sessions without any.
 */
import type { SessionSummary } from "../../answers/session-summary.js";
import { damagedTagStore } from "../../tags/open-tags.js";
import type { TagCount } from "../../tags/tag-store.js";
import { listEverySession, type ListOptions } from "../list.js";
import type { SessionRef } from "../resolve-session.js";
import {
  addTags,
  removeTags,
  sessionTags,
  tagCounts,
  type SessionTags,
  type TagEdit,
} from "../tags.js";
import type { Freshness, IndexLease } from "./lease.js";

export class Tags {
  constructor(private readonly lease: IndexLease) {}

  /**
   * Throws the error a damaged tag database gives: tag operations and `#tag` filters stop on it.
   */
  async check(): Promise<void> {
    const damaged = await damagedTagStore(await this.lease.store());
    if (damaged) throw damaged;
  }

  /** A session's manual, automatic and suppressed tags. */
  async of(session: SessionRef): Promise<SessionTags> {
    return sessionTags(await this.lease.store(), session);
  }

  /** Adds manual tags (`#` optional, normalized); the index shows them at once. */
  add(sessions: SessionRef[], tags: readonly string[]): Promise<TagEdit> {
    return this.lease.repairing(async () => addTags(await this.lease.store(), sessions, tags));
  }

  /** Removes tags and keeps automatic tagging from adding them back. */
  remove(sessions: SessionRef[], tags: readonly string[]): Promise<TagEdit> {
    return this.lease.repairing(async () => removeTags(await this.lease.store(), sessions, tags));
  }

  /** Every tag in use with its number of sessions, most used first. */
  async counts(): Promise<TagCount[]> {
    return tagCounts(await this.lease.store());
  }

  /** Sessions without any tag, most recently active first (what `autotag --all-untagged` takes). */
  async untagged(options: ListOptions & Freshness = {}): Promise<SessionSummary[]> {
    const all = await this.lease.fresh(options, (store) => listEverySession(store, options));
    const untagged = all.filter((s) => s.tags.length === 0);
    return options.limit === undefined ? untagged : untagged.slice(0, options.limit);
  }
}
