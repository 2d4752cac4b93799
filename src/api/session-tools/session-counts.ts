/**
 * How many sessions a search looked through, for every page of the session tools: the index's
 * total is a count the index keeps, but a project's is a listing of its sessions, so it is
 * counted once per commit of the index (a commit is the only thing that changes it).
 */
import type { IndexStore } from "../../store.js";
import { countSessions } from "../list.js";

export class SessionCounts {
  private stamp: string | undefined;
  private readonly byFolder = new Map<string, number>();

  async of(store: IndexStore, cwd: string | undefined): Promise<number> {
    const stats = await store.native.stats();
    if (cwd === undefined) return stats.sessions;
    if (stats.stamp !== this.stamp) {
      this.stamp = stats.stamp;
      this.byFolder.clear();
    }
    let count = this.byFolder.get(cwd);
    if (count === undefined) {
      count = await countSessions(store, { cwd });
      this.byFolder.set(cwd, count);
    }
    return count;
  }
}
