/**
 * A session as a page shows it (`recall serve`): its header fields and its conversation rendered
 * to HTML a part per shown entry (src/render), so that a long session can be sent a part at a
 * time and a search's matched entry found among the parts. Session text is escaped or rendered
 * from Markdown without raw HTML, as in an HTML export.
 */
import type { SessionSummary } from "../answers/session-summary.js";
import type { ConversationPart, HeaderField } from "../render/index.js";
import { exportedSession, type ExportOptions } from "./export.js";

export type { ConversationPart, HeaderField };

export interface SessionView {
  summary: SessionSummary;
  title: string;
  fields: HeaderField[];
  /** The `cd … && pi --session …` line that resumes it. */
  resume: string;
  parts: ConversationPart[];
  /** Every `provider/model` that replied. */
  models: string[];
}

export async function sessionView(summary: SessionSummary, options: Pick<ExportOptions, "allBranches" | "redact"> = {}): Promise<SessionView> {
  const session = await exportedSession(summary, options);
  const { conversationParts, headerFields, resumeLine, sessionTitle } = await import("../render/index.js");
  return {
    summary,
    title: sessionTitle(session),
    fields: headerFields(session),
    resume: resumeLine(session),
    parts: conversationParts(session),
    models: session.models,
  };
}

/** The stylesheet a session's parts are drawn with (the HTML export's). */
export async function sessionStylesheet(): Promise<string> {
  return (await import("../render/index.js")).stylesheet();
}
