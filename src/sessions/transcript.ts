/**
 * A session as a person reads it: the entries of its tree turned into a list of messages.
 *
 * `conversation` keeps what was said: user and assistant text, custom messages that Pi
 * displayed, and compaction and branch summaries where they happened. `raw` adds what the model
 * did: thinking, tool calls, tool output, shell commands run with `!` and provider errors.
 * Images become a `[image <type>]` placeholder. System prompts and entries that hold no text
 * (model changes, labels, extension state, unknown types) are never shown.
 *
 * By default only the active branch is listed; with `allBranches`, every entry of the tree,
 * depth first, each abandoned branch right after the entry it left from.
 */
import { activeBranch, depthFirst, type SessionTree, type TreeEntry } from "./session-tree.js";

export type TranscriptMode = "conversation" | "raw";
export const TRANSCRIPT_MODES: readonly TranscriptMode[] = ["conversation", "raw"];

export interface TranscriptItem {
  /** Position in this transcript, from 0. */
  index: number;
  entryId: string;
  /** Pi's role (`user`, `assistant`, `custom`, `toolResult`, `bashExecution`) or the entry type (`compaction`, `branch_summary`). */
  role: string;
  /** ms since epoch */
  timestamp: number;
  text: string;
  /** Whether the entry is on the active branch. */
  branch: "active" | "abandoned";
  /** Tool results: the tool that produced them. */
  toolName?: string;
  /** Tool results and shell commands that failed. */
  isError?: boolean;
}

export interface TranscriptOptions {
  mode: TranscriptMode;
  allBranches: boolean;
}

type Rendered = Pick<TranscriptItem, "role" | "text" | "toolName" | "isError">;

export function transcript(tree: SessionTree, options: TranscriptOptions): TranscriptItem[] {
  const active = activeBranch(tree);
  const onActive = new Set(active);
  const items: TranscriptItem[] = [];
  for (const entry of options.allBranches ? depthFirst(tree) : active) {
    const rendered = render(entry, options.mode === "raw");
    if (!rendered || !rendered.text.trim()) continue;
    items.push({
      index: items.length,
      entryId: entry.id,
      timestamp: entry.timestamp,
      branch: onActive.has(entry) ? "active" : "abandoned",
      ...rendered,
    });
  }
  return items;
}

function render(entry: TreeEntry, raw: boolean): Rendered | undefined {
  const value = entry.value;
  switch (entry.type) {
    case "message":
      return renderMessage(value.message, raw);
    case "custom_message":
      return raw || value.display !== false ? { role: "custom", text: blocksText(value.content, raw) } : undefined;
    case "compaction":
    case "branch_summary":
      return typeof value.summary === "string" ? { role: entry.type, text: value.summary } : undefined;
    default:
      return undefined;
  }
}

function renderMessage(message: unknown, raw: boolean): Rendered | undefined {
  if (!message || typeof message !== "object") return undefined;
  const m = message as Record<string, unknown>;
  switch (m.role) {
    case "user":
      return { role: "user", text: blocksText(m.content, raw) };
    case "assistant": {
      const text = blocksText(m.content, raw);
      const error = raw && typeof m.errorMessage === "string" && m.errorMessage ? `[error] ${m.errorMessage}` : "";
      return { role: "assistant", text: [text, error].filter(Boolean).join("\n\n") };
    }
    case "custom":
      return raw || m.display !== false ? { role: "custom", text: blocksText(m.content, raw) } : undefined;
    case "toolResult":
      if (!raw) return undefined;
      return {
        role: "toolResult",
        text: blocksText(m.content, raw),
        ...(typeof m.toolName === "string" ? { toolName: m.toolName } : {}),
        isError: m.isError === true,
      };
    case "bashExecution": {
      if (!raw) return undefined;
      const failed = typeof m.exitCode === "number" && m.exitCode !== 0;
      const status = failed ? `\n[exit ${m.exitCode}]` : "";
      return { role: "bashExecution", text: `$ ${String(m.command ?? "")}\n${String(m.output ?? "")}${status}`, isError: failed };
    }
    default:
      return undefined;
  }
}

/** Message content (a string or blocks) as text; thinking and tool calls only when `raw`. */
function blocksText(content: unknown, raw: boolean): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const block of content) {
    if (!block || typeof block !== "object") continue;
    const b = block as Record<string, unknown>;
    if (b.type === "text" && typeof b.text === "string") parts.push(b.text);
    else if (b.type === "image") parts.push(typeof b.mimeType === "string" ? `[image ${b.mimeType}]` : "[image]");
    else if (raw && b.type === "thinking") parts.push(b.redacted === true ? "[thinking, redacted]" : `[thinking]\n${String(b.thinking ?? "")}`);
    else if (raw && b.type === "toolCall") parts.push(`[tool call] ${String(b.name ?? "?")} ${JSON.stringify(b.arguments ?? {})}`);
  }
  return parts.filter((p) => p.trim()).join("\n\n");
}
