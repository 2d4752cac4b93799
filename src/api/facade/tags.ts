/** The facade's tags: reading and editing a session's tags, and the tags in use. */
import { damagedTagStore } from "../../tags/open-tags.js";
import type { TagCount } from "../../tags/tag-store.js";
import type { SessionRef } from "../resolve-session.js";
import { addTags, removeTags, sessionTags, tagCounts, type SessionTags, type TagEdit } from "../tags.js";
import type { IndexLease } from "./lease.js";

export class Tags {
  constructor(private readonly lease: IndexLease) {}

  check(): void {
    const damaged = damagedTagStore(this.lease.store());
    if (damaged) throw damaged;
  }

  of(session: SessionRef): SessionTags {
    return sessionTags(this.lease.store(), session);
  }

  add(sessions: SessionRef[], tags: readonly string[]): Promise<TagEdit> {
    return this.lease.repairing(() => addTags(this.lease.store(), sessions, tags));
  }

  remove(sessions: SessionRef[], tags: readonly string[]): Promise<TagEdit> {
    return this.lease.repairing(() => removeTags(this.lease.store(), sessions, tags));
  }

  counts(): TagCount[] {
    return tagCounts(this.lease.store());
  }
}
