/**
 * Sessions as the MCP surface names them: an opaque `sref_…` for a session summary the library
 * gave, and back, through guarded reads only. A reference names a session id and the identity of
 * its file at the time; a file that fails the safety checks never gets one.
 */
import { createHmac } from "node:crypto";
import type { FileIdentity, Recall, SessionRef, SessionSummary } from "../index.js";
import { archivedOnlyRead, invalidRef, remoteScopeUnavailable, toToolError } from "./tool-error.js";
import type { ArchivedToken, Tokens } from "./tokens.js";

export interface NamedSession {
  session: SessionRef;
  file: FileIdentity;
}

export class McpSessions {
  constructor(
    readonly recall: Recall,
    private readonly tokens: Tokens,
    private readonly key: string,
    /** The remote of `--remote`, whose sessions' references this server reads. */
    private readonly remote: string | undefined,
  ) {}

  /**
   * The session's reference, or the tool error saying why its file is not offered (too large,
   * unsafe, gone).
   */
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

  /**
   * The archived session a reference names, if it names one (undefined for a local reference);
   * refused when this server was not started with that remote.
   */
  archived(ref: string): ArchivedToken | undefined {
    const token = this.tokens.readArchivedRef(ref);
    if (token && token.remote !== this.remote) throw remoteScopeUnavailable();
    return token;
  }

  /**
   * The session a reference names; refused (INVALID_SESSION_REF) before any look-up if the server
   * did not make it.
   */
  async named(ref: string): Promise<NamedSession> {
    const token = this.tokens.readSessionRef(ref);
    if (!token) throw this.tokens.readArchivedRef(ref) ? archivedOnlyRead() : invalidRef();
    try {
      return { session: await this.recall.resolve(token.id), file: token.file };
    } catch (error) {
      throw toToolError(error);
    }
  }
}
