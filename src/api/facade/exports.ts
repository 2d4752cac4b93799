/** The facade's exports: a session as a document to render, rendered as Markdown or HTML (see export.ts), or as a page shows it (session-view.ts). */
import { exportedSession, exportSession, type ExportedSession, type ExportOptions } from "../export.js";
import type { SessionRef } from "../resolve-session.js";
import { sessionStylesheet, sessionView, type SessionView } from "../session-view.js";
import type { Sessions } from "./sessions.js";

export class Exports {
  constructor(private readonly sessions: Sessions) {}

  async document(ref: string | SessionRef, options: Omit<ExportOptions, "format">): Promise<ExportedSession> {
    return exportedSession(await this.sessions.get(ref), options);
  }

  async view(ref: string | SessionRef, options: Pick<ExportOptions, "allBranches" | "redact">): Promise<SessionView> {
    return sessionView(await this.sessions.get(ref), options);
  }

  stylesheet(): Promise<string> {
    return sessionStylesheet();
  }

  async render(ref: string | SessionRef, options: ExportOptions): Promise<string> {
    return exportSession(await this.sessions.get(ref), options);
  }
}
