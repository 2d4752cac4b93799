/**
 * Freshness for a long-lived host (the MCP server, Pi: `Recall.open({ live: true })`). A query's
 * freshness check is a stat of every session file; a host that lives long watches the session
 * folders instead (folder-watch.ts), and a query checks the files only when something may have
 * changed since the last sync began: a change the watches told of, new tag data, another index
 * in the cache folder's place, a watch that failed or could not be set up, or a minute without a
 * full check (inotify drops events when its queue overflows, silently through fs.watch).
 *
 * A change complete before a query was asked is never missed: the watches and the query's input
 * (stdin, Pi's UI) are served by the same event loop, and `state` lets the loop poll once more
 * before it answers: the kernel queued the change's events before the query arrived, or, for a
 * change this process made, before `state` was called.
 */
import type { Locations } from "../locations.js";
import type { IndexStore } from "../store.js";
import { FolderWatch } from "./folder-watch.js";
import { tagDataSignature } from "./tag-fingerprint.js";

/** How long the watches alone are trusted before a query checks every file again. */
const FULL_CHECK_MS = 60_000;
/** Beyond this many project folders, no folder is watched: every query checks the files. */
export const MAX_WATCHED_FOLDERS = 2_000;

/**
 * Fresh: nothing can have changed since the last sync. Changed: something did. Unknown: the watches
 * cannot say.
 */
export type LiveState = "fresh" | "changed" | "unknown";

/** What was true when a sync began; handed back to `synced` when it ended having caught up. */
export interface SyncMark {
  changes: number;
  store: IndexStore;
  tags: string;
  at: number;
}

export class LiveFreshness {
  private readonly folders: FolderWatch;
  /** Changes the watches told of, counted. */
  private changes = 0;
  private failed = false;
  private last: SyncMark | undefined;

  constructor(locations: Pick<Locations, "sessionsDir" | "layout">) {
    this.folders = new FolderWatch(locations, {
      onChange: () => this.changes++,
      onError: () => (this.failed = true),
      // The host lives for its own reasons (stdin, Pi's UI): `pi -p` must still exit when done.
      persistent: false,
      maxFolders: MAX_WATCHED_FOLDERS,
    });
  }

  /**
   * Call as a sync begins, before it looks at any file: watches what is not watched yet (the
   * first time, or after a failure), so that any change after this point is told of.
   */
  syncing(store: IndexStore): SyncMark {
    if (this.failed || !this.folders.complete) {
      this.failed = false;
      this.folders.refresh();
    }
    return { changes: this.changes, store, tags: tagDataSignature(store), at: Date.now() };
  }

  /** A sync that began at `mark` has caught up with every session file and the tag data. */
  synced(mark: SyncMark): void {
    if (!this.last || mark.at >= this.last.at) this.last = mark;
  }

  /** Whether the index `store` is as fresh as the last sync left it. */
  async state(store: IndexStore): Promise<LiveState> {
    // Lets every watch event queued before now be delivered: the event loop polls once more
    // (the second setImmediate runs after the next poll phase, whatever phase this one is in).
    await new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
    const last = this.last;
    if (!last || last.store !== store) return "changed";
    if (this.changes !== last.changes || tagDataSignature(store) !== last.tags) return "changed";
    if (this.failed || !this.folders.complete || Date.now() - last.at >= FULL_CHECK_MS)
      return "unknown";
    return "fresh";
  }

  close(): void {
    this.folders.close();
  }
}
