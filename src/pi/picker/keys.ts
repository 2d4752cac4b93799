/**
 * Raw terminal input to picker keys, through Pi's configurable key bindings: whatever the user
 * bound to "select up", "confirm" or "delete word" in Pi works in the picker too. Tab, Shift+Tab,
 * Ctrl+R (related sessions) and Ctrl+T (by meaning too) are fixed.
 */
import { decodeKittyPrintable, matchesKey, type KeybindingsManager } from "@earendil-works/pi-tui";
import type { PickerKey } from "./state.js";

type Binding = Parameters<KeybindingsManager["matches"]>[1];

const BINDINGS: [Binding, PickerKey][] = [
  ["tui.select.cancel", { type: "cancel" }],
  ["tui.select.confirm", { type: "confirm" }],
  ["tui.select.up", { type: "up" }],
  ["tui.select.down", { type: "down" }],
  ["tui.select.pageUp", { type: "pageUp" }],
  ["tui.select.pageDown", { type: "pageDown" }],
  ["tui.editor.deleteCharBackward", { type: "backspace" }],
  ["tui.editor.deleteCharForward", { type: "delete" }],
  ["tui.editor.deleteWordBackward", { type: "deleteWordBackward" }],
  ["tui.editor.deleteToLineStart", { type: "clearLine" }],
  ["tui.editor.cursorLeft", { type: "left" }],
  ["tui.editor.cursorRight", { type: "right" }],
  ["tui.editor.cursorLineStart", { type: "lineStart" }],
  ["tui.editor.cursorLineEnd", { type: "lineEnd" }],
];

function hasControl(text: string): boolean {
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code < 0x20 || code === 0x7f || (code >= 0x80 && code <= 0x9f)) return true;
  }
  return false;
}

/** The picker key for one chunk of terminal input, or undefined to ignore it. */
export function toPickerKey(
  data: string,
  keybindings: Pick<KeybindingsManager, "matches">,
): PickerKey | undefined {
  if (matchesKey(data, "shift+tab")) return { type: "toggleContent" };
  if (matchesKey(data, "tab")) return { type: "toggleScope" };
  if (matchesKey(data, "ctrl+r")) return { type: "toggleRelated" };
  if (matchesKey(data, "ctrl+t")) return { type: "toggleMeaning" };
  for (const [binding, key] of BINDINGS) if (keybindings.matches(data, binding)) return key;
  const kitty = decodeKittyPrintable(data);
  if (kitty !== undefined) return { type: "text", text: kitty };
  if (data.length > 0 && !hasControl(data)) return { type: "text", text: data };
  return undefined;
}

/**
 * Bracketed paste (`ESC[200~ … ESC[201~`) arrives in chunks: this gathers a paste into one text
 * key, and passes every other chunk through.
 */
export class PasteBuffer {
  private buffer: string | undefined;

  /** The inputs to handle for this chunk: raw key data, or a whole paste as `{paste}`. */
  push(data: string): ({ data: string } | { paste: string })[] {
    const out: ({ data: string } | { paste: string })[] = [];
    let rest = data;
    while (rest) {
      if (this.buffer === undefined) {
        const start = rest.indexOf("\x1b[200~");
        if (start === -1) {
          out.push({ data: rest });
          break;
        }
        if (start > 0) out.push({ data: rest.slice(0, start) });
        this.buffer = "";
        rest = rest.slice(start + 6);
        continue;
      }
      const end = rest.indexOf("\x1b[201~");
      if (end === -1) {
        this.buffer += rest;
        break;
      }
      out.push({ paste: this.buffer + rest.slice(0, end) });
      this.buffer = undefined;
      rest = rest.slice(end + 6);
    }
    return out;
  }
}
