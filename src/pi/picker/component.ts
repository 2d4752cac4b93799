/**
 * The picker as a Pi TUI component: it holds a `PickerState`, turns key presses into state
 * changes with `handleKey`, draws with `renderPicker`, and carries out the effects: searching
 * (debounced, stale answers dropped), loading the preview, and finishing with the session to
 * resume. It never waits for the index to be complete: the first results come from the index as
 * it is, then the same query asked through the library's freshness policy (which brings the index
 * up to date when the session files changed) refreshes them.
 */
import { existsSync, statSync } from "node:fs";
import type {
  ArchiveHit,
  ContentScope,
  ReadOptions,
  ReadResult,
  SearchHit,
  SessionRef,
} from "../../index.js";
import type { Measure } from "../../output/plain-text.js";
import { PasteBuffer, toPickerKey } from "./keys.js";
import { LatestOnly, SEARCH_DEBOUNCE_MS, type Timers } from "./latest.js";
import {
  MIN_HEIGHT,
  PREVIEW_MIN_WIDTH,
  pageSize,
  renderPicker,
  type PickerTheme,
} from "./render.js";
import {
  handleKey,
  isArchived,
  notPulled,
  previewKey,
  pulled,
  searchRequest,
  selectedHit,
  withResults,
  withSearchError,
  type PickerEffect,
  type PickerKey,
  type PickerState,
} from "./state.js";

/** What the picker was closed with. */
export type PickerOutcome =
  { type: "resume"; hit: SearchHit } | { type: "fork"; hit: SearchHit } | undefined;

type SearchRequest = {
  query: string;
  cwd?: string;
  limit: number;
  prefix?: boolean;
  content?: ContentScope[];
  match?: "both" | "words";
  related?: SessionRef;
  remote?: string;
};

/** What the preview shows of a session. */
type PreviewPage = Pick<ReadResult, "messages" | "page">;

export interface PickerService {
  /**
   * The index as it is: the query's results, or with `related` the sessions related to that one;
   * with `remote`, the archive's (never waiting on the index, within the remote's timeout).
   */
  search(request: SearchRequest): Promise<SearchHit[]>;
  /** The request asked after the library's freshness check, and what that check had to say. */
  catchUp(request: SearchRequest): Promise<{ notices: string[]; indexBusy: boolean }>;
  read(ref: SessionRef, options: ReadOptions): Promise<ReadResult>;
  /** The latest messages of an archived session, from the archive. */
  readArchived(hit: ArchiveHit, options: { limit: number }): Promise<PreviewPage>;
  /**
   * Writes an archived session's kept file into this machine's sessions folder: where it is, and
   * the folder it continues in.
   */
  pull(hit: ArchiveHit): Promise<{ path: string; cwd: string }>;
}

export interface PickerDeps {
  tui: { requestRender(): void; terminal: { rows: number } };
  theme: PickerTheme;
  keybindings: Parameters<typeof toPickerKey>[1];
  done: (outcome: PickerOutcome) => void;
  service: PickerService;
  state: PickerState;
  measure: Measure;
  /** Draws the query's cursor cell, knowing whether the picker has focus (see RenderOptions). */
  cursor?: (cell: string, focused: boolean) => string;
  folderExists?: (path: string) => boolean;
  timers?: Timers;
  /** Tallest box drawn (rows). */
  maxHeight?: number;
}

/** How long the selection rests on a session before its preview is read. */
export const PREVIEW_DELAY_MS = 60;
/** Messages the preview pane reads. */
export const PREVIEW_MESSAGES = 8;
const PREVIEW_CACHE = 32;

function isDirectory(path: string): boolean {
  try {
    return existsSync(path) && statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

interface SearchJob {
  request: SearchRequest & { prefix: boolean };
  refresh: boolean;
}

export class RecallPicker {
  /** Set by the TUI while the picker has keyboard focus. */
  focused = false;
  private state: PickerState;
  private cache: { key: string; state: PickerState; lines: string[] } | undefined;
  private readonly searches: LatestOnly<SearchJob, SearchHit[]>;
  private readonly paste = new PasteBuffer();
  private readonly previews = new Map<string, { modified: string; result: PreviewPage }>();
  private previewTimer: unknown;
  private previewFor: string | undefined;
  private lastWidth = 80;
  private disposed = false;
  private closed = false;
  private readonly timers: Timers;

  constructor(private readonly deps: PickerDeps) {
    this.state = deps.state;
    this.timers = deps.timers ?? {
      setTimeout: (callback, ms) => setTimeout(callback, ms),
      clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    };
    this.searches = new LatestOnly<SearchJob, SearchHit[]>(
      (job) => deps.service.search(job.request),
      (hits, job) =>
        this.update(
          withResults(this.state, hits, {
            refresh: job.refresh,
            pageSize: this.pageSize(),
            now: Date.now(),
          }),
        ),
      (error) => this.update(withSearchError(this.state, message(error))),
      this.timers,
    );
  }

  /**
   * Shows the index as it is right away, then what it holds once the library's freshness check has
   * run.
   */
  start(): void {
    this.runSearch(false, 0);
    this.update({ ...this.state, syncing: true });
    this.deps.service.catchUp({ ...searchRequest(this.state), prefix: true }).then(
      ({ notices, indexBusy }) => {
        this.update({
          ...this.state,
          syncing: false,
          indexBusy,
          ...(notices.length > 0 && !this.state.notice
            ? { notice: { kind: "info" as const, text: notices.join(" ") } }
            : {}),
        });
        // The query as it is now (it may have changed meanwhile), from the index brought up to
        // date.
        this.runSearch(true, 0);
      },
      (error: unknown) => {
        this.update({
          ...this.state,
          syncing: false,
          notice: { kind: "error", text: `Could not update the index: ${message(error)}` },
        });
      },
    );
  }

  get current(): PickerState {
    return this.state;
  }

  height(): number {
    const rows = this.deps.tui.terminal.rows;
    return Math.max(MIN_HEIGHT, Math.min(rows - 2, this.deps.maxHeight ?? 40));
  }

  render(width: number): string[] {
    this.lastWidth = width;
    const height = this.height();
    const key = `${width}x${height}:${this.focused}`;
    if (this.cache && this.cache.key === key && this.cache.state === this.state)
      return this.cache.lines;
    const lines = renderPicker(this.state, width, height, this.deps.theme, {
      measure: this.deps.measure,
      ...(this.deps.cursor
        ? { cursor: (cell: string) => this.deps.cursor!(cell, this.focused) }
        : {}),
    });
    this.cache = { key, state: this.state, lines };
    // The preview pane appears at this width: make sure it has something to show.
    this.schedulePreview();
    return lines;
  }

  invalidate(): void {
    this.cache = undefined;
  }

  handleInput(data: string): void {
    for (const part of this.paste.push(data)) {
      if (this.closed) return;
      if ("paste" in part) this.key({ type: "text", text: part.paste });
      else {
        const key = toPickerKey(part.data, this.deps.keybindings);
        if (key) this.key(key);
      }
    }
  }

  /** Applies one key (exposed for tests). */
  key(key: PickerKey): void {
    const { state, effects } = handleKey(this.state, key, {
      pageSize: this.pageSize(),
      folderExists: this.deps.folderExists ?? isDirectory,
    });
    this.update(state);
    for (const effect of effects) this.apply(effect);
  }

  dispose(): void {
    this.disposed = true;
    this.searches.dispose();
    if (this.previewTimer !== undefined) this.timers.clearTimeout(this.previewTimer);
  }

  private pageSize(): number {
    return pageSize(this.lastWidth, this.height());
  }

  private apply(effect: PickerEffect): void {
    switch (effect.type) {
      case "search":
        this.runSearch(false, effect.debounce ? SEARCH_DEBOUNCE_MS : 0);
        return;
      case "close":
        this.finish(undefined);
        return;
      case "resume":
      case "fork":
        this.finish({ type: effect.type, hit: effect.hit });
        return;
      case "pull":
        this.pull(effect.hit);
        return;
    }
  }

  /** Pulls an archived session, then goes on as Enter on a session of this machine does. */
  private pull(hit: ArchiveHit): void {
    this.deps.service.pull(hit).then(
      (local) => {
        if (this.disposed) return;
        const { state, effects } = pulled(this.state, hit, local, {
          pageSize: this.pageSize(),
          folderExists: this.deps.folderExists ?? isDirectory,
        });
        this.update(state);
        for (const effect of effects) this.apply(effect);
      },
      (error: unknown) => {
        if (!this.disposed) this.update(notPulled(this.state, hit, message(error)));
      },
    );
  }

  private finish(outcome: PickerOutcome): void {
    if (this.closed) return;
    this.closed = true;
    this.dispose();
    this.deps.done(outcome);
  }

  private runSearch(refresh: boolean, delayMs: number): void {
    const request = { ...searchRequest(this.state), prefix: true };
    this.searches.request({ request, refresh }, delayMs);
  }

  private update(state: PickerState): void {
    if (this.disposed) return;
    this.state = state;
    this.schedulePreview();
    this.deps.tui.requestRender();
  }

  /** Reads the selected session's latest messages once the selection rests, if the pane shows. */
  private schedulePreview(): void {
    if (this.disposed || this.lastWidth < PREVIEW_MIN_WIDTH) return;
    const hit = selectedHit(this.state);
    if (!hit) return;
    const key = previewKey(hit);
    if (this.state.preview?.path === key) return;
    const cached = this.previews.get(key);
    if (cached && cached.modified === hit.modified) {
      this.state = { ...this.state, preview: this.toPreview(key, cached.result) };
      return;
    }
    if (this.previewFor === key) return;
    this.previewFor = key;
    this.state = {
      ...this.state,
      preview: { path: key, status: "loading", messages: [], total: 0 },
    };
    if (this.previewTimer !== undefined) this.timers.clearTimeout(this.previewTimer);
    this.previewTimer = this.timers.setTimeout(() => {
      this.previewTimer = undefined;
      const read = isArchived(hit)
        ? this.deps.service.readArchived(hit, { limit: PREVIEW_MESSAGES })
        : this.deps.service.read(
            { id: hit.id, path: hit.path, cwd: hit.cwd },
            { limit: PREVIEW_MESSAGES },
          );
      read.then(
        (result) => {
          this.remember(key, hit, result);
          this.previewLoaded(key, this.toPreview(key, result));
        },
        (error: unknown) =>
          this.previewLoaded(key, {
            path: key,
            status: "error",
            messages: [],
            total: 0,
            error: message(error),
          }),
      );
    }, PREVIEW_DELAY_MS);
  }

  private remember(key: string, hit: SearchHit, result: PreviewPage): void {
    this.previews.delete(key);
    this.previews.set(key, { modified: hit.modified, result });
    while (this.previews.size > PREVIEW_CACHE)
      this.previews.delete(this.previews.keys().next().value!);
  }

  private toPreview(path: string, result: PreviewPage): NonNullable<PickerState["preview"]> {
    return {
      path,
      status: "ready",
      messages: result.messages.map((m) => ({ role: m.role, text: m.text })),
      total: result.page.total,
    };
  }

  private previewLoaded(path: string, preview: NonNullable<PickerState["preview"]>): void {
    if (this.previewFor === path) this.previewFor = undefined;
    if (this.disposed || this.state.preview?.path !== path) return;
    this.update({ ...this.state, preview });
  }
}
