/**
 * Input quoted in a one-line message (a query, a tag, an id, a reason a file gave): on one line
 * and cut with `…`, so a pasted paragraph or a whole file's content never floods the message.
 */

/** Longer than any id, tag or query a person types; short enough for a one-line message. */
export const QUOTE_CHARS = 60;

/** `text` with its whitespace runs as single spaces, cut to at most `max` characters. */
export function shorten(text: string, max: number = QUOTE_CHARS): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const chars = [...flat];
  return chars.length <= max ? flat : `${chars.slice(0, max - 1).join("")}…`;
}

/** `"text"`, shortened. */
export function quote(text: string, max: number = QUOTE_CHARS): string {
  return `"${shorten(text, max)}"`;
}
