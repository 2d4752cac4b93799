/**
 * The one owner of a native index handle (NativeIndex in addon.d.ts): the rest of src/ reaches
 * the index through this class, whose methods are the handle's with every native error turned
 * into a RecallError here, once.
 */
import { native } from "../errors.js";
import type {
  EarlyLook,
  NativeApplyCounts,
  NativeChangeSet,
  NativeFileRecord,
  NativeFound,
  NativeIndex,
  NativeListRequest,
  NativeFileCall,
  NativeRecordSelector,
  NativeRelated,
  NativeRelatedRequest,
  NativeScan,
  NativeSearchRequest,
  NativeSession,
  NativeSnippet,
  NativeSnippetRequest,
  NativeStats,
} from "./addon.js";
import { nativeModule } from "./binding.js";
import type { MeaningHandle } from "./meaning-handle.js";
import type { MeaningIndexHandle } from "./meaning-index-handle.js";

/**
 * Which segment files' checksums opening reads (native/src/index/integrity.rs): those changed since
 * the last commit (any open), every one written since they all last passed (`recall index`), or
 * every one (after a failure).
 */
export type IndexCheck = "changed" | "written" | "every";

export class IndexHandle {
  /**
   * The native handle, for the meaning index's calls that read this index
   * (meaning-index-handle.ts).
   */
  private constructor(readonly inner: NativeIndex) {}

  /**
   * Opens (or creates) the index in `dir`; an index that cannot be used is replaced with an empty
   * one. `check` says which segment files' checksums are read first (see IndexCheck).
   */
  static async open(dir: string, check: IndexCheck = "changed"): Promise<IndexHandle> {
    const { NativeIndex } = nativeModule();
    const open = {
      changed: NativeIndex.open,
      written: NativeIndex.openRechecked,
      every: NativeIndex.openVerified,
    }[check];
    return new IndexHandle(await native(() => open(dir)));
  }

  /**
   * Why opening replaced an unusable index (corrupt, another schema) with an empty one, or null.
   */
  replacedBecause(): string | null {
    return this.inner.replacedBecause();
  }

  /** Whether the index's folder is still the one it was opened in (not deleted or replaced). */
  isInPlace(): boolean {
    return this.inner.isInPlace();
  }

  /** The folders the indexed sessions were started in, each once, sorted. */
  folders(): Promise<string[]> {
    return native(() => this.inner.folders());
  }

  /**
   * Counts of documents and sessions (a count over the session documents), and the last commit's
   * stamp and state.
   */
  stats(): Promise<NativeStats> {
    return native(() => this.inner.stats());
  }

  /** Picks up commits made since the index was opened or last reloaded. */
  reload(): Promise<void> {
    return native(() => this.inner.reload());
  }

  /**
   * Takes the writer lock, waiting up to `timeoutMs` (then LOCKED); `heavy` indexes with more
   * threads.
   */
  lock(timeoutMs: number, heavy?: boolean): Promise<void> {
    return native(() => this.inner.lock(timeoutMs, heavy));
  }

  /** Applies a change set under the writer lock; nothing is visible before `commit`. */
  apply(changes: NativeChangeSet): Promise<NativeApplyCounts> {
    return native(() => this.inner.apply(changes));
  }

  /** Deletes every document (for a rebuild); needs the writer lock. */
  clear(): Promise<void> {
    return native(() => this.inner.clear());
  }

  /** Commits under `stamp`, recording `state` with it (read back by `stats`). */
  commit(stamp: string, state: string): Promise<void> {
    return native(() => this.inner.commit(stamp, state));
  }

  /** Releases the writer lock; anything applied but not committed is dropped. */
  unlock(): Promise<void> {
    return native(() => this.inner.unlock());
  }

  /** The hits, and the words of the query read as others (typos). */
  search(request: NativeSearchRequest, signal?: AbortSignal): Promise<NativeFound> {
    return native(() => this.inner.search(request, signal));
  }

  /** The sessions that share the most of one session's distinctive words, and those words. */
  related(request: NativeRelatedRequest, signal?: AbortSignal): Promise<NativeRelated> {
    return native(() => this.inner.related(request, signal));
  }

  /**
   * The related sessions by meaning, or by words and meaning (`request.matching`), from this
   * meaning index.
   */
  relatedByMeaning(
    request: NativeRelatedRequest,
    meaning: MeaningIndexHandle,
    signal?: AbortSignal,
  ): Promise<NativeRelated> {
    return native(() => this.inner.related(request, signal, meaning.inner));
  }

  /**
   * The hits by meaning, or by words and meaning (`request.matching`), from this meaning index;
   * without `request.vector`, `model` embeds the query on the meaning's thread while the words
   * are searched.
   */
  searchByMeaning(
    request: NativeSearchRequest,
    meaning: MeaningIndexHandle,
    signal?: AbortSignal,
    model?: MeaningHandle,
  ): Promise<NativeFound> {
    return native(() => this.inner.search(request, signal, meaning.inner, model?.inner));
  }

  /** Sessions matching the filters, most recently active first. */
  list(request: NativeListRequest): Promise<NativeSession[]> {
    return native(() => this.inner.list(request));
  }

  /**
   * The snippet of each text of a kind the index does not keep whole, as a search would make it.
   */
  snippets(request: NativeSnippetRequest): Promise<NativeSnippet[]> {
    return native(() => this.inner.snippets(request));
  }

  /** The indexed tool calls that touched `file` (absolute), by session file. */
  callsTouching(file: string): Promise<NativeFileCall[]> {
    return native(() => this.inner.callsTouching(file));
  }

  /**
   * The session files that differ from their records (all of them when `compare` is false), after
   * picking up other processes' commits. Folder listings are remembered in `listingsFile`; `early`
   * stands for the look at the files if it is of the same folder, and is used up either way.
   */
  scan(
    sessionsDir: string,
    flat: boolean,
    compare: boolean,
    listingsFile: string | null,
    early?: EarlyLook,
  ): Promise<NativeScan> {
    return native(() => this.inner.scan(sessionsDir, flat, compare, listingsFile, early));
  }

  /**
   * The records of the files the selector names (one of its fields, or none for all), sorted by
   * path.
   */
  fileRecords(selector: NativeRecordSelector): Promise<NativeFileRecord[]> {
    return native(() => this.inner.fileRecords(selector));
  }
}
