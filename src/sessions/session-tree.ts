/**
 * Reads a Pi session file as the tree Pi itself builds: every entry with its id and parent, the
 * leaf (the last entry, Pi's current position) and the active branch from the root to it.
 *
 * Older formats are migrated the way Pi migrates them when it opens a file, without rewriting
 * it, by the same rules as the index reader (entries.ts: the header, `L<lineNo>` ids for v1
 * entries, `hookMessage` → `custom`), so a search hit's `entryId` names the same entry here. On
 * top of that, v1 entries are chained in file order, and a v1 compaction's `firstKeptEntryIndex`
 * becomes `firstKeptEntryId`. Entries of unknown types stay in the tree, so the entries after
 * them stay connected.
 *
 * The tree keeps no entry's content, only where it is in the file and whether each listing shows
 * it: a session of hundreds of megabytes is read in memory that grows with its number of entries,
 * and a reader reads again only the entries it shows (transcript.ts). A tree read to keep its
 * entries (a page, an export) keeps each one's value, but a tool result's output (most of a
 * session's bytes) only as its line's bytes, parsed again when first read (`keptValue`): a page
 * shows the output of the few calls it renders.
 */
import {
  entryOfBytes,
  placeOf,
  readEntries,
  type EntryPlace,
  type SessionHeader,
} from "./entries.js";
import { shownRole, TRANSCRIPT_MODES, type TranscriptMode } from "./entry-text.js";
import { isObject } from "./lines.js";
import { toMillis } from "./text.js";

export interface TreeEntry {
  /** Pi's id, or `L<lineNo>` for an entry without one. */
  id: string;
  parentId: string | null;
  type: string;
  /** ms since epoch: the message time for messages, the entry time otherwise. */
  timestamp: number;
  /** Where it is in the file, to read it again. */
  place: EntryPlace;
  /**
   * Its role in each listing that shows it (see entry-text.ts); absent from the others and from
   * listings not read.
   */
  shownAs: Partial<Record<TranscriptMode, string>>;
  /** Compactions: the first entry kept (a v1 `firstKeptEntryIndex` resolved to its id). */
  firstKeptEntryId?: string;
  /**
   * The entry as parsed, where the tree was read to keep it (`{ keep: true }`); a tool result's
   * without its output (`message.content`), which `output` keeps (see keptValue).
   */
  value?: Record<string, unknown>;
  /**
   * A kept tool result whose output is text and images only: its line's bytes, parsed again when
   * the output is first read.
   */
  output?: Buffer;
}

export interface SessionTree {
  path: string;
  header: SessionHeader;
  /** In file order. */
  entries: TreeEntry[];
  /** Entries by id; when an id repeats, the later entry wins, as in Pi. */
  byId: Map<string, TreeEntry>;
  /** The last entry of the file: where Pi continues. */
  leaf: TreeEntry | undefined;
  /** The display name: the last `session_info` entry's, where an empty name clears it. */
  name: string | null;
  malformedLines: number;
}

export interface TreeReading {
  /**
   * Each entry keeps its parsed value, for a reader of the whole session (an export, a page),
   * which then parses the file once instead of twice; its memory grows with the file.
   */
  keep?: boolean;
  /** The listings `shownAs` is filled for (default: every one). */
  modes?: readonly TranscriptMode[];
}

export function readSessionTree(
  path: string,
  { keep = false, modes = TRANSCRIPT_MODES }: TreeReading = {},
): SessionTree {
  const entries: TreeEntry[] = [];
  // Every object of the file, header included: what a v1 `firstKeptEntryIndex` counts.
  const fileObjects: Array<TreeEntry | "header"> = [];
  const v1Compactions: Array<{ entry: TreeEntry; firstKeptEntryIndex: number }> = [];
  let name: string | null = null;

  const stats = readEntries(
    path,
    (sessionEntry, header) => {
      const { id, value } = sessionEntry;
      const legacy = header.version < 2;
      const previous = entries[entries.length - 1];
      const parentId = legacy
        ? (previous?.id ?? null)
        : typeof value.parentId === "string"
          ? value.parentId
          : null;
      const message = value.message as { timestamp?: unknown } | undefined;
      const type = typeof value.type === "string" ? value.type : "";
      const shownAs: TreeEntry["shownAs"] = {};
      for (const mode of modes) {
        const role = shownRole(type, value, mode);
        if (role) shownAs[mode] = role;
      }
      const entry: TreeEntry = {
        id,
        parentId,
        type,
        timestamp: toMillis(message?.timestamp) ?? toMillis(value.timestamp) ?? 0,
        place: placeOf(sessionEntry),
        shownAs,
        ...(typeof value.firstKeptEntryId === "string"
          ? { firstKeptEntryId: value.firstKeptEntryId }
          : {}),
        ...(keep ? kept(value, sessionEntry.line.bytes) : {}),
      };
      entries.push(entry);
      fileObjects.push(entry);
      if (legacy && type === "compaction" && typeof value.firstKeptEntryIndex === "number")
        v1Compactions.push({ entry, firstKeptEntryIndex: value.firstKeptEntryIndex });
      if (type === "session_info")
        name = typeof value.name === "string" && value.name.trim() ? value.name.trim() : null;
    },
    { onHeaderLine: () => fileObjects.push("header") },
  );

  for (const { entry, firstKeptEntryIndex } of v1Compactions) {
    const target = fileObjects[firstKeptEntryIndex];
    if (target && target !== "header") entry.firstKeptEntryId = target.id;
  }
  const byId = new Map<string, TreeEntry>();
  for (const entry of entries) byId.set(entry.id, entry);
  return {
    path,
    header: stats.header,
    entries,
    byId,
    leaf: entries[entries.length - 1],
    name,
    malformedLines: stats.malformed,
  };
}

/**
 * What a tree read with `keep` keeps of an entry: its value; of a tool result whose output is
 * text and images only, its value without the output and its line's bytes (a copy: the reader's
 * buffer is read into again).
 */
function kept(value: Record<string, unknown>, bytes: Buffer): Pick<TreeEntry, "value" | "output"> {
  const message = value.message;
  if (value.type !== "message" || !isObject(message) || message.role !== "toolResult")
    return { value };
  const { content, ...rest } = message;
  const output =
    typeof content === "string" ||
    (Array.isArray(content) &&
      content.every((b) => isObject(b) && (b.type === "text" || b.type === "image")));
  return output ? { value: { ...value, message: rest }, output: Buffer.from(bytes) } : { value };
}

/**
 * A kept entry's value whole (a tool result's output parsed again from its line's bytes: the
 * value the tree read); undefined for an entry the tree did not keep.
 */
export function keptValue(entry: TreeEntry): Record<string, unknown> | undefined {
  if (!entry.output) return entry.value;
  const value = entryOfBytes(entry.output);
  if (!value) throw new Error("a kept line no longer parses");
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
  if (order.length < tree.entries.length)
    for (const entry of tree.entries) if (!visited.has(entry)) order.push(entry);
  return order;
}
