/**
 * A session file redacted for the archive (`keepFiles`): every string in every entry goes through
 * the documents' redaction (redact.ts), so the kept file holds no secret the documents would not.
 * A line with nothing to redact is kept byte for byte; a line with a secret is written again as
 * JSON (as Pi writes its lines); a line that is not JSON is redacted as text. The strings of the
 * whole text are redacted in one batch.
 */
import { projectOf } from "../sessions/project-identity.js";
import type { KeptFile } from "./kept-files.js";
import { redactTexts, type Redacted } from "./redact.js";

export interface RedactedFile {
  text: string;
  /** Secrets removed, by what they were. */
  counts: Record<string, number>;
  total: number;
}

/** Every string in a parsed JSON value, in order. */
function stringsOf(value: unknown, into: string[]): void {
  if (typeof value === "string") into.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, into);
  else if (value !== null && typeof value === "object")
    for (const [key, item] of Object.entries(value)) (stringsOf(key, into), stringsOf(item, into));
}

/** `value` with its strings replaced, in the order `stringsOf` lists them, by `next()`. */
function withStrings(value: unknown, next: () => string): unknown {
  if (typeof value === "string") return next();
  if (Array.isArray(value)) return value.map((item) => withStrings(item, next));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([, item]) => [next(), withStrings(item, next)]),
    );
  }
  return value;
}

function add(into: RedactedFile, found: Redacted): void {
  for (const [kind, n] of Object.entries(found.counts))
    into.counts[kind] = (into.counts[kind] ?? 0) + n;
  into.total += found.total;
}

/** `text`: complete lines of a session file (each ending with a newline). */
export async function redactSessionFile(text: string): Promise<RedactedFile> {
  const lines = text.split("\n");
  const parsed = lines.map((line): { entry: unknown; strings: string[] } | undefined => {
    if (!line.trim()) return undefined;
    try {
      const entry: unknown = JSON.parse(line);
      const strings: string[] = [];
      stringsOf(entry, strings);
      return { entry, strings };
    } catch {
      return { entry: undefined, strings: [line] };
    }
  });
  const cleaned = await redactTexts(parsed.flatMap((p) => p?.strings ?? []));
  const result: RedactedFile = { text: "", counts: {}, total: 0 };
  let at = 0;
  const out = lines.map((line, i) => {
    const p = parsed[i];
    if (!p) return line;
    const mine = cleaned.slice(at, (at += p.strings.length));
    if (mine.every((r) => r.total === 0)) return line;
    for (const found of mine) add(result, found);
    if (p.entry === undefined) return mine[0]!.text;
    let next = 0;
    return JSON.stringify(withStrings(p.entry, () => mine[next++]!.text));
  });
  result.text = out.join("\n");
  return result;
}

/**
 * Redacts, in place, every string of a kept file besides its content (redacted as a session file):
 * its folder, project, name and the rest. A folder that holds a secret names its project once
 * redacted (as documents.ts does).
 */
export async function redactKeptFields(file: KeptFile): Promise<Record<string, number>> {
  const [folder] = await redactTexts([file.folder]);
  if (folder!.total > 0) file.project = projectOf(folder!.text);
  const fields = file as unknown as Record<string, unknown>;
  const names = Object.keys(fields).filter(
    (name) => name !== "content" && typeof fields[name] === "string",
  );
  const cleaned = await redactTexts(names.map((name) => fields[name] as string));
  const counts: RedactedFile = { text: "", counts: {}, total: 0 };
  names.forEach((name, i) => {
    fields[name] = cleaned[i]!.text;
    add(counts, cleaned[i]!);
  });
  file.redactions += counts.total;
  return counts.counts;
}
