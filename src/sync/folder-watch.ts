/**
 * The inotify watches (through fs.watch) that tell of changes to session files: the sessions
 * folder (project folders that come and go, or in a flat layout the files) and each project folder
 * there (its files). `recall watch` syncs on them (watch.ts); a long-lived host skips its
 * freshness check while they have told of nothing (live-freshness.ts).
 */
import { watch, type FSWatcher } from "node:fs";
import type { Locations } from "../locations.js";
import { projectFolders } from "../sessions/discover.js";

export interface FolderWatchOptions {
  /** Something changed in a watched folder, or a watched folder went away. */
  onChange(): void;
  /**
   * A folder that is there could not be watched: changes in it go unseen until `refresh` watches
   * it.
   */
  onError(error: unknown): void;
  /** Whether the watches alone keep the process alive. */
  persistent: boolean;
  /**
   * Project folders beyond this many are not watched (and `complete` is false): inotify watches are
   * a shared, limited resource.
   */
  maxFolders?: number;
}

export class FolderWatch {
  private readonly watchers = new Map<string, FSWatcher>();
  private missed = false;

  constructor(
    private readonly locations: Pick<Locations, "sessionsDir" | "layout">,
    private readonly options: FolderWatchOptions,
  ) {}

  /** Whether every folder the last `refresh` found is watched and none has failed since. */
  get complete(): boolean {
    return !this.missed && this.watchers.has(this.locations.sessionsDir);
  }

  /**
   * Watches the sessions folder and each project folder in it; stops watching those that are
   * gone. Call it again when the sessions folder changed (its watch's `onChange`).
   */
  refresh(): void {
    const { sessionsDir, layout } = this.locations;
    this.missed = false;
    this.watchFolder(sessionsDir, () => {
      this.refresh();
      this.options.onChange();
    });
    if (layout === "flat" || !this.watchers.has(sessionsDir)) return;
    let present: Set<string>;
    try {
      present = new Set(projectFolders(sessionsDir));
    } catch (error) {
      this.missed = true;
      this.options.onError(error);
      return;
    }
    for (const [folder, watcher] of this.watchers) {
      if (folder !== sessionsDir && !present.has(folder)) {
        watcher.close();
        this.watchers.delete(folder);
      }
    }
    if (this.options.maxFolders !== undefined && present.size > this.options.maxFolders) {
      this.missed = true;
      return;
    }
    for (const folder of present) this.watchFolder(folder, () => this.options.onChange());
  }

  close(): void {
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  private watchFolder(folder: string, onEvent: () => void): void {
    if (this.watchers.has(folder)) return;
    try {
      const watcher = watch(folder, { persistent: this.options.persistent }, onEvent);
      // A watched folder that is removed (or becomes unreadable) is dropped; the next refresh
      // decides whether it is still there.
      watcher.on("error", () => {
        watcher.close();
        this.watchers.delete(folder);
        this.missed = true;
        this.options.onChange();
      });
      this.watchers.set(folder, watcher);
    } catch (error) {
      this.missed = true;
      // A folder gone since it was listed is not an error; the next refresh looks again.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") this.options.onError(error);
    }
  }
}
