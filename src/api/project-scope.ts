/**
 * A project as a search scope (`repo`): every folder the index knows whose project identity
 * (sessions/project-identity.ts) is the given folder's, whichever clone, worktree or machine path
 * it is. `cwd` keeps meaning the exact folder; the two do not combine.
 */
import { resolve } from "node:path";
import { RecallError } from "../errors.js";
import type { NativeFilters } from "../native/addon.js";
import { projectOf } from "../sessions/project-identity.js";
import type { IndexStore } from "../store.js";

/** `filters` narrowed to the sessions of `repo`'s project (unchanged when `repo` is undefined). */
export async function inProject(
  store: IndexStore,
  filters: NativeFilters,
  repo: string | undefined,
): Promise<NativeFilters> {
  if (repo === undefined) return filters;
  if (filters.cwds !== undefined)
    throw new RecallError(
      "BAD_INPUT",
      "a folder (cwd) and a project (repo) cannot both scope one search",
      { field: "repo" },
    );
  const folder = resolve(repo);
  const project = projectOf(folder);
  const folders = (await store.native.folders()).filter(
    (known) => known === folder || projectOf(known) === project,
  );
  return { ...filters, cwds: folders.length > 0 ? folders : [folder] };
}
