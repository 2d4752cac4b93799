/**
 * Tags made with the earlier pi-recall extension live in `<agentDir>/pi-recall/tags-v1.json`.
 * recall reads that file once, merges it into its own store, and says so; afterwards the file is
 * left alone (and edits to it are not read again).
 *
 * The file is `{"version": 1, "sessions": {<id>: {manualTags, autoTags, suppressedTags,
 * updatedAt}}}` as pi-recall writes it; the bare `{<id>: {manualTags, autoTags, suppressedTags}}`
 * map is accepted too. Tags are normalized the way recall's own are; anything else in the file is
 * ignored.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { normalizeTag } from "./normalize.js";
import type { TagSets, TagStore } from "./tag-store.js";

export function legacyTagsFile(piRecallDir: string): string {
  return join(piRecallDir, "tags-v1.json");
}

function tagList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const tags = value.filter((v): v is string => typeof v === "string").map(normalizeTag);
  return [...new Set(tags.filter(Boolean))];
}

/** The sessions of a legacy file's JSON; throws if it is not a tag file. */
export function parseLegacyTags(json: unknown): Map<string, TagSets> {
  if (typeof json !== "object" || json === null || Array.isArray(json))
    throw new Error("not a JSON object");
  const wrapped = json as { version?: unknown; sessions?: unknown };
  const records =
    typeof wrapped.version === "number" &&
    typeof wrapped.sessions === "object" &&
    wrapped.sessions !== null
      ? wrapped.sessions
      : json;
  const sessions = new Map<string, TagSets>();
  for (const [sessionId, record] of Object.entries(records as Record<string, unknown>)) {
    if (typeof record !== "object" || record === null) continue;
    const r = record as { manualTags?: unknown; autoTags?: unknown; suppressedTags?: unknown };
    const sets = {
      manual: tagList(r.manualTags),
      auto: tagList(r.autoTags),
      suppressed: tagList(r.suppressedTags),
    };
    if (sets.manual.length + sets.auto.length + sets.suppressed.length > 0)
      sessions.set(sessionId, sets);
  }
  return sessions;
}

/**
 * Imports `file` into `tags` unless that was done before; returns a notice for the user, if any.
 */
export async function importLegacyTags(tags: TagStore, file: string): Promise<string | undefined> {
  const marker = `legacy-import:${file}`;
  if (tags.imported(marker)) return undefined;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    return `cannot read the pi-recall tags in ${file} (${(error as NodeJS.ErrnoException).code ?? error}); they were not imported`;
  }
  let sessions: Map<string, TagSets>;
  try {
    sessions = parseLegacyTags(JSON.parse(text));
  } catch (error) {
    // Not marked as imported: once the file is fixed, the next run imports it.
    return `cannot import the pi-recall tags in ${file} (${error instanceof Error ? error.message : error}); fix or remove the file`;
  }
  const imported = await tags.importOnce(marker, sessions);
  if (imported === undefined) return undefined;
  return `imported the pi-recall tags of ${imported} session${imported === 1 ? "" : "s"} from ${file} (once; recall keeps its own copy from now on)`;
}
