/**
 * The output of one entry, read back from its session file: the index keeps the words of tool
 * output but not its text, so a hit in an output gets its snippet from the file.
 */
import { readJsonLineAt } from "./lines.js";
import { outputText } from "./other-text.js";

/** A v1 entry's id (it has none of its own): `L<line>`. */
const LINE_ID = /^L\d+$/;

/**
 * The output of entry `entryId` on the line at `lineOffset`, as indexed; "" when the file no longer
 * holds it there.
 */
export function outputAt(path: string, lineOffset: number, entryId: string): string {
  const object = readJsonLineAt(path, lineOffset);
  const entry = object && (object.id === entryId || LINE_ID.test(entryId)) ? object : undefined;
  const message = entry?.type === "message" ? entry.message : undefined;
  return message && typeof message === "object"
    ? (outputText(message as Record<string, unknown>) ?? "")
    : "";
}
