/** The session Pi has open, as the library names sessions. */
import type { ExtensionContext } from "@earendil-works/pi-coding-agent";
import { RecallError, type SessionRef } from "../index.js";

type ReadonlySessionManager = ExtensionContext["sessionManager"];

export function currentSessionRef(ctx: {
  cwd: string;
  sessionManager: Pick<ReadonlySessionManager, "getSessionId" | "getSessionFile" | "getCwd">;
}): SessionRef {
  const path = ctx.sessionManager.getSessionFile();
  if (!path) {
    throw new RecallError(
      "BAD_INPUT",
      "this session is not saved (pi --no-session), so it cannot be tagged",
    );
  }
  return {
    id: ctx.sessionManager.getSessionId(),
    path,
    cwd: ctx.sessionManager.getCwd() || ctx.cwd,
  };
}

/** The open session's id and file, for the picker to refuse resuming it. */
export function currentSession(ctx: {
  sessionManager: Pick<ReadonlySessionManager, "getSessionId" | "getSessionFile">;
}): { id?: string; path?: string } {
  const id = ctx.sessionManager.getSessionId();
  const path = ctx.sessionManager.getSessionFile();
  return { ...(id ? { id } : {}), ...(path ? { path } : {}) };
}
