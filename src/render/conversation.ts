/**
 * The order an export shows a session in, for both renderers: each entry in the document's order,
 * a tool result under the call it answers (as Pi shows them, one box each) rather than on its
 * own, and each run of entries of a branch left behind marked where it starts.
 */
import type { DocumentBlock, DocumentEntry, EntryKind } from "../sessions/session-document.js";
import type { ExportedSession } from "./exported-session.js";

export interface Shown {
  entry: DocumentEntry;
  /** The first entry of a run of entries on a branch left behind. */
  branchStarts: boolean;
}

export interface Conversation {
  shown: Shown[];
  /** Tool results by the id of the call they answer (the first result of each call). */
  resultOf: Map<string, DocumentEntry>;
}

export const KIND_LABELS: Record<EntryKind, string> = {
  user: "User",
  assistant: "Assistant",
  toolResult: "Tool output",
  bashExecution: "Shell command",
  custom: "Extension message",
  compaction: "Compaction",
  branch_summary: "Branch summary",
};

export function conversationOf(session: ExportedSession): Conversation {
  const calls = new Set<string>();
  for (const entry of session.entries)
    // A tool result's output, kept unparsed until it is shown, holds no call.
    if (!entry.outputOnly)
      for (const block of entry.blocks)
        if (block.type === "toolCall" && block.id) calls.add(block.id);
  const resultOf = new Map<string, DocumentEntry>();
  const shown: Shown[] = [];
  let previous: DocumentEntry | undefined;
  for (const entry of session.entries) {
    const answers =
      entry.kind === "toolResult" &&
      entry.toolCallId !== undefined &&
      calls.has(entry.toolCallId) &&
      !resultOf.has(entry.toolCallId);
    if (answers) resultOf.set(entry.toolCallId!, entry);
    else
      shown.push({
        entry,
        branchStarts: entry.branch === "abandoned" && previous?.branch !== "abandoned",
      });
    previous = entry;
  }
  return { shown, resultOf };
}

/** The first line of a tool call's arguments, short: what its collapsed box says. */
export function argumentsGist(json: string, max = 80): string {
  let gist = json;
  try {
    const value: unknown = JSON.parse(json);
    if (value && typeof value === "object" && !Array.isArray(value)) {
      const first = Object.values(value as Record<string, unknown>).find(
        (v) => typeof v === "string",
      );
      if (typeof first === "string") gist = first;
    }
  } catch {
    // Not JSON: the text as it is.
  }
  return oneLine(gist, max);
}

/** Text on one line, at most `max` characters. */
export function oneLine(text: string, max = 80): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/** Text blocks as one text, images as placeholders: a tool's output, a summary. */
export function plainText(blocks: DocumentBlock[]): string {
  return blocks
    .map((b) =>
      b.type === "text"
        ? b.text
        : b.type === "image"
          ? `[image${b.mimeType ? ` ${b.mimeType}` : ""}]`
          : "",
    )
    .filter(Boolean)
    .join("\n\n");
}
