/**
 * Snippets with their matched words marked. Spans from the index are UTF-8 byte offsets; they are
 * mapped on the snippet's bytes, never on JavaScript string indexes, so text before a match may
 * hold any characters.
 */
import { terminalText } from "./terminal-text.js";

export interface Segment {
  text: string;
  match: boolean;
}

export function segments(snippet: string, spans: readonly [number, number][]): Segment[] {
  const bytes = Buffer.from(snippet, "utf8");
  const out: Segment[] = [];
  let at = 0;
  for (const [start, end] of [...spans].sort((a, b) => a[0] - b[0])) {
    if (start < at || end > bytes.length || end <= start) continue;
    if (start > at) out.push({ text: bytes.subarray(at, start).toString("utf8"), match: false });
    out.push({ text: bytes.subarray(start, end).toString("utf8"), match: true });
    at = end;
  }
  if (at < bytes.length) out.push({ text: bytes.subarray(at).toString("utf8"), match: false });
  return out;
}

/**
 * One line for a terminal: whitespace runs (newlines included) folded to one space, controls shown
 * safely, then each match marked.
 */
export function highlightLine(
  snippet: string,
  spans: readonly [number, number][],
  mark: (text: string) => string,
): string {
  const parts = segments(snippet, spans).map((s) => ({
    ...s,
    text: terminalText(s.text.replace(/\s+/g, " ")),
  }));
  return parts
    .map((s) => (s.match ? mark(s.text) : s.text))
    .join("")
    .trim();
}

/**
 * Marks, in each of `texts`, the words at `spans` (UTF-8 byte spans per text, as
 * the library's `wordMarks` finds them by the index's words).
 */
export function highlightWords(
  texts: string[],
  spans: readonly (readonly [number, number][])[],
  mark: (text: string) => string,
): string[] {
  return texts.map((text, i) =>
    segments(text, spans[i]!)
      .map((s) => (s.match ? mark(s.text) : s.text))
      .join(""),
  );
}
