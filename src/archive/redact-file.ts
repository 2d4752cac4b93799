/**
 * A session file redacted for the archive (`keepFiles`): every string in every entry goes through
 * the documents' redaction (redact.ts), so the kept file holds no secret the documents would not.
 * A line with nothing to redact is kept byte for byte; a line with a secret is written again as
 * JSON (as Pi writes its lines); a line that is not JSON is redacted as text.
 */
import { redact } from "./redact.js";

export interface RedactedFile {
  text: string;
  /** Secrets removed, by what they were. */
  counts: Record<string, number>;
  total: number;
}

function redactValue(value: unknown, count: (counts: Record<string, number>) => void): unknown {
  if (typeof value === "string") {
    const cleaned = redact(value);
    if (cleaned.total === 0) return value;
    count(cleaned.counts);
    return cleaned.text;
  }
  if (Array.isArray(value)) return value.map((item) => redactValue(item, count));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactValue(item, count)]));
  }
  return value;
}

/** `text`: complete lines of a session file (each ending with a newline). */
export function redactSessionFile(text: string): RedactedFile {
  const counts: Record<string, number> = {};
  let total = 0;
  const count = (found: Record<string, number>) => {
    for (const [what, n] of Object.entries(found)) {
      counts[what] = (counts[what] ?? 0) + n;
      total += n;
    }
  };
  const lines = text.split("\n").map((line) => {
    if (!line.trim()) return line;
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      const cleaned = redact(line);
      count(cleaned.counts);
      return cleaned.text;
    }
    const before = total;
    const cleaned = redactValue(entry, count);
    return total === before ? line : JSON.stringify(cleaned);
  });
  return { text: lines.join("\n"), counts, total };
}
