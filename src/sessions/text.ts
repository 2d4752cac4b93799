/** Text inside Pi message content: a string, or an array of blocks of which `text` ones count. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const block of content) {
    if (block && typeof block === "object" && (block as { type?: unknown }).type === "text") {
      const text = (block as { text?: unknown }).text;
      if (typeof text === "string" && text) parts.push(text);
    }
  }
  return parts.join("\n");
}

/**
 * Whitespace folded to one line of at most `max` characters: what a session's first message is kept
 * as.
 */
export function clipLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** The largest distance from the epoch a JavaScript Date can hold, in ms (±273,790 years). */
const MAX_DATE_MS = 8.64e15;

/**
 * Whole ms since epoch from a Pi timestamp: a number of ms, or an ISO string. Anything else, or a
 * number no Date can hold (`1e20`, `NaN`), is no usable time: undefined, so the caller falls back.
 * A fractional number is cut to its millisecond (the index stores whole ms).
 */
export function toMillis(value: unknown): number | undefined {
  if (typeof value === "number")
    return Math.abs(value) <= MAX_DATE_MS ? Math.floor(value) : undefined;
  if (typeof value === "string") {
    const ms = Date.parse(value);
    if (Number.isFinite(ms)) return ms;
  }
  return undefined;
}
