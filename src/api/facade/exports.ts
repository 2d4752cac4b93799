/** The facade's exports: a session as a document to render, or rendered as Markdown or HTML (see export.ts). */
import { exportedSession, exportSession, type ExportedSession, type ExportOptions } from "../export.js";
import type { SessionRef } from "../resolve-session.js";
import type { Sessions } from "./sessions.js";

export class Exports {
  constructor(private readonly sessions: Sessions) {}

  async document(ref: string | SessionRef, options: Omit<ExportOptions, "format">): Promise<ExportedSession> {
    return exportedSession(await this.sessions.get(ref), options);
  }

  async render(ref: string | SessionRef, options: ExportOptions): Promise<string> {
    return exportSession(await this.sessions.get(ref), options);
  }
}
