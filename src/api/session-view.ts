/**
 * A session as a page shows it (`recall serve`): its header fields and its conversation rendered
 * to HTML a part per shown entry (src/render), so that a long session can be sent a part at a
 * time and a search's matched entry found among the parts. Session text is escaped or rendered
 * from Markdown without raw HTML, as in an HTML export.
 */
import type { SessionSummary } from "../answers/session-summary.js";
import type { ReadMessage, ReadPage } from "../answers/read-page.js";
import type { Origin } from "../archive/search.js";
import { projectOf } from "../sessions/project-identity.js";
import type { ConversationPart, HeaderField } from "../render/index.js";
import { exportedSession, type ExportOptions } from "./export.js";

export type { ConversationPart, HeaderField };

export interface SessionView {
  summary: SessionSummary;
  title: string;
  fields: HeaderField[];
  /**
   * The `cd … && pi --session …` line that resumes it; "" for an archived session (it is pulled
   * first).
   */
  resume: string;
  parts: ConversationPart[];
  /** An archived session: where it lives. */
  origin?: Origin;
}

export async function sessionView(
  summary: SessionSummary,
  options: Pick<ExportOptions, "allBranches" | "redact"> = {},
): Promise<SessionView> {
  const session = await exportedSession(summary, options);
  const { conversationParts, headerFields, resumeLine, sessionTitle } =
    await import("../render/index.js");
  return {
    summary,
    title: sessionTitle(session),
    fields: headerFields(session),
    resume: resumeLine(session),
    parts: conversationParts(session),
  };
}

/**
 * A session of a team archive, from its pages as read (`recall.archive.read`): a message a part.
 */
export async function archivedSessionView(
  pages: Array<{ messages: ReadMessage[]; page: ReadPage; origin: Origin }>,
): Promise<SessionView> {
  const { plainMessagePart } = await import("../render/index.js");
  const { page, origin } = pages[0]!;
  const messages = pages.flatMap((p) => p.messages);
  const times = messages.map((m) => Date.parse(m.timestamp)).filter(Number.isFinite);
  const first = times.length > 0 ? Math.min(...times) : 0;
  const last = times.length > 0 ? Math.max(...times) : 0;
  const summary: SessionSummary = {
    id: page.id,
    path: "",
    cwd: page.cwd,
    project: projectOf(page.cwd),
    name: page.name,
    created: new Date(first).toISOString(),
    modified: new Date(last).toISOString(),
    messageCount: page.total,
    firstMessage: messages.find((m) => m.role === "user")?.text.slice(0, 200) ?? "",
    parent: null,
    tags: [],
  };
  const at = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
  return {
    summary,
    title: (page.name ?? `Session ${page.id}`).replace(/\s+/g, " ").trim(),
    fields: [
      { label: "Lives on", value: `${origin.user}@${origin.machine} (archive ${origin.remote})` },
      { label: "Folder", value: page.cwd || "(not recorded)", code: true },
      { label: "Started", value: at(first) },
      { label: "Last message", value: at(last) },
      { label: "Session", value: page.id, code: true },
    ],
    resume: "",
    parts: messages.map((m) =>
      plainMessagePart({
        entryId: m.entryId,
        role: m.role,
        timestamp: Date.parse(m.timestamp),
        text: m.text,
        toolName: m.toolName,
        isError: m.isError,
      }),
    ),
    origin,
  };
}

/** The renderers, loaded and readied (warmRenderers) before they are first needed. */
export async function loadRenderers(): Promise<void> {
  (await import("../render/index.js")).warmRenderers();
}

/**
 * The stylesheet a session's parts are drawn with (the HTML export's): read without loading the
 * renderers.
 */
export async function sessionStylesheet(): Promise<string> {
  return (await import("../render/stylesheet.js")).stylesheet();
}
