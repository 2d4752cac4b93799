/**
 * A whole session as an export shows it: each entry a reader would see, with its content as
 * blocks (text, thinking, tool calls with their arguments, images as placeholders), the model and
 * usage of each reply, and the tool results and shell commands with their outcome. Entries are
 * listed as `read --mode raw` lists them (transcript.ts): the active branch, or every branch with
 * each abandoned one right after the entry it left from, and compactions and branch summaries
 * where they happened.
 *
 * Unlike the transcript, nothing is flattened to one text: a renderer decides how a tool call,
 * its output or a thinking block looks. Text is the file's, untrusted: a renderer escapes it.
 */
import { RecallError } from "../errors.js";
import { EntryFile } from "./entries.js";
import { renderEntry } from "./entry-text.js";
import { listTranscript } from "./transcript.js";
import { keptValue, type SessionTree, type TreeEntry } from "./session-tree.js";

export type DocumentBlock =
  | { type: "text"; text: string }
  | { type: "thinking"; text: string; redacted: boolean }
  /** `arguments` as indented JSON. */
  | { type: "toolCall"; id: string; name: string; arguments: string }
  | { type: "image"; mimeType: string | null };

export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** In the provider's currency, as Pi priced it (0 where Pi knew no price). */
  cost: number;
}

export type EntryKind =
  | "user"
  | "assistant"
  | "toolResult"
  | "bashExecution"
  | "custom"
  | "compaction"
  | "branch_summary";

export interface DocumentEntry {
  id: string;
  kind: EntryKind;
  /** ms since epoch */
  timestamp: number;
  branch: "active" | "abandoned";
  blocks: DocumentBlock[];
  /** Replies: `provider/model`. */
  model?: string;
  usage?: Usage;
  /** Replies that failed: the provider's error. */
  error?: string;
  /** Tool results: the call they answer and its tool. */
  toolCallId?: string;
  /**
   * Tool results whose blocks are text and images only (no call among them): a kept one's are
   * parsed when first read (session-tree.ts, keptValue).
   */
  outputOnly?: true;
  toolName?: string;
  /** Tool results and shell commands that failed. */
  isError?: boolean;
  /** Shell commands run with `!`: the command (its output is the text block). */
  command?: string;
  exitCode?: number;
  /** Compactions: the context's size before. */
  tokensBefore?: number;
}

export interface SessionDocument {
  id: string;
  path: string;
  cwd: string;
  name: string | null;
  /** ms since epoch */
  created: number;
  /** ms since epoch: the latest entry listed. */
  modified: number;
  /** The session this one was forked from, if any. */
  parent: string | null;
  /** Every `provider/model` that replied, in order of first reply. */
  models: string[];
  allBranches: boolean;
  entries: DocumentEntry[];
}

/**
 * The listed entries' contents: kept by the tree where it was read with `keep`, else read again.
 */
export function readSessionDocument(
  tree: SessionTree,
  options: { allBranches: boolean },
): SessionDocument {
  const listed = listTranscript(tree, { mode: "raw", allBranches: options.allBranches });
  const entries: DocumentEntry[] = [];
  let file: EntryFile | undefined;
  try {
    for (const { entry, branch } of listed) {
      const value = entry.value ?? readAgain((file ??= new EntryFile(tree.path)), entry);
      const read = documentEntry(entry.type, value);
      if (!read) continue;
      const shown: DocumentEntry = { id: entry.id, timestamp: entry.timestamp, branch, ...read };
      if (entry.output) outputWhenRead(shown, entry);
      entries.push(shown);
    }
  } finally {
    file?.close();
  }
  const models = [...new Set(entries.flatMap((e) => (e.model ? [e.model] : [])))];
  return {
    id: tree.header.id,
    path: tree.path,
    cwd: tree.header.cwd,
    name: tree.name,
    created: tree.header.created,
    modified: Math.max(tree.header.created, ...entries.map((e) => e.timestamp)),
    parent: tree.header.parent ?? null,
    models,
    allBranches: options.allBranches,
    entries,
  };
}

/**
 * A kept tool result's blocks, parsed from its line when first read: a page renders the output of
 * the few calls it shows.
 */
function outputWhenRead(shown: DocumentEntry, entry: TreeEntry): void {
  let blocks: DocumentBlock[] | undefined;
  Object.defineProperty(shown, "blocks", {
    enumerable: true,
    get: () =>
      (blocks ??= blocksOf((keptValue(entry)!.message as Record<string, unknown>).content)),
  });
  shown.outputOnly = true;
}

/** An entry read again from the file: it must still be there, as the tree found it. */
function readAgain(file: EntryFile, entry: TreeEntry): Record<string, unknown> {
  const value = file.read(entry.place);
  if (!value || !renderEntry(entry.type, value, "raw")) {
    throw new RecallError(
      "SESSION_REPLACED",
      `${file.path} was rewritten while it was read; read it again`,
    );
  }
  return value;
}

type EntryContent = Omit<DocumentEntry, "id" | "timestamp" | "branch">;

function documentEntry(type: string, value: Record<string, unknown>): EntryContent | undefined {
  switch (type) {
    case "message":
      return messageContent(value.message as Record<string, unknown>);
    case "custom_message":
      return { kind: "custom", blocks: blocksOf(value.content) };
    case "compaction":
      return {
        kind: "compaction",
        blocks: [{ type: "text", text: String(value.summary) }],
        ...(typeof value.tokensBefore === "number" ? { tokensBefore: value.tokensBefore } : {}),
      };
    case "branch_summary":
      return { kind: "branch_summary", blocks: [{ type: "text", text: String(value.summary) }] };
    default:
      return undefined;
  }
}

function messageContent(m: Record<string, unknown>): EntryContent | undefined {
  switch (m.role) {
    case "user":
    case "custom":
      return { kind: m.role, blocks: blocksOf(m.content) };
    case "assistant": {
      const model =
        typeof m.model === "string" && m.model
          ? typeof m.provider === "string" && m.provider
            ? `${m.provider}/${m.model}`
            : m.model
          : undefined;
      const usage = usageOf(m.usage);
      return {
        kind: "assistant",
        blocks: blocksOf(m.content),
        ...(model ? { model } : {}),
        ...(usage ? { usage } : {}),
        ...(typeof m.errorMessage === "string" && m.errorMessage ? { error: m.errorMessage } : {}),
      };
    }
    case "toolResult": {
      const blocks = blocksOf(m.content);
      return {
        kind: "toolResult",
        blocks,
        ...(typeof m.toolCallId === "string" ? { toolCallId: m.toolCallId } : {}),
        ...(typeof m.toolName === "string" ? { toolName: m.toolName } : {}),
        isError: m.isError === true,
        ...(blocks.every((b) => b.type === "text" || b.type === "image")
          ? { outputOnly: true as const }
          : {}),
      };
    }
    case "bashExecution": {
      const exitCode = typeof m.exitCode === "number" ? m.exitCode : undefined;
      return {
        kind: "bashExecution",
        command: String(m.command ?? ""),
        blocks: [{ type: "text", text: String(m.output ?? "") }],
        ...(exitCode === undefined ? {} : { exitCode }),
        isError: exitCode !== undefined && exitCode !== 0,
      };
    }
    default:
      return undefined;
  }
}

function blocksOf(content: unknown): DocumentBlock[] {
  if (typeof content === "string") return content.trim() ? [{ type: "text", text: content }] : [];
  if (!Array.isArray(content)) return [];
  const blocks: DocumentBlock[] = [];
  for (const block of content) {
    if (!block || typeof block !== "object") continue;
    const b = block as Record<string, unknown>;
    if (b.type === "text" && typeof b.text === "string" && b.text.trim())
      blocks.push({ type: "text", text: b.text });
    else if (b.type === "image")
      blocks.push({ type: "image", mimeType: typeof b.mimeType === "string" ? b.mimeType : null });
    else if (b.type === "thinking")
      blocks.push({
        type: "thinking",
        text: b.redacted === true ? "" : String(b.thinking ?? ""),
        redacted: b.redacted === true,
      });
    else if (b.type === "toolCall")
      blocks.push(toolCallBlock(String(b.id ?? ""), String(b.name ?? "?"), b.arguments ?? {}));
  }
  return blocks;
}

/**
 * A tool call, its arguments as indented JSON when first read: a page that renders a few parts of a
 * long session formats only theirs.
 */
function toolCallBlock(id: string, name: string, input: unknown): DocumentBlock {
  let text: string | undefined;
  return {
    type: "toolCall",
    id,
    name,
    get arguments() {
      return (text ??= JSON.stringify(input, null, 2));
    },
  };
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
}

/** Pi's `usage` of a reply: tokens by kind and the cost's total. */
export function usageOf(value: unknown): Usage | undefined {
  if (!value || typeof value !== "object") return undefined;
  const u = value as Record<string, unknown>;
  const cost =
    u.cost && typeof u.cost === "object" ? count((u.cost as Record<string, unknown>).total) : 0;
  return {
    input: count(u.input),
    output: count(u.output),
    cacheRead: count(u.cacheRead),
    cacheWrite: count(u.cacheWrite),
    cost,
  };
}
