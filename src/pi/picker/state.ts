/**
 * The `/recall` picker as data: what it shows and how each key changes it. `handleKey` is a pure
 * function from (state, key) to (new state, effects); the Pi component (component.ts) turns raw
 * terminal input into `PickerKey`s and carries the effects out (searching, resuming, closing), so
 * every behaviour here is testable without a terminal or Pi.
 */
import type { ArchiveHit, ContentScope, SearchHit, SessionRef } from "../../index.js";

/**
 * `current`: sessions started in this folder (as Pi's /resume scopes it); `all`: every project;
 * `remote`: the archive of recall's config.json (`PickerState.remote`), every machine's sessions.
 */
export type Scope = "current" | "all" | "remote";

export interface Notice {
  kind: "info" | "warning" | "error";
  text: string;
}

export interface PreviewMessage {
  role: string;
  text: string;
}

/** The latest messages of the selected session, for the preview pane. */
export interface Preview {
  /** The session's `previewKey`. */
  path: string;
  status: "loading" | "ready" | "error";
  messages: PreviewMessage[];
  /** Messages in the session (the preview shows the last few). */
  total: number;
  error?: string;
}

export interface PickerState {
  query: string;
  /** Cursor position in `query`, in UTF-16 units, always between graphemes. */
  cursor: number;
  scope: Scope;
  /** Also search thinking, tool calls and tool output (Shift+Tab), not only the conversation. */
  everyKind: boolean;
  /** Search by meaning as well as by words (Ctrl+T): `both` (needs the model package). */
  byMeaning: boolean;
  /** The folder Pi runs in: what `current` scope means. */
  cwd: string;
  /**
   * The remote Tab reaches after `all` (the first of config.json's); none: Tab toggles the two
   * local scopes.
   */
  remote?: string;
  /** The session Pi has open, which cannot be resumed from the picker. */
  currentSession: { id?: string; path?: string };
  /** The session whose related sessions the list shows (Ctrl+R) instead of the query's results. */
  relatedTo?: SearchHit;
  results: SearchHit[];
  /** How many results were asked for: a full page means there may be more. */
  limit: number;
  selected: number;
  /** Index of the first result shown. */
  scroll: number;
  /** Results for the current query and scope have arrived at least once. */
  loaded: boolean;
  /** A search for the current query is on its way. */
  searching: boolean;
  /** The index is being brought up to date in the background. */
  syncing: boolean;
  /** The last background sync could not write (another process held the index). */
  indexBusy: boolean;
  notice?: Notice;
  /** A session whose folder is gone, waiting for Enter to fork it into `cwd`. */
  confirmFork?: SearchHit;
  preview?: Preview;
  /** The time ages are shown against (ms since epoch). */
  now: number;
}

export type PickerKey =
  | { type: "up" | "down" | "pageUp" | "pageDown" | "first" | "last" }
  | {
      type:
        "confirm" | "cancel" | "toggleScope" | "toggleContent" | "toggleRelated" | "toggleMeaning";
    }
  | { type: "left" | "right" | "lineStart" | "lineEnd" }
  | { type: "backspace" | "delete" | "deleteWordBackward" | "clearLine" }
  | { type: "text"; text: string };

export type PickerEffect =
  /** Run the search for the current query and scope; `debounce` while typing. */
  | { type: "search"; debounce: boolean }
  | { type: "resume"; hit: SearchHit }
  /** Fork `hit` (whose folder is gone) into `cwd` and switch to the fork. */
  | { type: "fork"; hit: SearchHit }
  /** Pull an archived session's kept file to this machine, then resume it (`pulled`). */
  | { type: "pull"; hit: ArchiveHit }
  | { type: "close" };

export interface KeyContext {
  /** Results visible at once (a page). */
  pageSize: number;
  /** Whether a session's folder still exists (Pi refuses to resume into a missing folder). */
  folderExists: (path: string) => boolean;
}

export interface Update {
  state: PickerState;
  effects: PickerEffect[];
}

export const PICKER_LIMIT = 50;

export function initialState(options: {
  query?: string;
  scope: Scope;
  cwd: string;
  currentSession?: { id?: string; path?: string };
  remote?: string;
  now?: number;
  /** Searching by words and meaning from the start (the meaning model is installed). */
  byMeaning?: boolean;
}): PickerState {
  const query = options.query ?? "";
  return {
    query,
    cursor: query.length,
    scope: options.scope,
    everyKind: false,
    byMeaning: options.byMeaning ?? false,
    cwd: options.cwd,
    ...(options.remote === undefined ? {} : { remote: options.remote }),
    currentSession: options.currentSession ?? {},
    results: [],
    limit: PICKER_LIMIT,
    selected: 0,
    scroll: 0,
    loaded: false,
    searching: true,
    syncing: false,
    indexBusy: false,
    now: options.now ?? Date.now(),
  };
}

/**
 * What the index is asked for the current state: a search, (no words yet) the latest sessions, or
 * the sessions related to one (`related`); in the `remote` scope, the archive's search.
 */
export function searchRequest(state: PickerState): {
  query: string;
  cwd?: string;
  limit: number;
  content?: ContentScope[];
  match?: "both" | "words";
  related?: SessionRef;
  remote?: string;
} {
  const related = state.relatedTo;
  if (state.scope === "remote" && state.remote !== undefined) {
    return {
      query: state.query,
      remote: state.remote,
      limit: state.limit,
      ...(state.everyKind ? { content: ["all" as const] } : {}),
    };
  }
  return {
    query: state.query,
    ...(state.everyKind ? { content: ["all" as const] } : {}),
    // Said either way: the library's default is both where the model is installed.
    ...(related ? {} : { match: state.byMeaning ? ("both" as const) : ("words" as const) }),
    ...(state.scope === "current" ? { cwd: state.cwd } : {}),
    limit: state.limit,
    ...(related ? { related: { id: related.id, path: related.path, cwd: related.cwd } } : {}),
  };
}

export function selectedHit(state: PickerState): SearchHit | undefined {
  return state.results[state.selected];
}

/** A hit of the archive: it names where it lives, and has no file on this machine. */
export function isArchived(hit: SearchHit): hit is ArchiveHit {
  return "origin" in hit;
}

/**
 * What a preview is known by: a session's file, or an archived session's remote and id (it has no
 * file here).
 */
export function previewKey(hit: SearchHit): string {
  return isArchived(hit) ? `${hit.origin.remote}:${hit.id}` : hit.path;
}

/** The scope Tab moves to: this folder → all projects → the remote (if any) → this folder. */
export function nextScope(state: PickerState): Scope {
  if (state.scope === "current") return "all";
  return state.scope === "all" && state.remote !== undefined ? "remote" : "current";
}

export function isCurrentSession(state: PickerState, hit: SearchHit): boolean {
  const { id, path } = state.currentSession;
  return (id !== undefined && hit.id === id) || (path !== undefined && hit.path === path);
}

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

function graphemeStarts(text: string): number[] {
  return [...Array.from(graphemes.segment(text), (s) => s.index), text.length];
}

function previousBoundary(text: string, at: number): number {
  const starts = graphemeStarts(text);
  let best = 0;
  for (const s of starts) if (s < at) best = s;
  return best;
}

function nextBoundary(text: string, at: number): number {
  for (const s of graphemeStarts(text)) if (s > at) return s;
  return text.length;
}

/** Keeps the selection on screen, moving the window as little as possible. */
function scrolled(state: PickerState, pageSize: number): PickerState {
  const page = Math.max(1, pageSize);
  const last = Math.max(0, state.results.length - 1);
  const selected = Math.min(Math.max(0, state.selected), last);
  let scroll = Math.min(Math.max(0, state.scroll), Math.max(0, state.results.length - page));
  if (selected < scroll) scroll = selected;
  if (selected >= scroll + page) scroll = selected - page + 1;
  return { ...state, selected, scroll };
}

function edited(state: PickerState, query: string, cursor: number): Update {
  if (query === state.query) return { state: { ...state, cursor }, effects: [] };
  // Typing searches again, leaving the related sessions.
  return {
    state: { ...state, query, cursor, relatedTo: undefined, searching: true, notice: undefined },
    effects: [{ type: "search", debounce: true }],
  };
}

function move(state: PickerState, selected: number, ctx: KeyContext): Update {
  return { state: scrolled({ ...state, selected, notice: undefined }, ctx.pageSize), effects: [] };
}

function confirm(state: PickerState, ctx: KeyContext): Update {
  const hit = selectedHit(state);
  return hit ? confirmHit(state, hit, ctx) : { state, effects: [] };
}

/** Enter on `hit`: resume it; an archived one is pulled to this machine first. */
function confirmHit(state: PickerState, hit: SearchHit, ctx: KeyContext): Update {
  if (isCurrentSession(state, hit)) {
    return {
      state: {
        ...state,
        notice: { kind: "warning", text: "That is the session you are in already." },
      },
      effects: [],
    };
  }
  if (isArchived(hit)) {
    return {
      state: {
        ...state,
        notice: { kind: "info", text: `Pulling it from remote ${hit.origin.remote}…` },
      },
      effects: [{ type: "pull", hit }],
    };
  }
  if (!hit.cwd || !ctx.folderExists(hit.cwd)) {
    const where = hit.cwd
      ? `Its folder ${hit.cwd} no longer exists.`
      : "It does not record its folder.";
    return {
      state: {
        ...state,
        confirmFork: hit,
        notice: { kind: "warning", text: `${where} Enter: fork it into ${state.cwd} · Esc: back` },
      },
      effects: [],
    };
  }
  return { state, effects: [{ type: "resume", hit }] };
}

/**
 * An archived session pulled to this machine (its file at `path`, continuing in `cwd`): resumed
 * as a session of this machine is, or forked when its folder is not here.
 */
export function pulled(
  state: PickerState,
  hit: ArchiveHit,
  local: { path: string; cwd: string },
  ctx: KeyContext,
): Update {
  const { origin: _origin, ...here } = hit;
  return confirmHit(
    { ...state, notice: undefined },
    { ...here, path: local.path, cwd: local.cwd },
    ctx,
  );
}

/** An archived session that could not be pulled: where it lives, and why. */
export function notPulled(state: PickerState, hit: ArchiveHit, reason: string): PickerState {
  const { machine, user, remote } = hit.origin;
  return {
    ...state,
    notice: {
      kind: "warning",
      text: `That session lives on ${machine} (${user}, in remote ${remote}), not on this machine: ${reason}`,
    },
  };
}

export function handleKey(state: PickerState, key: PickerKey, ctx: KeyContext): Update {
  if (state.confirmFork) {
    const hit = state.confirmFork;
    const cleared = { ...state, confirmFork: undefined, notice: undefined };
    if (key.type === "confirm") return { state: cleared, effects: [{ type: "fork", hit }] };
    if (key.type === "cancel") return { state: cleared, effects: [] };
    return handleKey(cleared, key, ctx);
  }
  const count = state.results.length;
  const page = Math.max(1, ctx.pageSize);
  switch (key.type) {
    case "up":
      return count === 0
        ? { state, effects: [] }
        : move(state, state.selected <= 0 ? count - 1 : state.selected - 1, ctx);
    case "down":
      return count === 0
        ? { state, effects: [] }
        : move(state, state.selected >= count - 1 ? 0 : state.selected + 1, ctx);
    case "pageUp":
      return move(
        { ...state, scroll: state.scroll - page },
        Math.max(0, state.selected - page),
        ctx,
      );
    case "pageDown":
      return move(
        { ...state, scroll: state.scroll + page },
        Math.min(count - 1, state.selected + page),
        ctx,
      );
    case "first":
      return move(state, 0, ctx);
    case "last":
      return move(state, count - 1, ctx);
    case "confirm":
      return confirm(state, ctx);
    case "cancel":
      return { state, effects: [{ type: "close" }] };
    case "toggleScope": {
      const scope = nextScope(state);
      // The archive's results and this machine's are of different places: neither stays on show
      // under the other.
      const across = scope === "remote" || state.scope === "remote";
      return {
        state: {
          ...state,
          scope,
          ...(across ? { results: [], relatedTo: undefined, preview: undefined } : {}),
          selected: 0,
          scroll: 0,
          loaded: false,
          searching: true,
          notice: undefined,
        },
        effects: [{ type: "search", debounce: false }],
      };
    }
    case "toggleContent":
      return {
        state: {
          ...state,
          everyKind: !state.everyKind,
          selected: 0,
          scroll: 0,
          loaded: false,
          searching: true,
          notice: undefined,
        },
        effects: [{ type: "search", debounce: false }],
      };
    case "toggleMeaning":
      return {
        state: {
          ...state,
          byMeaning: !state.byMeaning,
          selected: 0,
          scroll: 0,
          loaded: false,
          searching: true,
          notice: undefined,
        },
        effects: [{ type: "search", debounce: false }],
      };
    case "toggleRelated": {
      if (state.scope === "remote")
        return {
          state: {
            ...state,
            notice: {
              kind: "info",
              text: "Related sessions are looked up on this machine: Tab to this folder or all projects.",
            },
          },
          effects: [],
        };
      // The selected session's related sessions, or back to the query's results.
      const relatedTo = state.relatedTo ? undefined : selectedHit(state);
      if (!state.relatedTo && !relatedTo) return { state, effects: [] };
      return {
        state: {
          ...state,
          relatedTo,
          selected: 0,
          scroll: 0,
          loaded: false,
          searching: true,
          notice: undefined,
        },
        effects: [{ type: "search", debounce: false }],
      };
    }
    case "left":
      return {
        state: { ...state, cursor: previousBoundary(state.query, state.cursor) },
        effects: [],
      };
    case "right":
      return { state: { ...state, cursor: nextBoundary(state.query, state.cursor) }, effects: [] };
    case "lineStart":
      return { state: { ...state, cursor: 0 }, effects: [] };
    case "lineEnd":
      return { state: { ...state, cursor: state.query.length }, effects: [] };
    case "backspace": {
      if (state.cursor === 0) return { state, effects: [] };
      const from = previousBoundary(state.query, state.cursor);
      return edited(state, state.query.slice(0, from) + state.query.slice(state.cursor), from);
    }
    case "delete": {
      if (state.cursor >= state.query.length) return { state, effects: [] };
      const to = nextBoundary(state.query, state.cursor);
      return edited(
        state,
        state.query.slice(0, state.cursor) + state.query.slice(to),
        state.cursor,
      );
    }
    case "deleteWordBackward": {
      const before = state.query.slice(0, state.cursor);
      const from = before.replace(/\S+\s*$/u, "").length;
      const start = from === before.length ? before.replace(/\s+$/u, "").length : from;
      return edited(state, state.query.slice(0, start) + state.query.slice(state.cursor), start);
    }
    case "clearLine":
      return edited(state, state.query.slice(state.cursor), 0);
    case "text": {
      // Pasted text may hold line breaks or control characters: a query is one line.
      const text = key.text.replace(/[\r\n\t]+/g, " ").replace(/[\u0000-\u001f\u007f]/g, "");
      if (!text) return { state, effects: [] };
      return edited(
        state,
        state.query.slice(0, state.cursor) + text + state.query.slice(state.cursor),
        state.cursor + text.length,
      );
    }
  }
}

/**
 * New results for the current query. A refresh of the same query (after the index caught up)
 * keeps the same session selected; results of a new query start at the top.
 */
export function withResults(
  state: PickerState,
  hits: SearchHit[],
  options: { refresh: boolean; pageSize: number; now?: number },
): PickerState {
  const previous = selectedHit(state);
  let selected = 0;
  if (options.refresh && previous) {
    const found = hits.findIndex((h) => h.id === previous.id && h.path === previous.path);
    if (found >= 0) selected = found;
  }
  return scrolled(
    {
      ...state,
      results: hits,
      selected,
      scroll: options.refresh ? state.scroll : 0,
      loaded: true,
      searching: false,
      now: options.now ?? state.now,
    },
    options.pageSize,
  );
}

/** A search failed: keep what was shown and say why. */
export function withSearchError(state: PickerState, message: string): PickerState {
  return { ...state, searching: false, loaded: true, notice: { kind: "error", text: message } };
}
