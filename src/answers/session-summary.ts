/** The session fields every result carries, in the shape of the documented JSON output. */
import type { NativeSession } from "../native/addon.js";
import { projectOf } from "../sessions/project-identity.js";

export interface SessionSummary {
  id: string;
  /** Absolute path of the session file: what `pi --session` takes. */
  path: string;
  cwd: string;
  /**
   * The session's project on any machine or clone: its folder's git remote, normalized
   * (`github.com/acme/app`), else the repository's top folder, else the folder itself.
   */
  project: string;
  name: string | null;
  /** ISO 8601 */
  created: string;
  /** ISO 8601: the last message. */
  modified: string;
  messageCount: number;
  firstMessage: string;
  /** The session this one was forked from (a path), if any. */
  parent: string | null;
  tags: string[];
}

export function iso(ms: number): string {
  return new Date(Number.isFinite(ms) ? ms : 0).toISOString();
}

export function toSummary(session: NativeSession): SessionSummary {
  return {
    id: session.id,
    path: session.path,
    cwd: session.cwd,
    project: projectOf(session.cwd),
    name: session.name ?? null,
    created: iso(session.created),
    modified: iso(session.modified),
    messageCount: session.messageCount,
    firstMessage: session.firstMessage,
    parent: session.parent ?? null,
    tags: session.tags,
  };
}
