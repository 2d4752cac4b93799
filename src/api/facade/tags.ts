/** The facade's tags: reading and editing a session's tags, and the tags in use. */
import { damagedTagStore } from "../../tags/open-tags.js";
import type { TagCount } from "../../tags/tag-store.js";
import type { SessionRef } from "../resolve-session.js";
import { addTags, removeTags, sessionTags, tagCounts, type SessionTags, type TagEdit } from "../tags.js";
import type { IndexLease } from "./lease.js";

export class Tags {
  constructor(private readonly lease: IndexLease) {}

  async check(): Promise<void> {
    const damaged = await damagedTagStore(await this.lease.store());
    if (damaged) throw damaged;
  }

  async of(session: SessionRef): Promise<SessionTags> {
    return sessionTags(await this.lease.store(), session);
  }

  add(sessions: SessionRef[], tags: readonly string[]): Promise<TagEdit> {
    return this.lease.repairing(async () => addTags(await this.lease.store(), sessions, tags));
  }

  remove(sessions: SessionRef[], tags: readonly string[]): Promise<TagEdit> {
    return this.lease.repairing(async () => removeTags(await this.lease.store(), sessions, tags));
  }

  async counts(): Promise<TagCount[]> {
    return tagCounts(await this.lease.store());
  }
}
