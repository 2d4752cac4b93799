/**
 * Terminal text for the picker and the command output: one line of plain text per call, measured
 * in terminal columns. Session text is untrusted: it may hold newlines, tabs and escape sequences
 * (a pasted `ls --color` output, say), so everything shown is first folded onto one line with
 * control characters shown visibly, as the CLI shows them (terminal-text.ts); styling is applied
 * afterwards, by the caller, to text that already fits.
 *
 * Widths come from a `Measure`. Inside Pi the picker passes pi-tui's `visibleWidth`, so a line is
 * measured exactly as Pi's overlay compositor measures it and the box stays rectangular; without
 * Pi (tests, the library) `terminalWidth` below is a close approximation.
 */
import { terminalText } from "./terminal-text.js";

/** Columns a string takes on a terminal (no escape sequences in it). */
export type Measure = (text: string) => number;

// Made on first use: making one loads ICU's segmentation data, 20–30 ms of a cold start that the
// CLI, which imports this file for `oneLine`, never needs.
let graphemes: Intl.Segmenter | undefined;

/** Every grapheme of `text`, in order. */
export function splitGraphemes(text: string): string[] {
  graphemes ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  return Array.from(graphemes.segment(text), (s) => s.segment);
}

/**
 * One line of printable text: whitespace runs (newlines included) become one space; control and
 * bidi characters are shown visibly (terminal-text.ts).
 */
export function oneLine(text: string): string {
  return terminalText(text.replace(/\s+/g, " "));
}

/** Printable text keeping its line breaks: each line cleaned as `oneLine` does, tabs as spaces. */
export function printableLines(text: string): string[] {
  return text.split(/\r?\n|\r/).map((line) => oneLine(line.replace(/\t/g, "  ")).trimEnd());
}

function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0x303e) ||
    (code >= 0x3041 && code <= 0x33ff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xa000 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1f64f) ||
    (code >= 0x1f900 && code <= 0x1f9ff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}

/** Columns of one grapheme: 2 for wide (CJK, emoji), 0 for marks and joiners alone, else 1. */
function graphemeWidth(grapheme: string): number {
  const code = grapheme.codePointAt(0)!;
  if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return 0;
  if (
    /^\p{Extended_Pictographic}/u.test(grapheme) &&
    (grapheme.includes("\ufe0f") || code >= 0x1f000)
  )
    return 2;
  if (/^\p{Regional_Indicator}/u.test(grapheme)) return 2;
  if (/^[\p{Mn}\p{Me}\u200b-\u200f\u2060]/u.test(grapheme)) return 0;
  return isWide(code) ? 2 : 1;
}

/** An approximation of a terminal's width rules, for use without pi-tui. */
export const terminalWidth: Measure = (text) => {
  let width = 0;
  for (const g of splitGraphemes(text)) width += graphemeWidth(g);
  return width;
};

/** The longest start of `text` that fits in `width` columns, cut between graphemes. */
export function sliceToWidth(text: string, width: number, measure: Measure): string {
  if (width <= 0) return "";
  if (measure(text) <= width) return text;
  let out = "";
  let used = 0;
  for (const g of splitGraphemes(text)) {
    const w = measure(g);
    if (used + w > width) break;
    out += g;
    used += w;
  }
  return out;
}

/** `text` cut to `width` columns, ending in `…` when something was cut. */
export function truncate(text: string, width: number, measure: Measure): string {
  if (width <= 0) return "";
  if (measure(text) <= width) return text;
  return sliceToWidth(text, width - 1, measure) + "…";
}

/** `text` padded with spaces (or cut) to exactly `width` columns. */
export function fit(text: string, width: number, measure: Measure): string {
  const cut = truncate(text, width, measure);
  return cut + " ".repeat(Math.max(0, width - measure(cut)));
}

/** Word-wraps one line of plain text to lines of at most `width` columns; long words are split. */
export function wrap(text: string, width: number, measure: Measure): string[] {
  if (width <= 0) return [];
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/(\s+)/)) {
    if (!word) continue;
    const candidate = line + word;
    if (measure(candidate) <= width) {
      line = candidate;
      continue;
    }
    if (line.trim()) lines.push(line.trimEnd());
    line = /^\s+$/.test(word) ? "" : word;
    while (measure(line) > width) {
      const head = sliceToWidth(line, width, measure);
      lines.push(head);
      line = line.slice(head.length);
    }
  }
  if (line.trim()) lines.push(line.trimEnd());
  return lines;
}
