/**
 * Reads a Pi session file as the tree Pi itself builds: every entry with its id and parent, the
 * leaf (the last entry, Pi's current position) and the active branch from the root to it.
 *
 * Older formats are migrated the way Pi migrates them when it opens a file, without rewriting
 * it: v1 entries, which have no ids, are chained in file order and get the stable ids
 * `L<lineNo>` (`L<lineNo>.<n>` for the n-th object of a line holding several) that the index
 * reader gives them, so a search hit's `entryId` names the same entry here; a v1 compaction's
 * `firstKeptEntryIndex` becomes `firstKeptEntryId`; the v2 message role `hookMessage` becomes
 * `custom`. Entries of unknown types stay in the tree, so the entries after them stay connected.
 */
import { readJsonLines } from "./lines.js";
import { idFromFileName } from "./session-index-reader.js";
import { toMillis } from "./text.js";

export interface TreeEntry {
  /** Pi's id, or `L<lineNo>` for an entry without one. */
  id: string;
  parentId: string | null;
  type: string;
  /** ms since epoch: the message time for messages, the entry time otherwise. */
  timestamp: number;
  /** The entry as migrated to the current format. */
  value: Record<string, unknown>;
}

export interface TreeHeader {
  id: string;
  cwd: string;
  /** 1 for legacy files without a version field. */
  version: number;
  /** `parentSession`, or the pre-0.31 `branchedFrom`. */
  parent?: string;
  /** False when the file has no header line and the id comes from the file name. */
  hasHeader: boolean;
}

export interface SessionTree {
  header: TreeHeader;
  /** In file order. */
  entries: TreeEntry[];
  /** Entries by id; when an id repeats, the later entry wins, as in Pi. */
  byId: Map<string, TreeEntry>;
  /** The last entry of the file: where Pi continues. */
  leaf: TreeEntry | undefined;
  malformedLines: number;
  recoveredLines: number;
}

function parseHeader(value: Record<string, unknown>, path: string): TreeHeader {
  return {
    id: typeof value.id === "string" && value.id ? value.id : idFromFileName(path),
    cwd: typeof value.cwd === "string" ? value.cwd : "",
    version: typeof value.version === "number" ? value.version : 1,
    parent: typeof value.parentSession === "string" ? value.parentSession : typeof value.branchedFrom === "string" ? value.branchedFrom : undefined,
    hasHeader: true,
  };
}

export function readSessionTree(path: string): SessionTree {
  let header: TreeHeader | undefined;
  const entries: TreeEntry[] = [];
  // Every object of the file, header included: what a v1 `firstKeptEntryIndex` counts.
  const fileObjects: Array<TreeEntry | "header"> = [];
  const v1Compactions: TreeEntry[] = [];
  let lastLineNo = -1;
  let ordinalOnLine = 0;

  const stats = readJsonLines(path, 0, 1, ({ value, lineNo }) => {
    ordinalOnLine = lineNo === lastLineNo ? ordinalOnLine + 1 : 0;
    lastLineNo = lineNo;
    if (value.type === "session") {
      if (!header) header = parseHeader(value, path);
      fileObjects.push("header");
      return;
    }
    header ??= { id: idFromFileName(path), cwd: "", version: 3, hasHeader: false };
    const legacy = header.version < 2;
    const id = legacy || typeof value.id !== "string" ? `L${lineNo}${ordinalOnLine ? `.${ordinalOnLine}` : ""}` : value.id;
    const previous = entries[entries.length - 1];
    const parentId = legacy ? (previous?.id ?? null) : typeof value.parentId === "string" ? value.parentId : null;
    const migrated = migrateEntry(value);
    const message = migrated.message as { timestamp?: unknown } | undefined;
    const entry: TreeEntry = {
      id,
      parentId,
      type: typeof value.type === "string" ? value.type : "",
      timestamp: toMillis(message?.timestamp) ?? toMillis(value.timestamp) ?? 0,
      value: migrated,
    };
    entries.push(entry);
    fileObjects.push(entry);
    if (legacy && entry.type === "compaction" && typeof value.firstKeptEntryIndex === "number") v1Compactions.push(entry);
  });

  for (const compaction of v1Compactions) {
    const target = fileObjects[compaction.value.firstKeptEntryIndex as number];
    if (target && target !== "header") compaction.value = { ...compaction.value, firstKeptEntryId: target.id };
  }
  const byId = new Map<string, TreeEntry>();
  for (const entry of entries) byId.set(entry.id, entry);
  return {
    header: header ?? { id: idFromFileName(path), cwd: "", version: 3, hasHeader: false },
    entries,
    byId,
    leaf: entries[entries.length - 1],
    malformedLines: stats.malformed,
    recoveredLines: stats.recovered,
  };
}

/** The v2 → v3 rename; the file's own object is left as it was. */
function migrateEntry(value: Record<string, unknown>): Record<string, unknown> {
  const message = value.message as Record<string, unknown> | undefined;
  if (value.type === "message" && message && typeof message === "object" && message.role === "hookMessage") {
    return { ...value, message: { ...message, role: "custom" } };
  }
  return value;
}

/**
 * The active branch, root first: from the leaf back through parent links, as Pi builds the
 * conversation it continues. It stops at a parent that is not in the file.
 */
export function activeBranch(tree: SessionTree): TreeEntry[] {
  const path: TreeEntry[] = [];
  const seen = new Set<TreeEntry>();
  let current = tree.leaf;
  while (current && !seen.has(current)) {
    seen.add(current);
    path.push(current);
    current = current.parentId === null ? undefined : tree.byId.get(current.parentId);
  }
  return path.reverse();
}

/**
 * Every entry once, depth first from the roots, children in file order: each branch reads
 * straight through instead of interleaving with the others by time. An entry whose parent is
 * missing from the file starts a tree of its own.
 */
export function depthFirst(tree: SessionTree): TreeEntry[] {
  const children = new Map<string, TreeEntry[]>();
  const roots: TreeEntry[] = [];
  for (const entry of tree.entries) {
    const parent = entry.parentId === null ? undefined : tree.byId.get(entry.parentId);
    if (!parent || parent === entry) {
      roots.push(entry);
      continue;
    }
    const siblings = children.get(parent.id);
    if (siblings) siblings.push(entry);
    else children.set(parent.id, [entry]);
  }
  const order: TreeEntry[] = [];
  const visited = new Set<TreeEntry>();
  // An explicit stack: a long session is a chain thousands of entries deep.
  const stack = [...roots].reverse();
  while (stack.length > 0) {
    const entry = stack.pop()!;
    if (visited.has(entry)) continue;
    visited.add(entry);
    order.push(entry);
    const below = children.get(entry.id);
    if (below) for (let i = below.length - 1; i >= 0; i--) stack.push(below[i]!);
  }
  // Entries caught in a parent cycle are reachable from no root: keep them, in file order.
  if (order.length < tree.entries.length) for (const entry of tree.entries) if (!visited.has(entry)) order.push(entry);
  return order;
}
