/**
 * The one owner of a native tag database (TagDatabase in addon.d.ts, native/src/tags/): the tag
 * store reaches its rows through this class, whose methods are the database's with every native
 * error turned into a RecallError here, once.
 */
import { native, nativeSync } from "../errors.js";
import type {
  NativeSessionTags,
  NativeSessionTagSets,
  NativeTagChanges,
  NativeTagCount,
  NativeTagSets,
  TagDatabase,
} from "./addon.js";
import { nativeModule } from "./binding.js";

export class TagHandle {
  private constructor(private readonly inner: TagDatabase) {}

  /** Opens (or creates, with `freshId`) the tag database at `path`. */
  static open(path: string, freshId: string): TagHandle {
    const { TagDatabase } = nativeModule();
    return new TagHandle(
      nativeSync(() => TagDatabase.open(path, freshId, new Date().toISOString())),
    );
  }

  /** The problems SQLite's integrity check finds in the database at `path` (none: it is sound). */
  static problems(path: string): string[] {
    return nativeSync(() => nativeModule().tagDatabaseProblems(path));
  }

  id(): string {
    return this.inner.id();
  }

  close(): void {
    this.inner.close();
  }

  sets(sessionId: string): NativeTagSets {
    return nativeSync(() => this.inner.sets(sessionId));
  }

  merged(sessionId: string): string[] {
    return nativeSync(() => this.inner.merged(sessionId));
  }

  addManual(sessionId: string, tags: string[]): Promise<void> {
    return native(() => this.inner.addManual(sessionId, tags));
  }

  suppress(sessionId: string, tags: string[]): Promise<void> {
    return native(() => this.inner.suppress(sessionId, tags));
  }

  setAuto(sessionId: string, tags: string[]): Promise<void> {
    return native(() => this.inner.setAuto(sessionId, tags));
  }

  counts(): NativeTagCount[] {
    return nativeSync(() => this.inner.counts());
  }

  changesSince(seq: number): Promise<NativeTagChanges> {
    return native(() => this.inner.changesSince(seq));
  }

  hasMeta(key: string): boolean {
    return nativeSync(() => this.inner.hasMeta(key));
  }

  importOnce(marker: string, sessions: NativeSessionTagSets[]): Promise<number | null> {
    return native(() => this.inner.importOnce(marker, new Date().toISOString(), sessions));
  }

  needsRestore(): boolean {
    return nativeSync(() => this.inner.needsRestore());
  }

  restore(sessions: NativeSessionTags[]): Promise<number | null> {
    return native(() => this.inner.restore(sessions));
  }
}
