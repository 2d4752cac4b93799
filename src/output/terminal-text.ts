/**
 * Session text made safe to print on a terminal. Sessions hold whatever went through them (a
 * pasted `ls --color`, a tool's output, a crafted file name), and a terminal acts on control
 * characters instead of showing them: OSC 0 sets the window title, OSC 52 writes the clipboard,
 * `ESC[2J` clears the screen. Every such character is shown visibly instead, as `cat -v` and git
 * do: C0 controls and DEL in caret notation (`^[`, `^M`, `^?`), C1 controls and the invisible
 * characters that reorder or hide text (bidi overrides, zero-width spaces) as `\u{…}` escapes.
 * JSON output never goes through this: it stays exact.
 */

// C0 controls (tab and newline decided by the caller), DEL, C1 controls, zero-width characters,
// and every bidirectional control: the Arabic letter mark (U+061C), the marks (U+200E, U+200F),
// embeddings and overrides (U+202A–202E) and isolates (U+2066–2069). Joiners (U+200C, U+200D)
// stay: emoji sequences are built with them.
const ACTIVE =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

function visible(char: string): string {
  const code = char.charCodeAt(0);
  if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
  if (code === 0x7f) return "^?";
  return `\\u{${code.toString(16)}}`;
}

/**
 * `text` with every character that would act on a terminal shown visibly. With `lines`, line
 * breaks and tabs stay as they are (a message's text); without, they are shown too (`^J`, `^I`),
 * so the text stays on one line (a folder, a path, a name).
 */
export function terminalText(text: string, options: { lines?: boolean } = {}): string {
  // A Windows line end is a line end, not a `^M` at the end of every line.
  const source = options.lines ? text.replace(/\r\n/g, "\n") : text;
  return source.replace(ACTIVE, (char) =>
    options.lines && (char === "\n" || char === "\t") ? char : visible(char),
  );
}
