/**
 * What the renderers take: a session document (sessions/session-document.ts) with what the index
 * knows of it.
 */
import type { SessionDocument } from "../sessions/session-document.js";

export interface ExportedSession extends SessionDocument {
  /** The `--repo` identity of its folder. */
  project: string;
  tags: string[];
  /** Secrets replaced in its text when it was redacted; null when it was not. */
  redacted: number | null;
}

export type ExportFormat = "md" | "html";
export const EXPORT_FORMATS: readonly ExportFormat[] = ["md", "html"];
