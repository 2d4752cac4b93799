/**
 * The facade's exports: a session as a document to render, rendered as Markdown or HTML (see
 * export.ts), or as a page shows it (session-view.ts). Each holds the whole session in memory: its
 * file is checked first to be a regular file of at most `MAX_SESSION_BYTES` (file-guard.ts),
 * before anything of it is read.
 */
import { exportedSession, exportSession, type ExportedSession, type ExportOptions } from "../export.js";
import type { SessionRef } from "../resolve-session.js";
import { loadRenderers, sessionStylesheet, sessionView, type SessionView } from "../session-view.js";
import { checkWholeSessionFile, MAX_SESSION_BYTES } from "../../sessions/file-guard.js";
import type { SessionSummary } from "../../answers/session-summary.js";
import type { Sessions } from "./sessions.js";

export class Exports {
  constructor(private readonly sessions: Sessions) {}

  async document(ref: string | SessionRef, options: Omit<ExportOptions, "format">): Promise<ExportedSession> {
    return exportedSession(await this.checked(ref), options);
  }

  async view(ref: string | SessionRef, options: Pick<ExportOptions, "allBranches" | "redact">): Promise<SessionView> {
    return sessionView(await this.checked(ref), options);
  }

  stylesheet(): Promise<string> {
    return sessionStylesheet();
  }

  loadRenderers(): Promise<void> {
    return loadRenderers();
  }

  async render(ref: string | SessionRef, options: ExportOptions): Promise<string> {
    return exportSession(await this.checked(ref), options);
  }

  private async checked(ref: string | SessionRef): Promise<SessionSummary> {
    const session = await this.sessions.session(ref);
    checkWholeSessionFile(session.path, MAX_SESSION_BYTES, "an export holds the whole session at once; read it in pages instead");
    return this.sessions.get(session);
  }
}
