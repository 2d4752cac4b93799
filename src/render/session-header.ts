/**
 * What an export says about its session before the conversation: the fields of its header, each
 * a label and plain text, shared by the Markdown and the HTML renderers.
 */
import type { ExportedSession } from "./exported-session.js";

export interface HeaderField {
  label: string;
  value: string;
  /** Shown as code: an id, a folder, a command. */
  code?: boolean;
}

export function sessionTitle(session: ExportedSession): string {
  return (session.name ?? `Session ${session.id}`).replace(/\s+/g, " ").trim();
}

/**
 * `2026-10-01 09:00 UTC`: exports are read elsewhere, so in UTC rather than the exporter's zone.
 */
export function utcTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

export function headerFields(session: ExportedSession): HeaderField[] {
  const totals = usageTotals(session);
  const fields: HeaderField[] = [
    { label: "Folder", value: session.cwd || "(not recorded)", code: true },
    { label: "Project", value: session.project },
    { label: "Started", value: utcTime(session.created) },
    { label: "Last message", value: utcTime(session.modified) },
    { label: "Models", value: session.models.join(", ") || "(none recorded)" },
    { label: "Tags", value: session.tags.map((t) => `#${t}`).join(" ") || "(none)" },
    { label: "Session", value: session.id, code: true },
  ];
  if (totals) fields.push({ label: "Usage", value: totals });
  if (session.parent) fields.push({ label: "Forked from", value: session.parent, code: true });
  if (session.redacted !== null)
    fields.push({
      label: "Redacted",
      value: `${session.redacted} secret${session.redacted === 1 ? "" : "s"} replaced with [REDACTED:kind]`,
    });
  fields.push({ label: "Resume", value: resumeLine(session), code: true });
  return fields;
}

/** Tokens and cost of every reply listed, or undefined when none recorded any. */
function usageTotals(session: ExportedSession): string | undefined {
  let tokens = 0;
  let cost = 0;
  for (const entry of session.entries) {
    if (!entry.usage) continue;
    tokens +=
      entry.usage.input + entry.usage.output + entry.usage.cacheRead + entry.usage.cacheWrite;
    cost += entry.usage.cost;
  }
  if (tokens === 0) return undefined;
  return `${tokens.toLocaleString("en-US")} tokens${cost > 0 ? `, cost ${cost.toFixed(4)}` : ""}`;
}

/** `cd <folder> && pi --session <file>`, each word quoted for a POSIX shell where it needs it. */
export function resumeLine(session: ExportedSession): string {
  const pi = ["pi", "--session", session.path].map(shellWord).join(" ");
  return session.cwd ? `cd ${shellWord(session.cwd)} && ${pi}` : pi;
}

function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
