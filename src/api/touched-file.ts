/**
 * Sessions that touched a file (`file`): those with a tool call that read, edited or wrote it, or
 * a bash command naming it. Calls are recorded with absolute paths, resolved against their
 * session's folder; the asked-for path is resolved against the caller's.
 */
import type { NativeFilters } from "../native/addon.js";
import { fileAskedAbout } from "../sessions/other-text.js";
import type { IndexStore } from "../store.js";
import type { FileCall } from "../answers/search-hit.js";

/** The calls that touched `file`, by session file path. */
export async function callsTouching(
  store: IndexStore,
  file: string,
): Promise<Map<string, FileCall[]>> {
  const path = fileAskedAbout(file, process.cwd());
  const bySession = new Map<string, FileCall[]>();
  for (const call of await store.native.callsTouching(path)) {
    const calls = bySession.get(call.sessionPath) ?? [];
    calls.push({ tool: call.tool, path, entryId: call.entryId });
    bySession.set(call.sessionPath, calls);
  }
  return bySession;
}

/** `filters` narrowed to the sessions of `calls`. */
export function onlyTouching(
  filters: NativeFilters,
  calls: Map<string, FileCall[]>,
): NativeFilters {
  return { ...filters, paths: [...calls.keys()] };
}
