/**
 * A session for people to read elsewhere: its document (sessions/session-document.ts) with what
 * the index knows of it (project, tags), redacted when asked by the archive's redaction (every
 * text a reader sees: the name, messages, thinking, tool calls and output, commands, errors; not
 * the folder, path or id, which say where the session lives), rendered as Markdown or as one HTML
 * file (src/render, loaded only here).
 */
import { RecallError } from "../errors.js";
import type { ExportedSession, ExportFormat } from "../render/exported-session.js";
import { EXPORT_FORMATS } from "../render/exported-session.js";
import {
  readSessionDocument,
  type DocumentBlock,
  type SessionDocument,
} from "../sessions/session-document.js";
import { readSessionTree } from "../sessions/session-tree.js";
import type { SessionSummary } from "../answers/session-summary.js";

export { EXPORT_FORMATS, type ExportFormat };
export type { ExportedSession };

export interface ExportOptions {
  /** Default `md`. */
  format?: ExportFormat;
  /** Also the branches left behind, each after the entry it left from. Default false. */
  allBranches?: boolean;
  /** Replace secrets with `[REDACTED:<kind>]`, as a push to an archive does. Default false. */
  redact?: boolean;
}

export async function exportedSession(
  summary: SessionSummary,
  options: Omit<ExportOptions, "format"> = {},
): Promise<ExportedSession> {
  const document = readSessionDocument(
    readSessionTree(summary.path, { keep: true, modes: ["raw"] }),
    { allBranches: options.allBranches ?? false },
  );
  const session: ExportedSession = {
    ...document,
    id: summary.id,
    project: summary.project,
    tags: summary.tags,
    redacted: null,
  };
  return options.redact ? redacted(session) : session;
}

export async function exportSession(
  summary: SessionSummary,
  options: ExportOptions = {},
): Promise<string> {
  const format = options.format ?? "md";
  if (!EXPORT_FORMATS.includes(format))
    throw new RecallError(
      "BAD_INPUT",
      `no export format ${format}: one of ${EXPORT_FORMATS.join(", ")}`,
      { field: "format", value: String(format) },
    );
  const session = await exportedSession(summary, options);
  const { renderHtml, renderMarkdown } = await import("../render/index.js");
  return format === "html" ? renderHtml(session) : renderMarkdown(session);
}

/**
 * The session with every text a reader sees redacted (one batch for all of them), and how many
 * secrets went.
 */
async function redacted(session: ExportedSession): Promise<ExportedSession> {
  const texts: string[] = [];
  const put = (text: string) => texts.push(text) - 1;
  const slots = {
    name: session.name === null ? -1 : put(session.name),
    entries: session.entries.map((entry) => ({
      blocks: entry.blocks.map((block) => blockSlots(block, put)),
      error: entry.error === undefined ? -1 : put(entry.error),
      command: entry.command === undefined ? -1 : put(entry.command),
    })),
  };
  const { redactTexts } = await import("../archive/redact.js");
  const results = await redactTexts(texts);
  const text = (slot: number) => results[slot]!.text;
  const entries: SessionDocument["entries"] = session.entries.map((entry, i) => {
    const slot = slots.entries[i]!;
    return {
      ...entry,
      blocks: entry.blocks.map((block, j) => redactedBlock(block, slot.blocks[j]!, text)),
      ...(slot.error < 0 ? {} : { error: text(slot.error) }),
      ...(slot.command < 0 ? {} : { command: text(slot.command) }),
    };
  });
  return {
    ...session,
    name: slots.name < 0 ? null : text(slots.name),
    entries,
    redacted: results.reduce((sum, r) => sum + r.total, 0),
  };
}

function blockSlots(block: DocumentBlock, put: (text: string) => number): number[] {
  switch (block.type) {
    case "text":
    case "thinking":
      return [put(block.text)];
    case "toolCall":
      return [put(block.name), put(block.arguments)];
    case "image":
      return [];
  }
}

function redactedBlock(
  block: DocumentBlock,
  slots: number[],
  text: (slot: number) => string,
): DocumentBlock {
  switch (block.type) {
    case "text":
    case "thinking":
      return { ...block, text: text(slots[0]!) };
    case "toolCall":
      return { ...block, name: text(slots[0]!), arguments: text(slots[1]!) };
    case "image":
      return block;
  }
}
