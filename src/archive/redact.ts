/**
 * Redaction of secrets in text before it leaves the machine (to an archive, or to a model): each
 * secret is replaced with `[REDACTED:<kind>]`, and counted by kind. Two rule sets find them: the
 * maintained one (secretlint's recommended rules, secret-rules.ts) and recall's own, for what only
 * a secret's context shows (secret-shapes.ts); where their finds overlap, the union goes.
 *
 * secretlint is asked once per batch of texts, not once per text (a call costs a fixed ~0.4 ms):
 * the texts are joined a line apart, and each secret found is given back to the text it is in.
 * The rules load on first use; if they cannot load, redaction fails, and nothing is sent.
 */
import type { Found } from "./secret-rules.js";
import { findShapes } from "./secret-shapes.js";

export interface Redacted {
  text: string;
  /** Secrets removed, by kind. */
  counts: Record<string, number>;
  total: number;
}

export const marker = (kind: string) => `[REDACTED:${kind}]`;

/**
 * No rule finds a secret in fewer characters than this (`p=pass`, the shortest, has 6): shorter
 * texts are not looked at.
 */
const MIN_SECRET_CHARS = 6;

/**
 * Characters of text given to secretlint at once, at most (one text longer than this goes alone).
 */
const BATCH_CHARS = 4 << 20;

type FindSecrets = (text: string) => Promise<Found[]>;
let maintained: Promise<FindSecrets> | undefined;

/** The maintained rules, loaded once: from the CLI's bundle of them beside it, else as a module. */
function maintainedRules(): Promise<FindSecrets> {
  maintained ??= import("./secret-rules.js").then((module) => module.findSecrets);
  return maintained;
}

/**
 * Texts redacted lately, kept up to `RECENT_CHARS` characters of them (the oldest forgotten first):
 * a push redacts a session's documents, then its kept file, whose strings are mostly the same.
 */
const recent = new Map<string, Redacted>();
let recentChars = 0;
const RECENT_CHARS = 32 << 20;

function remember(text: string, result: Redacted): void {
  if (text.length > RECENT_CHARS / 4 || recent.has(text)) return;
  recent.set(text, result);
  recentChars += text.length;
  for (const [old] of recent) {
    if (recentChars <= RECENT_CHARS) break;
    recent.delete(old);
    recentChars -= old.length;
  }
}

/**
 * Redacts each text; the result at index i is text i's. A text given more than once, or lately, is
 * redacted once.
 */
export async function redactTexts(texts: readonly string[]): Promise<Redacted[]> {
  const known = new Map<string, Redacted>();
  for (const text of texts) {
    const result =
      text.length < MIN_SECRET_CHARS ? { text, counts: {}, total: 0 } : recent.get(text);
    if (result) known.set(text, result);
  }
  const unique = [...new Set(texts)].filter((text) => !known.has(text));
  const results = await redactUnique(unique);
  unique.forEach((text, i) => {
    known.set(text, results[i]!);
    remember(text, results[i]!);
  });
  return texts.map((text) => known.get(text)!);
}

async function redactUnique(texts: readonly string[]): Promise<Redacted[]> {
  const findSecrets = await maintainedRules();
  const found: Found[][] = texts.map(() => []);
  // Batches of whole texts, each text starting one line after the one before.
  let first = 0;
  while (first < texts.length) {
    let end = first;
    let chars = 0;
    while (end < texts.length && (end === first || chars + texts[end]!.length < BATCH_CHARS))
      chars += texts[end++]!.length + 1;
    const starts: number[] = [];
    let at = 0;
    for (let i = first; i < end; i++) {
      starts.push(at);
      at += texts[i]!.length + 1;
    }
    if (texts.slice(first, end).some((text) => text.length > 0)) {
      const joined = end - first === 1 ? texts[first]! : texts.slice(first, end).join("\n");
      for (const secret of await findSecrets(joined)) {
        // Every text the secret reaches (a rule's match may run on past a text's end).
        for (
          let i = lastAtOrBefore(starts, secret.start);
          i < starts.length && starts[i]! < secret.end;
          i++
        ) {
          const from = starts[i]!;
          const to = from + texts[first + i]!.length;
          const start = Math.max(secret.start, from);
          const stop = Math.min(secret.end, to);
          if (stop > start)
            found[first + i]!.push({ start: start - from, end: stop - from, kind: secret.kind });
        }
      }
    }
    first = end;
  }
  return texts.map((text, i) =>
    applied(text, [...found[i]!.map((f) => narrowed(text, f)), ...findShapes(text)]),
  );
}

export async function redact(text: string): Promise<Redacted> {
  return (await redactTexts([text]))[0]!;
}

/** The index of the last start at or before `offset`. */
function lastAtOrBefore(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle]! <= offset) low = middle;
    else high = middle - 1;
  }
  return low;
}

/**
 * A secret a rule found with its context: only the secret goes, the rest stays searchable — of a
 * connection string or URL its password (not its user and host), of `"name": "value"` its value.
 */
function narrowed(text: string, secret: Found): Found {
  const found = text.slice(secret.start, secret.end);
  const part = (
    /^[a-z][\w+.-]*:\/\/[^\s/:@]*:([^\s/]+)@[^\s/@]/di.exec(found) ??
    /^["']?[\w.-]+["']?\s*(?::|=>|=)\s*["']?([^"'\s]+)["']?$/d.exec(found)
  )?.indices?.[1];
  const start = part ? secret.start + part[0] : secret.start;
  let end = part ? secret.start + part[1] : secret.end;
  // A rule's range can stop short of its token (secretlint's AWS rule gives the key's length from
  // the start of its name): the secret ends where its token does.
  while (end < text.length && /[\w+/=-]/.test(text[end]!)) end++;
  return { ...secret, start, end };
}

/**
 * `text` with each secret replaced with its marker: overlapping finds are merged, and named by the
 * one found first in `found` (the maintained rules' finds come first).
 */
function applied(text: string, found: Found[]): Redacted {
  if (found.length === 0) return { text, counts: {}, total: 0 };
  const ordered = found
    .map((f, rank) => ({ ...f, rank }))
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const counts: Record<string, number> = {};
  let total = 0;
  let result = "";
  let at = 0;
  for (let i = 0; i < ordered.length;) {
    const start = ordered[i]!.start;
    let { end, kind, rank } = ordered[i]!;
    for (i++; i < ordered.length && ordered[i]!.start < end; i++) {
      end = Math.max(end, ordered[i]!.end);
      if (ordered[i]!.rank < rank) ({ kind, rank } = ordered[i]!);
    }
    result += text.slice(at, start) + marker(kind);
    at = end;
    counts[kind] = (counts[kind] ?? 0) + 1;
    total++;
  }
  return { text: result + text.slice(at), counts, total };
}
