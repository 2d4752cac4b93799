/**
 * Naming a session the way users do: a full id, a unique id prefix, or a file path. Ids come from
 * the files' headers as the last sync recorded them, so header-only sessions resolve too.
 */
import { existsSync, realpathSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { RecallError } from "../errors.js";
import type { IndexStore } from "../store.js";
import { knownFile } from "../sync/state.js";
import { readHeader } from "../sessions/entries.js";
import { readSessionForIndex } from "../sessions/session-index-reader.js";
import { quote } from "../quote.js";
import { hasTagData, tagsFor } from "../tags/open-tags.js";
import { iso, toSummary, type SessionSummary } from "../answers/session-summary.js";
import { projectOf } from "../sessions/project-identity.js";

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

const MAX_LISTED_CANDIDATES = 3;

/** The sessions the index has recorded files of (header-only ones too), from their records. */
async function recorded(
  store: IndexStore,
  selector: { paths: string[] } | { sessionIdPrefix: string },
): Promise<SessionRef[]> {
  const refs: SessionRef[] = [];
  for (const record of await store.native.fileRecords(selector)) {
    const header = knownFile(record)?.state.header;
    if (header) refs.push({ id: header.id, path: record.path, cwd: header.cwd });
  }
  return refs;
}

export async function resolveSession(
  store: IndexStore,
  ref: string,
  cwd: string = process.cwd(),
): Promise<SessionRef> {
  const wanted = ref.trim();
  if (!wanted)
    throw new RecallError("BAD_INPUT", "no session given: name one by id, id prefix or path");
  if (looksLikePath(wanted)) {
    const path = isAbsolute(wanted) ? wanted : resolve(cwd, wanted);
    if (!existsSync(path)) throw new RecallError("NOT_FOUND", `no session file at ${path}`);
    const [known] = await recorded(store, { paths: [...new Set([path, realpathSync(path)])] });
    if (known) return { ...known, path };
    // A file the index never found is read only if Pi would read it: one that starts with a
    // session header. (A file in the sessions folder that lost its header is indexed, and found
    // above.)
    const header = readHeader(path);
    if (!header.hasHeader)
      throw new RecallError(
        "BAD_INPUT",
        `${path} is not a Pi session: it does not start with a session header`,
      );
    return { id: header.id, path, cwd: header.cwd };
  }
  const matches = await recorded(store, { sessionIdPrefix: wanted });
  const exact = matches.find((m) => m.id === wanted);
  if (exact) return exact;
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0)
    throw new RecallError("NOT_FOUND", `no session with id or id prefix ${quote(wanted)}`);
  // One short line: a few of the ids (not their paths), and how many more.
  const listed = matches
    .slice(0, MAX_LISTED_CANDIDATES)
    .map((m) => m.id)
    .join(", ");
  const more =
    matches.length > MAX_LISTED_CANDIDATES
      ? ` and ${matches.length - MAX_LISTED_CANDIDATES} more`
      : "";
  throw new RecallError(
    "AMBIGUOUS",
    `${quote(wanted)} matches ${matches.length} sessions: ${listed}${more}; give more of the id`,
  );
}

/**
 * A resolved session's summary as search and list give it: from the index, or, for a file the
 * index holds no messages of (header-only, or not in the sessions folder), from the file itself.
 */
export async function sessionSummary(
  store: IndexStore,
  session: SessionRef,
): Promise<SessionSummary> {
  const indexed = await store.native.list({ limit: 2, filters: { sessionIds: [session.id] } });
  const same = indexed.find((s) => s.path === session.path) ?? indexed[0];
  if (same) return toSummary(same);
  const read = readSessionForIndex(session.path);
  return {
    id: session.id,
    path: session.path,
    cwd: session.cwd,
    project: projectOf(session.cwd),
    name: read.name ?? null,
    created: iso(read.header.created),
    modified: iso(read.modified),
    messageCount: read.messageCount,
    firstMessage: read.firstMessage,
    parent: read.header.parent ?? null,
    tags: hasTagData(store) ? (await tagsFor(store)).merged(session.id) : [],
  };
}
