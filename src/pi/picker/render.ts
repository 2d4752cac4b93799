/**
 * Drawing the picker: a pure function from its state and a box size to lines of terminal text.
 * Every line is exactly `width` columns and there are exactly `height` lines (down to a minimum),
 * whatever the results hold, so the overlay stays a rectangle at any size. Text is cut to fit
 * before it is styled; styles never carry across spans, so a highlighted match inside the selected
 * row keeps the row's background after it.
 *
 *   ╭─ recall ────────────────────────── all projects ─╮
 *   │ > staging dep▌                                    │
 *   ├───────────────────────────────────────────────────┤
 *   │ ▶ Fix staging deploy             shop-api · 3d ago │
 *   │   #k8s … the staging deploy is green again …      │
 *   ├───────────────────────────────────────────────────┤
 *   │ 12 sessions                                  1/12 │
 *   │ ↑↓ move · Enter resume · Tab this folder · Esc    │
 *   ╰───────────────────────────────────────────────────╯
 *
 * With room (see PREVIEW_MIN_WIDTH), the body is split and the right part shows the selected
 * session's latest messages.
 */
import type { SearchHit } from "../../index.js";
import { formatAge } from "../../output/age.js";
import { segments } from "../../output/highlight.js";
import { projectFolder, sessionTitle } from "../../output/session-text.js";
import {
  fit,
  oneLine,
  printableLines,
  sliceToWidth,
  truncate,
  wrap,
  type Measure,
  terminalWidth,
} from "../../output/plain-text.js";
import {
  isArchived,
  isCurrentSession,
  nextScope,
  previewKey,
  type PickerState,
  type Preview,
  type Scope,
} from "./state.js";

/** The theme colours the picker uses; Pi's `Theme` provides them all. */
export type PickerFg =
  | "accent"
  | "border"
  | "borderAccent"
  | "muted"
  | "dim"
  | "text"
  | "success"
  | "warning"
  | "error"
  | "searchMatchText";
export type PickerBg = "selectedBg" | "searchMatchBg";

export interface PickerTheme {
  fg(color: PickerFg, text: string): string;
  bg(color: PickerBg, text: string): string;
  bold(text: string): string;
}

/** No styling at all: what `NO_COLOR` gets, and what tests compare against. */
export const plainTheme: PickerTheme = {
  fg: (_color, text) => text,
  bg: (_color, text) => text,
  bold: (text) => text,
};

export interface RenderOptions {
  /** Column widths; inside Pi, pi-tui's `visibleWidth`. */
  measure?: Measure;
  /**
   * Draws the cell under the text cursor. Inside Pi: pi-tui's CURSOR_MARKER (while focused, for
   * IME windows) and `renderFakeCursor`; by default, the cell in the selection colours.
   */
  cursor?: (cell: string) => string;
}

/** Below this width there is no preview pane. */
export const PREVIEW_MIN_WIDTH = 110;
/** Lines each result takes. */
export const ROW_LINES = 2;
export const MIN_WIDTH = 20;
export const MIN_HEIGHT = 6;

interface Span {
  text: string;
  fg?: PickerFg;
  bg?: PickerBg;
  bold?: boolean;
}

interface Layout {
  width: number;
  height: number;
  /** Columns inside the borders. */
  inner: number;
  listWidth: number;
  /** 0 when there is no preview pane. */
  previewWidth: number;
  bodyHeight: number;
  separators: boolean;
  help: boolean;
}

export function layout(width: number, height: number): Layout {
  const w = Math.max(MIN_WIDTH, width);
  const h = Math.max(MIN_HEIGHT, height);
  const inner = w - 2;
  const separators = h >= 12;
  const help = h >= 9;
  // top border, query, status, bottom border, then the optional lines.
  const chrome = 4 + (separators ? 2 : 0) + (help ? 1 : 0);
  const bodyHeight = Math.max(1, h - chrome);
  const preview = w >= PREVIEW_MIN_WIDTH;
  const listWidth = preview ? Math.floor(inner * 0.55) : inner;
  const previewWidth = preview ? inner - listWidth - 1 : 0;
  return { width: w, height: h, inner, listWidth, previewWidth, bodyHeight, separators, help };
}

/** Results visible at once in a box of this size. */
export function pageSize(width: number, height: number): number {
  return Math.max(1, Math.floor(layout(width, height).bodyHeight / ROW_LINES));
}

class Painter {
  constructor(
    readonly theme: PickerTheme,
    readonly measure: Measure,
  ) {}

  style(span: Span): string {
    let text = span.text;
    if (!text) return "";
    if (span.bold) text = this.theme.bold(text);
    if (span.fg) text = this.theme.fg(span.fg, text);
    if (span.bg) text = this.theme.bg(span.bg, text);
    return text;
  }

  /**
   * Spans cut to exactly `width` columns (an `…` marks a cut), padded with spaces in `padBg`.
   * Span text must already be one printable line.
   */
  line(spans: Span[], width: number, padBg?: PickerBg): string {
    let out = "";
    let used = 0;
    for (const span of spans) {
      const w = this.measure(span.text);
      if (used + w <= width) {
        out += this.style(span);
        used += w;
        continue;
      }
      // The first span that does not fit is cut, and an ellipsis in its style marks the cut.
      const room = width - used;
      if (room >= 1) {
        const head = sliceToWidth(span.text, room - 1, this.measure);
        out += this.style({ ...span, text: head + "…" });
        used += this.measure(head) + 1;
      }
      break;
    }
    if (used < width)
      out += this.style({ text: " ".repeat(width - used), ...(padBg ? { bg: padBg } : {}) });
    return out;
  }
}

/**
 * The snippet as spans, matches marked. When the first match sits further right than a third of
 * the room, the text before it is cut (behind an `…`) so the match is on screen.
 */
function snippetSpans(hit: SearchHit, room: number, measure: Measure, selected: boolean): Span[] {
  const base: PickerFg = "muted";
  const parts = segments(hit.snippet, hit.spans).map((s) => ({
    text: oneLine(s.text),
    match: s.match,
  }));
  // Leading whitespace of the whole snippet goes.
  while (parts.length > 0 && !parts[0]!.text.trim()) parts.shift();
  if (parts.length > 0) parts[0] = { ...parts[0]!, text: parts[0]!.text.trimStart() };
  const firstMatch = parts.findIndex((p) => p.match);
  if (firstMatch > 0) {
    const before = parts.slice(0, firstMatch).reduce((sum, p) => sum + measure(p.text), 0);
    const keep = Math.floor(room / 3);
    if (before > keep) {
      const text = parts
        .slice(0, firstMatch)
        .map((p) => p.text)
        .join("");
      const graphemes = Array.from(
        new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text),
        (s) => s.segment,
      );
      let tail = "";
      for (let i = graphemes.length - 1; i >= 0; i--) {
        if (measure(graphemes[i]! + tail) > keep - 1) break;
        tail = graphemes[i]! + tail;
      }
      parts.splice(0, firstMatch, { text: "…" + tail.replace(/^\S*\s/, ""), match: false });
    }
  }
  return parts.map((p) =>
    p.match
      ? { text: p.text, fg: "searchMatchText" as const, bg: "searchMatchBg" as const, bold: true }
      : { text: p.text, fg: base, ...(selected ? { bg: "selectedBg" as const } : {}) },
  );
}

/** What a scope is called in the header and on Tab. */
function scopeName(state: PickerState, scope: Scope): string {
  if (scope === "remote") return `${state.remote ?? "remote"} (archive)`;
  return scope === "all" ? "all projects" : "this folder";
}

function resultLines(
  state: PickerState,
  hit: SearchHit,
  index: number,
  width: number,
  paint: Painter,
): string[] {
  const selected = index === state.selected;
  const bg = selected ? ("selectedBg" as const) : undefined;
  const withBg = (span: Span): Span => (bg && !span.bg ? { ...span, bg } : span);
  const marker: Span = { text: selected ? "▶ " : "  ", fg: "accent" };
  const current = isCurrentSession(state, hit);
  // An archived session says where it lives: the machine and user that pushed it.
  const where = isArchived(hit)
    ? ` · on ${oneLine(hit.origin.machine)} (${oneLine(hit.origin.user)})`
    : "";
  const meta = `${projectFolder(hit.cwd)}${where} · ${formatAge(Date.parse(hit.modified), state.now)}${current ? " · current" : ""}`;
  const metaWidth = Math.min(paint.measure(meta), Math.max(0, Math.floor((width - 2) / 2)));
  const metaText = truncate(meta, metaWidth, paint.measure);
  const titleRoom = Math.max(0, width - 2 - metaWidth - (metaWidth > 0 ? 1 : 0));
  const titleText = fit(sessionTitle(hit), titleRoom, paint.measure);
  const first = [
    marker,
    { text: titleText, fg: "text" as const, bold: selected },
    ...(metaWidth > 0
      ? [{ text: " " }, { text: metaText, fg: current ? ("warning" as const) : ("dim" as const) }]
      : []),
  ].map(withBg);

  const second: Span[] = [{ text: "  " }];
  if (hit.tags.length > 0)
    second.push({ text: hit.tags.map((t) => `#${t}`).join(" ") + " ", fg: "accent" });
  const room = Math.max(0, width - second.reduce((sum, s) => sum + paint.measure(s.text), 0));
  if (hit.snippet) second.push(...snippetSpans(hit, room, paint.measure, selected));
  else if (hit.name && oneLine(hit.firstMessage).trim())
    second.push({ text: oneLine(hit.firstMessage).trim(), fg: "muted" });
  else
    second.push({
      text: `${hit.messageCount} message${hit.messageCount === 1 ? "" : "s"}`,
      fg: "dim",
    });
  return [paint.line(first, width, bg), paint.line(second.map(withBg), width, bg)];
}

function emptyLines(state: PickerState): { text: string; fg: PickerFg }[] {
  if (!state.loaded) {
    if (state.scope === "remote") return [{ text: `Searching remote ${state.remote}…`, fg: "dim" }];
    return [
      { text: state.syncing ? "Loading (the index is catching up)…" : "Loading…", fg: "dim" },
    ];
  }
  const words = state.query.trim();
  const lines: { text: string; fg: PickerFg }[] = [];
  if (state.scope === "remote" && state.notice?.kind === "error") {
    lines.push({
      text: `Remote ${state.remote} could not be searched (the line below says why).`,
      fg: "warning",
    });
    lines.push({
      text: "This machine's sessions are unaffected: Tab goes back to this folder.",
      fg: "muted",
    });
  } else if (state.scope === "remote") {
    lines.push({
      text: words
        ? `No session in remote ${state.remote} matches "${oneLine(words)}".`
        : `No sessions in remote ${state.remote} yet.`,
      fg: "warning",
    });
    lines.push({
      text: "Words match whole in the archive; Tab goes back to this folder.",
      fg: "muted",
    });
  } else if (state.relatedTo) {
    const where = state.scope === "current" ? " in this folder" : "";
    lines.push({
      text: `No session${where} shares the distinctive words of "${oneLine(sessionTitle(state.relatedTo))}".`,
      fg: "warning",
    });
    lines.push({
      text:
        state.scope === "current"
          ? "Press Tab to look in all projects, Ctrl+R to search again."
          : "Press Ctrl+R to search again.",
      fg: "muted",
    });
  } else if (state.scope === "current") {
    lines.push({
      text: words
        ? `No session in this folder matches "${oneLine(words)}".`
        : "No sessions in this folder yet.",
      fg: "warning",
    });
    lines.push({ text: "Press Tab to search all projects.", fg: "muted" });
  } else {
    lines.push({
      text: words ? `No session matches "${oneLine(words)}".` : "No sessions in the index yet.",
      fg: "warning",
    });
    if (state.syncing)
      lines.push({
        text: "The index is being brought up to date; results will appear here.",
        fg: "muted",
      });
    else if (words)
      lines.push({
        text: "Words match whole (the last one also as a start while you type); try other words.",
        fg: "muted",
      });
  }
  return lines;
}

function listLines(state: PickerState, lay: Layout, paint: Painter): string[] {
  const width = lay.listWidth;
  const lines: string[] = [];
  if (state.results.length === 0) {
    for (const { text, fg } of emptyLines(state)) {
      for (const part of wrap(text, width - 2, paint.measure))
        lines.push(paint.line([{ text: " " }, { text: part, fg }], width));
    }
  } else {
    const rows = Math.max(1, Math.floor(lay.bodyHeight / ROW_LINES));
    const scroll = Math.min(Math.max(0, state.scroll), Math.max(0, state.results.length - rows));
    const first = Math.min(scroll, state.selected);
    const start = state.selected >= first + rows ? state.selected - rows + 1 : first;
    for (let i = start; i < Math.min(state.results.length, start + rows); i++) {
      lines.push(...resultLines(state, state.results[i]!, i, width, paint));
    }
  }
  while (lines.length < lay.bodyHeight) lines.push(" ".repeat(width));
  return lines.slice(0, lay.bodyHeight);
}

const ROLE_LABELS: Record<string, string> = {
  user: "you",
  assistant: "assistant",
  custom: "extension",
  compaction: "summary",
  branch_summary: "branch summary",
};

function previewLines(
  preview: Preview | undefined,
  hit: SearchHit | undefined,
  lay: Layout,
  paint: Painter,
): string[] {
  const width = lay.previewWidth;
  const height = lay.bodyHeight;
  const out: string[] = [];
  const pad = (spans: Span[]) => paint.line([{ text: " " }, ...spans], width);
  if (!hit) {
    out.push(pad([{ text: "No session selected.", fg: "dim" }]));
  } else if (!preview || preview.path !== previewKey(hit) || preview.status === "loading") {
    out.push(pad([{ text: "Loading the latest messages…", fg: "dim" }]));
  } else if (preview.status === "error") {
    for (const part of wrap(
      `Cannot read this session: ${oneLine(preview.error ?? "unknown error")}`,
      width - 2,
      paint.measure,
    )) {
      out.push(pad([{ text: part, fg: "error" }]));
    }
  } else if (preview.messages.length === 0) {
    out.push(pad([{ text: "This session has no messages.", fg: "dim" }]));
  } else {
    // Latest messages at the bottom: newest first, each whole, while they fit; the newest is shown
    // even when it alone overflows the pane (its start, then "…").
    const heading = pad([
      { text: `Latest of ${preview.total} message${preview.total === 1 ? "" : "s"}`, fg: "dim" },
    ]);
    const room = height - 1;
    const blocks: string[][] = [];
    let used = 0;
    for (let i = preview.messages.length - 1; i >= 0; i--) {
      const message = preview.messages[i]!;
      const label = ROLE_LABELS[message.role] ?? message.role;
      const body = printableLines(message.text)
        .flatMap((line) => (line ? wrap(line, width - 3, paint.measure) : [""]))
        .filter((line, n, all) => line || (n > 0 && all[n - 1]));
      const gap = blocks.length > 0 ? 1 : 0;
      const maxBody = blocks.length === 0 ? Math.max(1, room - 1) : 6;
      const shown = body.length > maxBody ? [...body.slice(0, maxBody - 1), "…"] : body;
      if (blocks.length > 0 && used + gap + 1 + shown.length > room) break;
      blocks.unshift([
        pad([{ text: label, fg: message.role === "user" ? "accent" : "success", bold: true }]),
        ...shown.map((line) => pad([{ text: " " + line, fg: "text" }])),
      ]);
      used += gap + 1 + shown.length;
    }
    const lines = blocks.flatMap((block, n) => (n === 0 ? block : [" ".repeat(width), ...block]));
    out.push(heading, ...lines.slice(0, room));
  }
  while (out.length < height) out.push(" ".repeat(width));
  return out.slice(0, height);
}

function statusSpans(state: PickerState): Span[] {
  if (state.notice)
    return [
      {
        text: oneLine(state.notice.text),
        fg: state.notice.kind === "info" ? "accent" : state.notice.kind,
      },
    ];
  const parts: Span[] = [];
  if (state.searching && state.loaded) parts.push({ text: "Searching… ", fg: "dim" });
  // This machine's index says nothing of the archive's results: its state is not the remote
  // scope's.
  const local = state.scope !== "remote";
  if (state.syncing && local) parts.push({ text: "Updating the index… ", fg: "dim" });
  else if (state.indexBusy && local)
    parts.push({
      text: "Index busy (another recall is writing); showing what it has. ",
      fg: "warning",
    });
  if (parts.length === 0 && state.loaded) {
    const n = state.results.length;
    const more = n >= state.limit ? "+" : "";
    const related = state.relatedTo ? ` related to ${oneLine(sessionTitle(state.relatedTo))}` : "";
    const meaning = state.byMeaning && !state.relatedTo ? " by words and meaning" : "";
    const where =
      state.scope === "current"
        ? " in this folder"
        : state.scope === "remote"
          ? ` in remote ${state.remote} (every machine)`
          : "";
    parts.push({
      text: `${n}${more} session${n === 1 ? "" : "s"}${where}${related}${state.scope === "remote" ? "" : meaning}`,
      fg: "dim",
    });
  }
  return parts;
}

export function renderPicker(
  state: PickerState,
  width: number,
  height: number,
  theme: PickerTheme,
  options: RenderOptions = {},
): string[] {
  const measure = options.measure ?? terminalWidth;
  const paint = new Painter(theme, measure);
  const lay = layout(width, height);
  const border = (text: string) => theme.fg("border", text);
  const framed = (content: string) => border("│") + content + border("│");

  const lines: string[] = [];
  // ╭─ recall ──── all projects ─╮
  const scopeLabel =
    state.scope === "current"
      ? `this folder: ${projectFolder(state.cwd)}`
      : scopeName(state, state.scope);
  const label = truncate(` ${scopeLabel} `, Math.max(0, lay.inner - 12), measure);
  const fill = Math.max(0, lay.inner - 10 - measure(label));
  lines.push(
    border("╭─") +
      theme.fg("accent", theme.bold(" recall ")) +
      border("─".repeat(fill)) +
      theme.fg("accent", label) +
      border("─╮"),
  );

  // > query, with the cursor on a cell of its own; a query too long for the line shows its end.
  const prompt = "> ";
  const room = lay.inner - 1 - prompt.length;
  const split = (text: string) =>
    Array.from(
      new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text),
      (s) => s.segment,
    );
  const afterGraphemes = split(oneLine(state.query.slice(state.cursor)));
  const cursorText = afterGraphemes[0] ?? " ";
  let beforeText = oneLine(state.query.slice(0, state.cursor));
  if (measure(beforeText) + measure(cursorText) > room) {
    const graphemes = split(beforeText);
    while (graphemes.length > 0 && 1 + measure(graphemes.join("")) + measure(cursorText) > room)
      graphemes.shift();
    beforeText = "…" + graphemes.join("");
  }
  const afterRoom = Math.max(0, room - measure(beforeText) - measure(cursorText));
  const afterText = sliceToWidth(afterGraphemes.slice(1).join(""), afterRoom, measure);
  const pad = " ".repeat(
    Math.max(0, room - measure(beforeText) - measure(cursorText) - measure(afterText)),
  );
  lines.push(
    framed(
      " " +
        theme.fg("accent", prompt) +
        theme.fg("text", beforeText) +
        (options.cursor
          ? options.cursor(cursorText)
          : theme.bg("selectedBg", theme.fg("text", cursorText))) +
        theme.fg("text", afterText) +
        pad,
    ),
  );

  if (lay.separators) lines.push(border("├" + "─".repeat(lay.inner) + "┤"));

  const list = listLines(state, lay, paint);
  if (lay.previewWidth > 0) {
    const preview = previewLines(state.preview, state.results[state.selected], lay, paint);
    for (let i = 0; i < lay.bodyHeight; i++)
      lines.push(framed(list[i]! + border("│") + preview[i]!));
  } else {
    for (const line of list) lines.push(framed(line));
  }

  if (lay.separators) lines.push(border("├" + "─".repeat(lay.inner) + "┤"));

  // status … position
  const position =
    state.results.length > 0
      ? `${state.selected + 1}/${state.results.length}${state.results.length >= state.limit ? "+" : ""}`
      : "";
  const positionWidth = measure(position);
  const status = paint.line(
    [{ text: " " }, ...statusSpans(state)],
    Math.max(0, lay.inner - positionWidth - 1),
  );
  lines.push(framed(status + theme.fg("dim", position) + " "));

  if (lay.help) {
    const otherScope = scopeName(state, nextScope(state));
    const help = state.confirmFork
      ? "Enter fork here · Esc back"
      : state.scope === "remote"
        ? `↑↓ move · Enter pull and resume · Tab ${otherScope} · Shift+Tab ${state.everyKind ? "conversation only" : "+tools, thinking"} · Esc close`
        : `↑↓ move · Enter resume · Tab ${otherScope} · Shift+Tab ${state.everyKind ? "conversation only" : "+tools, thinking"} · Ctrl+R ${state.relatedTo ? "search" : "related"} · Ctrl+T ${state.byMeaning ? "words only" : "+meaning"} · Esc close`;
    lines.push(framed(paint.line([{ text: " " }, { text: help, fg: "dim" }], lay.inner)));
  }
  lines.push(border("╰" + "─".repeat(lay.inner) + "╯"));
  return lines;
}
