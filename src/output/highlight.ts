/**
 * Snippets with their matched words marked. Spans from the index are UTF-8 byte offsets; they are
 * mapped on the snippet's bytes, never on JavaScript string indexes, so text before a match may
 * hold any characters.
 */
import { prefixMarks } from "../native/words.js";
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

/** One line for a terminal: whitespace runs (newlines included) folded to one space, controls shown safely, then each match marked. */
export function highlightLine(snippet: string, spans: readonly [number, number][], mark: (text: string) => string): string {
  const parts = segments(snippet, spans).map((s) => ({ ...s, text: terminalText(s.text.replace(/\s+/g, " ")) }));
  return parts
    .map((s) => (s.match ? mark(s.text) : s.text))
    .join("")
    .trim();
}

/**
 * Marks, in each of `texts`, every word that starts with one of the words of `query`, by the
 * index's words (case and accents folded: `orst` marks `Ørsted`): the preview of a session while
 * its query is still being typed. One native call for all the texts.
 */
export function highlightWords(texts: string[], query: string, mark: (text: string) => string): string[] {
  const marks = prefixMarks(texts, query);
  return texts.map((text, i) =>
    segments(text, marks[i]!)
      .map((s) => (s.match ? mark(s.text) : s.text))
      .join(""),
  );
}
