/**
 * Naming a session the way users do: a full id, a unique id prefix, or a file path. Ids come from
 * the files' headers as the last sync recorded them, so header-only sessions resolve too.
 */
import { existsSync, realpathSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { RecallError } from "../errors.js";
import type { IndexStore } from "../store.js";
import { loadState } from "../sync/state.js";
import { readSessionForIndex } from "../sessions/session-index-reader.js";

export interface SessionRef {
  id: string;
  /** Absolute path of the session file. */
  path: string;
  cwd: string;
}

/** Whether `ref` names a file rather than an id (Pi's own rule for `--session`). */
export function looksLikePath(ref: string): boolean {
  return ref.includes("/") || ref.includes("\\") || ref.endsWith(".jsonl");
}

const MAX_LISTED_CANDIDATES = 10;

export function resolveSession(store: IndexStore, ref: string, cwd: string = process.cwd()): SessionRef {
  const wanted = ref.trim();
  if (!wanted) throw new RecallError("BAD_INPUT", "no session given: name one by id, id prefix or path");
  const state = loadState(store.statePath);
  if (looksLikePath(wanted)) {
    const path = isAbsolute(wanted) ? wanted : resolve(cwd, wanted);
    if (!existsSync(path)) throw new RecallError("NOT_FOUND", `no session file at ${path}`);
    const real = realpathSync(path);
    const known = state.files[path] ?? state.files[real];
    if (known) return { id: known.header.id, path, cwd: known.header.cwd };
    const read = readSessionForIndex(path);
    return { id: read.header.id, path, cwd: read.header.cwd };
  }
  const matches: SessionRef[] = [];
  for (const [path, file] of Object.entries(state.files)) {
    if (file.header.id === wanted) return { id: file.header.id, path, cwd: file.header.cwd };
    if (file.header.id.startsWith(wanted)) matches.push({ id: file.header.id, path, cwd: file.header.cwd });
  }
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) throw new RecallError("NOT_FOUND", `no session with id or id prefix "${wanted}"`);
  const listed = matches
    .slice(0, MAX_LISTED_CANDIDATES)
    .map((m) => `${m.id} (${m.path})`)
    .join(", ");
  const more = matches.length > MAX_LISTED_CANDIDATES ? `, and ${matches.length - MAX_LISTED_CANDIDATES} more` : "";
  throw new RecallError("AMBIGUOUS", `"${wanted}" matches ${matches.length} sessions: ${listed}${more}; give more of the id`);
}
