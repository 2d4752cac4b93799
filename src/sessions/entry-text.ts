/**
 * What a reader sees of one entry of a session: its role and text in `conversation` or `raw`
 * form (see transcript.ts), or nothing. Both the tree reader, which notes once per entry whether
 * it is shown, and the transcript, which reads the text of the entries it lists, render here.
 */

export type TranscriptMode = "conversation" | "raw";
export const TRANSCRIPT_MODES: readonly TranscriptMode[] = ["conversation", "raw"];

export interface RenderedEntry {
  /**
   * Pi's role (`user`, `assistant`, `custom`, `toolResult`, `bashExecution`) or the entry type
   * (`compaction`, `branch_summary`).
   */
  role: string;
  text: string;
  /** Tool results: the tool that produced them. */
  toolName?: string;
  /** Tool results and shell commands that failed. */
  isError?: boolean;
}

/** The entry as listed in `mode`, or undefined when that listing leaves it out (no text). */
export function renderEntry(
  type: string,
  value: Record<string, unknown>,
  mode: TranscriptMode,
): RenderedEntry | undefined {
  return listed(type, value, mode, false);
}

/**
 * The role the entry is listed with in `mode`, or undefined when that listing leaves it out:
 * `renderEntry`'s answer without the text, which for a tool call is its arguments as JSON.
 */
export function shownRole(
  type: string,
  value: Record<string, unknown>,
  mode: TranscriptMode,
): string | undefined {
  return listed(type, value, mode, true)?.role;
}

/** The entry as `mode` lists it: rendered, and left out when its text is empty. */
function listed(
  type: string,
  value: Record<string, unknown>,
  mode: TranscriptMode,
  probe: boolean,
): RenderedEntry | undefined {
  const rendered = render(type, value, mode === "raw", probe);
  return rendered && rendered.text.trim() ? rendered : undefined;
}

/**
 * `probe`: only whether there is text matters, so a tool call's arguments and a thinking block's
 * text are left out of it.
 */
function render(
  type: string,
  value: Record<string, unknown>,
  raw: boolean,
  probe: boolean,
): RenderedEntry | undefined {
  switch (type) {
    case "message":
      return renderMessage(value.message, raw, probe);
    case "custom_message":
      return raw || value.display !== false
        ? { role: "custom", text: blocksText(value.content, raw, probe) }
        : undefined;
    case "compaction":
    case "branch_summary":
      return typeof value.summary === "string" ? { role: type, text: value.summary } : undefined;
    default:
      return undefined;
  }
}

function renderMessage(message: unknown, raw: boolean, probe: boolean): RenderedEntry | undefined {
  if (!message || typeof message !== "object") return undefined;
  const m = message as Record<string, unknown>;
  switch (m.role) {
    case "user":
      return { role: "user", text: blocksText(m.content, raw, probe) };
    case "assistant": {
      const text = blocksText(m.content, raw, probe);
      const error =
        raw && typeof m.errorMessage === "string" && m.errorMessage
          ? `[error] ${m.errorMessage}`
          : "";
      return { role: "assistant", text: [text, error].filter(Boolean).join("\n\n") };
    }
    case "custom":
      return raw || m.display !== false
        ? { role: "custom", text: blocksText(m.content, raw, probe) }
        : undefined;
    case "toolResult":
      if (!raw) return undefined;
      return {
        role: "toolResult",
        text: blocksText(m.content, raw, probe),
        ...(typeof m.toolName === "string" ? { toolName: m.toolName } : {}),
        isError: m.isError === true,
      };
    case "bashExecution": {
      if (!raw) return undefined;
      const failed = typeof m.exitCode === "number" && m.exitCode !== 0;
      const status = failed ? `\n[exit ${m.exitCode}]` : "";
      return {
        role: "bashExecution",
        text: `$ ${String(m.command ?? "")}\n${String(m.output ?? "")}${status}`,
        isError: failed,
      };
    }
    default:
      return undefined;
  }
}

/**
 * Message content (a string or blocks) as text; thinking and tool calls only when `raw`. A probe
 * gives the first piece that is not blank, or "": the text is blank exactly when that is.
 */
function blocksText(content: unknown, raw: boolean, probe: boolean): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const block of content) {
    if (!block || typeof block !== "object") continue;
    const b = block as Record<string, unknown>;
    let part: string;
    if (b.type === "text" && typeof b.text === "string") part = b.text;
    else if (b.type === "image")
      part = typeof b.mimeType === "string" ? `[image ${b.mimeType}]` : "[image]";
    else if (raw && b.type === "thinking")
      part =
        b.redacted === true
          ? "[thinking, redacted]"
          : probe
            ? "[thinking]"
            : `[thinking]\n${String(b.thinking ?? "")}`;
    else if (raw && b.type === "toolCall")
      part = probe
        ? "[tool call]"
        : `[tool call] ${String(b.name ?? "?")} ${JSON.stringify(b.arguments ?? {})}`;
    else continue;
    if (!NOT_BLANK.test(part)) continue;
    if (probe) return part;
    parts.push(part);
  }
  return parts.join("\n\n");
}

/** What `trim()` leaves something of. */
const NOT_BLANK = /\S/;
