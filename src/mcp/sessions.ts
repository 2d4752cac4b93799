/**
 * Sessions as the MCP surface names them: an opaque `sref_…` for a session summary the library
 * gave, and back, through guarded reads only. A reference names a session id and the identity of
 * its file at the time; a file that fails the safety checks never gets one.
 */
import { createHmac } from "node:crypto";
import type { FileIdentity, Recall, SessionRef, SessionSummary } from "../index.js";
import { invalidRef, toToolError } from "./tool-error.js";
import type { Tokens } from "./tokens.js";

export interface NamedSession {
  session: SessionRef;
  file: FileIdentity;
}

export class McpSessions {
  constructor(
    readonly recall: Recall,
    private readonly tokens: Tokens,
    private readonly key: string,
  ) {}

  /** The session's reference, or the tool error saying why its file is not offered (too large, unsafe, gone). */
  refFor(session: SessionSummary): string | ReturnType<typeof toToolError> {
    try {
      return this.tokens.sessionRef({ id: session.id, file: this.recall.checkFile(session) });
    } catch (error) {
      return toToolError(error);
    }
  }

  /** An opaque, stable name of the project folder a session was run in. */
  projectId(cwd: string): string {
    return `proj_${createHmac("sha256", this.key).update(`project:${cwd}`).digest("hex").slice(0, 16)}`;
  }

  /** The session a reference names; refused (INVALID_SESSION_REF) before any look-up if the server did not make it. */
  async named(ref: string): Promise<NamedSession> {
    const token = this.tokens.readSessionRef(ref);
    if (!token) throw invalidRef();
    try {
      return { session: await this.recall.resolve(token.id), file: token.file };
    } catch (error) {
      throw toToolError(error);
    }
  }
}
