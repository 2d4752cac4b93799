/**
 * The `/recall` picker without Pi: drawing (a rectangle at any width, with and without colour,
 * matches highlighted from UTF-8 byte spans), keys, search-as-you-type timing and stale answers,
 * and refusing to resume the session Pi already has open.
 */
import { getKeybindings, visibleWidth } from "@earendil-works/pi-tui";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SearchHit } from "../src/answers/search-hit.js";
import type { ReadResult } from "../src/api/read.js";
import {
  RecallPicker,
  type PickerOutcome,
  type PickerService,
} from "../src/pi/picker/component.js";
import { PasteBuffer, toPickerKey } from "../src/pi/picker/keys.js";
import { LatestOnly, SEARCH_DEBOUNCE_MS } from "../src/pi/picker/latest.js";
import { pageSize, plainTheme, renderPicker, type PickerTheme } from "../src/pi/picker/render.js";
import {
  handleKey,
  initialState,
  PICKER_LIMIT,
  searchRequest,
  withResults,
  withSearchError,
  type KeyContext,
  type PickerState,
} from "../src/pi/picker/state.js";
import { terminalWidth } from "../src/output/plain-text.js";
import {
  byteSpans,
  colorTheme,
  highlighted,
  hit,
  stripAnsi,
  unicodeHits,
} from "./helpers/pi-picker-fixtures.js";

const NOW = Date.parse("2026-10-04T09:30:00.000Z");
const ctx: KeyContext = { pageSize: 5, folderExists: () => true };

function stateWith(hits: SearchHit[], extra: Partial<PickerState> = {}): PickerState {
  const base = initialState({
    query: "staging",
    scope: "all",
    cwd: "/home/dev/shop-api",
    now: NOW,
  });
  return { ...withResults(base, hits, { refresh: false, pageSize: 5, now: NOW }), ...extra };
}

function expectRectangle(
  lines: string[],
  width: number,
  height: number,
  measure = visibleWidth,
): void {
  expect(lines).toHaveLength(height);
  for (const line of lines) {
    expect(measure(line), JSON.stringify(stripAnsi(line))).toBe(width);
    // Only styling escapes (SGR) may reach the terminal: nothing from session text.
    expect(line.replace(/\x1b\[[0-9;]*m/g, "")).not.toMatch(/[\u0000-\u001f\u007f]/);
  }
}

describe("picker rendering", () => {
  const themes: [string, PickerTheme][] = [
    ["no color", plainTheme],
    ["color", colorTheme],
  ];
  const heights = [8, 12, 24, 40];
  const many = Array.from({ length: 30 }, (_, i) =>
    hit({ name: `Session number ${i} about the staging deploy` }),
  );

  for (const [label, theme] of themes) {
    for (const width of [40, 60, 78, 120]) {
      it(`stays a ${width}-column rectangle (${label}) with non-ASCII results, at any height`, () => {
        for (const height of heights) {
          const state = stateWith([...unicodeHits(), ...many], { selected: 1 });
          expectRectangle(renderPicker(state, width, height, theme), width, height);
        }
      });
    }
  }

  it("measures like pi-tui's visibleWidth and like its own approximation", () => {
    const state = stateWith(unicodeHits());
    for (const width of [40, 60, 78, 120]) {
      expectRectangle(
        renderPicker(state, width, 20, plainTheme, { measure: terminalWidth }),
        width,
        20,
        terminalWidth,
      );
      expectRectangle(
        renderPicker(state, width, 20, colorTheme, { measure: visibleWidth }),
        width,
        20,
        visibleWidth,
      );
    }
  });

  it("is a rectangle in every state: loading, empty, notices, preview, a long query", () => {
    const longQuery = "staging deploy 日本語 ".repeat(10);
    const states: PickerState[] = [
      initialState({ query: "", scope: "all", cwd: "/tmp", now: NOW }),
      { ...stateWith([]), scope: "current" },
      { ...stateWith([]), syncing: true },
      stateWith(unicodeHits(), {
        notice: { kind: "warning", text: "That is the session you are in already. ".repeat(5) },
      }),
      stateWith(unicodeHits(), { query: longQuery, cursor: longQuery.length }),
      stateWith(unicodeHits(), { query: longQuery, cursor: 3 }),
      stateWith(unicodeHits(), {
        preview: {
          path: unicodeHits()[0]!.path,
          status: "ready",
          total: 9,
          messages: [
            { role: "user", text: "日本語のテキスト\nwith two lines and 🚀 emoji" },
            { role: "assistant", text: "A long answer ".repeat(80) },
          ],
        },
      }),
    ];
    for (const state of states) {
      for (const width of [40, 60, 78, 120, 160]) {
        for (const theme of [plainTheme, colorTheme])
          expectRectangle(renderPicker(state, width, 24, theme), width, 24);
      }
    }
  });

  it("shows name or first message, folder, age, tags and the snippet", () => {
    const text = renderPicker(
      stateWith([hit({ tags: ["k8s", "review"] })]),
      100,
      14,
      plainTheme,
    ).join("\n");
    expect(text).toContain("Fix staging deploy: readiness probe");
    expect(text).toContain("shop-api · 3d ago");
    expect(text).toContain("#k8s #review");
    expect(text).toContain("the staging deploy is green again");
    expect(text).toContain("1/1");
    const unnamed = renderPicker(stateWith([hit({ name: null })]), 100, 14, plainTheme).join("\n");
    expect(unnamed).toContain("The staging deploy is failing the readiness probe");
  });

  it("highlights exactly the matched words, mapping UTF-8 byte spans over non-ASCII text", () => {
    const snippet = "日本語 café: the déploy to staging 🚀 went fine; staging again";
    const spans = byteSpans(snippet, ["déploy", "staging", "日本語"]);
    // The spans are byte offsets: "staging" starts after 3 CJK characters (9 bytes) and an é (2
    // bytes).
    expect(spans[0]).toEqual([0, 9]);
    const lines = renderPicker(stateWith([hit({ snippet, spans, tags: [] })]), 120, 14, colorTheme);
    expect(highlighted(lines)).toEqual(["日本語", "déploy", "staging", "staging"]);
  });

  it("moves a far-away first match into view", () => {
    const [, , , far] = unicodeHits();
    const lines = renderPicker(stateWith([far!]), 60, 14, colorTheme);
    expect(highlighted(lines)).toContain("staging");
  });

  it("says when this folder has no match, and suggests Tab", () => {
    const state = { ...stateWith([]), scope: "current" as const };
    const text = renderPicker(state, 78, 14, plainTheme).join("\n");
    expect(text).toContain('No session in this folder matches "staging".');
    expect(text).toContain("Press Tab to search all projects.");
    expect(text).toContain("this folder: shop-api");
  });

  it("shows the scroll position and keeps the selection on screen", () => {
    const hits = Array.from({ length: 30 }, (_, i) => hit({ name: `Session ${i}` }));
    let state = stateWith(hits);
    const size = pageSize(78, 14);
    for (let i = 0; i < 17; i++)
      state = handleKey(state, { type: "down" }, { ...ctx, pageSize: size }).state;
    const text = renderPicker(state, 78, 14, plainTheme).join("\n");
    expect(text).toContain("18/30");
    expect(text).toContain("▶ Session 17");
    expect(text).not.toContain("Session 0 ");
  });

  it("adds a preview pane of the latest messages when the terminal is wide", () => {
    const [first] = unicodeHits();
    const state = stateWith([first!], {
      preview: {
        path: first!.path,
        status: "ready",
        total: 12,
        messages: [
          { role: "user", text: "previewword question" },
          { role: "assistant", text: "previewword answer" },
        ],
      },
    });
    const wide = renderPicker(state, 120, 20, plainTheme).join("\n");
    expect(wide).toContain("Latest of 12 messages");
    expect(wide).toContain("previewword answer");
    const narrow = renderPicker(state, 78, 20, plainTheme).join("\n");
    expect(narrow).not.toContain("previewword");
  });

  it("marks the session Pi has open", () => {
    const h = hit();
    const text = renderPicker(
      stateWith([h], { currentSession: { id: h.id } }),
      100,
      14,
      plainTheme,
    ).join("\n");
    expect(text).toContain("· current");
  });
});

describe("picker keys", () => {
  const hits = Array.from({ length: 12 }, (_, i) => hit({ name: `Session ${i}` }));

  it("moves with up/down (wrapping) and pages with PgUp/PgDn", () => {
    let state = stateWith(hits);
    state = handleKey(state, { type: "up" }, ctx).state;
    expect(state.selected).toBe(11);
    state = handleKey(state, { type: "down" }, ctx).state;
    expect(state.selected).toBe(0);
    state = handleKey(state, { type: "pageDown" }, ctx).state;
    expect(state.selected).toBe(5);
    state = handleKey(state, { type: "pageDown" }, ctx).state;
    state = handleKey(state, { type: "pageDown" }, ctx).state;
    expect(state.selected).toBe(11);
    expect(state.scroll).toBe(7);
    state = handleKey(state, { type: "pageUp" }, ctx).state;
    expect(state.selected).toBe(6);
  });

  it("edits the query by grapheme and asks for a debounced search", () => {
    let state = initialState({ query: "", scope: "all", cwd: "/x" });
    let update = handleKey(state, { type: "text", text: "s" }, ctx);
    expect(update.effects).toEqual([{ type: "search", debounce: true }]);
    state = update.state;
    for (const ch of ["t", "a", "g", " ", "🚀"])
      state = handleKey(state, { type: "text", text: ch }, ctx).state;
    expect(state.query).toBe("stag 🚀");
    state = handleKey(state, { type: "backspace" }, ctx).state;
    expect(state.query).toBe("stag ");
    state = handleKey(state, { type: "deleteWordBackward" }, ctx).state;
    expect(state.query).toBe("");
    update = handleKey(state, { type: "backspace" }, ctx);
    expect(update.effects).toEqual([]);
  });

  it("folds a pasted multi-line text into one line", () => {
    const state = handleKey(
      initialState({ query: "", scope: "all", cwd: "/x" }),
      { type: "text", text: "staging\ndeploy\u0007" },
      ctx,
    ).state;
    expect(state.query).toBe("staging deploy");
  });

  it("toggles the scope with Tab and searches at once", () => {
    const update = handleKey(stateWith(hits), { type: "toggleScope" }, ctx);
    expect(update.state.scope).toBe("current");
    expect(update.effects).toEqual([{ type: "search", debounce: false }]);
    expect(handleKey(update.state, { type: "toggleScope" }, ctx).state.scope).toBe("all");
  });

  it("with a remote configured, Tab goes this folder → all projects → the remote → this folder, and the archive's search names it", () => {
    const local = stateWith(hits, { scope: "current", remote: "team" });
    const all = handleKey(local, { type: "toggleScope" }, ctx).state;
    expect(all.scope).toBe("all");
    expect(all.results).toBe(hits);
    const team = handleKey(all, { type: "toggleScope" }, ctx);
    expect(team.state.scope).toBe("remote");
    expect(team.effects).toEqual([{ type: "search", debounce: false }]);
    // This machine's results are not shown under the archive's name.
    expect(team.state.results).toEqual([]);
    expect(searchRequest(team.state)).toEqual({
      query: "staging",
      remote: "team",
      limit: PICKER_LIMIT,
    });
    expect(renderPicker(team.state, 120, 20, plainTheme).join("\n")).toContain(
      "Searching remote team…",
    );
    expect(handleKey(team.state, { type: "toggleScope" }, ctx).state.scope).toBe("current");
  });

  it("shows where an archived session lives, says the scope in the header and the footer, and does not resume it", () => {
    const archived = {
      ...hit({ path: "" }),
      origin: { remote: "team", machine: "desktop", user: "bob" },
    };
    const state = stateWith([archived], { scope: "remote", remote: "team" });
    const text = renderPicker(state, 90, 20, plainTheme).join("\n");
    expect(text).toContain("team (archive)");
    expect(text).toContain("shop-api · on desktop (bob) · 3d ago");
    expect(text).toContain("1 session in remote team (every machine)");
    // This machine's index updating or busy is not the archive's state.
    for (const local of [{ syncing: true }, { indexBusy: true }]) {
      const shown = renderPicker({ ...state, ...local }, 90, 20, plainTheme).join("\n");
      expect(shown).toContain("1 session in remote team (every machine)");
      expect(shown).not.toMatch(/Updating the index|Index busy/);
    }
    expect(text).toContain("Enter pull and resume · Tab this folder");
    expect(
      renderPicker(stateWith(hits, { scope: "all", remote: "team" }), 120, 20, plainTheme).join(
        "\n",
      ),
    ).toContain("Tab team (archive)");
    // Enter pulls it first: never a resume of a file this machine does not have.
    const enter = handleKey(state, { type: "confirm" }, ctx);
    expect(enter.effects).toEqual([{ type: "pull", hit: archived }]);
    expect(enter.state.notice?.text).toBe("Pulling it from remote team…");
  });

  it("says in one line when the remote could not be searched, and keeps this machine's scopes", () => {
    const failed = withSearchError(
      stateWith([], { scope: "remote", remote: "team" }),
      "remote team did not answer within 1 s while searching",
    );
    const text = renderPicker(failed, 120, 20, plainTheme).join("\n");
    expect(text).toContain("Remote team could not be searched");
    expect(text).toContain("remote team did not answer within 1 s while searching");
    const back = handleKey(failed, { type: "toggleScope" }, ctx).state;
    expect(back.scope).toBe("current");
    expect(back.notice).toBeUndefined();
    expect(searchRequest(back)).toEqual({
      query: "staging",
      match: "words",
      cwd: "/home/dev/shop-api",
      limit: PICKER_LIMIT,
    });
  });

  it("widens the search to tool calls, output and thinking with Shift+Tab, says so in the help line, and narrows it back", () => {
    const narrow = stateWith(hits);
    expect(searchRequest(narrow).content).toBeUndefined();
    expect(renderPicker(narrow, 120, 20, plainTheme).join("\n")).toContain(
      "Shift+Tab +tools, thinking",
    );
    const update = handleKey(narrow, { type: "toggleContent" }, ctx);
    expect(update.effects).toEqual([{ type: "search", debounce: false }]);
    expect(searchRequest(update.state).content).toEqual(["all"]);
    expect(renderPicker(update.state, 120, 20, plainTheme).join("\n")).toContain(
      "Shift+Tab conversation only",
    );
    expect(
      searchRequest(handleKey(update.state, { type: "toggleContent" }, ctx).state).content,
    ).toBeUndefined();
  });

  it("resumes the selected session with Enter and closes with Esc", () => {
    const state = handleKey(stateWith(hits), { type: "down" }, ctx).state;
    expect(handleKey(state, { type: "confirm" }, ctx).effects).toEqual([
      { type: "resume", hit: hits[1] },
    ]);
    expect(handleKey(state, { type: "cancel" }, ctx).effects).toEqual([{ type: "close" }]);
  });

  it("refuses to resume the session Pi already has open, with a message", () => {
    const byId = handleKey(
      stateWith(hits, { currentSession: { id: hits[0]!.id } }),
      { type: "confirm" },
      ctx,
    );
    expect(byId.effects).toEqual([]);
    expect(byId.state.notice?.text).toMatch(/session you are in/);
    const byPath = handleKey(
      stateWith(hits, { currentSession: { path: hits[0]!.path } }),
      { type: "confirm" },
      ctx,
    );
    expect(byPath.effects).toEqual([]);
  });

  it("offers to fork a session whose folder is gone", () => {
    const gone: KeyContext = { ...ctx, folderExists: () => false };
    const asked = handleKey(stateWith(hits), { type: "confirm" }, gone);
    expect(asked.effects).toEqual([]);
    expect(asked.state.confirmFork).toBe(hits[0]);
    expect(asked.state.notice?.text).toContain("no longer exists");
    expect(asked.state.notice?.text).toContain("fork it into /home/dev/shop-api");
    expect(handleKey(asked.state, { type: "confirm" }, gone).effects).toEqual([
      { type: "fork", hit: hits[0] },
    ]);
    const back = handleKey(asked.state, { type: "cancel" }, gone);
    expect(back.effects).toEqual([]);
    expect(back.state.confirmFork).toBeUndefined();
  });

  it("maps terminal input through Pi's key bindings", () => {
    const kb = getKeybindings();
    expect(toPickerKey("\x1b[A", kb)).toEqual({ type: "up" });
    expect(toPickerKey("\x1b[Z", kb)).toEqual({ type: "toggleContent" });
    expect(toPickerKey("\t", kb)).toEqual({ type: "toggleScope" });
    expect(toPickerKey("\x1b[B", kb)).toEqual({ type: "down" });
    expect(toPickerKey("\x1b[5~", kb)).toEqual({ type: "pageUp" });
    expect(toPickerKey("\x1b[6~", kb)).toEqual({ type: "pageDown" });
    expect(toPickerKey("\r", kb)).toEqual({ type: "confirm" });
    expect(toPickerKey("\x1b", kb)).toEqual({ type: "cancel" });
    expect(toPickerKey("\t", kb)).toEqual({ type: "toggleScope" });
    expect(toPickerKey("\x7f", kb)).toEqual({ type: "backspace" });
    expect(toPickerKey("\x17", kb)).toEqual({ type: "deleteWordBackward" });
    expect(toPickerKey("é", kb)).toEqual({ type: "text", text: "é" });
    expect(toPickerKey("\x1b[97u", kb)).toEqual({ type: "text", text: "a" });
    expect(toPickerKey("\x00", kb)).toBeUndefined();
  });

  it("gathers a bracketed paste into one piece", () => {
    const paste = new PasteBuffer();
    expect(paste.push("a\x1b[200~stag")).toEqual([{ data: "a" }]);
    expect(paste.push("ing\x1b[201~b")).toEqual([{ paste: "staging" }, { data: "b" }]);
  });
});

describe("search as you type", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("debounces a burst of keys into one search", async () => {
    const run = vi.fn(async (q: string) => q);
    const deliver = vi.fn();
    const latest = new LatestOnly(run, deliver, () => {});
    for (const q of ["s", "st", "sta", "stag"]) {
      latest.request(q, SEARCH_DEBOUNCE_MS);
      await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS - 10);
    }
    expect(run).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS);
    expect(run).toHaveBeenCalledTimes(1);
    expect(run).toHaveBeenCalledWith("stag");
    expect(deliver).toHaveBeenCalledWith("stag", "stag");
  });

  it("drops an answer that arrives after a newer request", async () => {
    const resolvers = new Map<string, (v: string) => void>();
    const run = (q: string) => new Promise<string>((resolve) => resolvers.set(q, resolve));
    const deliver = vi.fn();
    const latest = new LatestOnly(run, deliver, () => {});
    latest.request("sta");
    latest.request("staging");
    resolvers.get("staging")!("staging results");
    resolvers.get("sta")!("sta results");
    await vi.runAllTimersAsync();
    expect(deliver).toHaveBeenCalledTimes(1);
    expect(deliver).toHaveBeenCalledWith("staging results", "staging");
  });
});

describe("picker component", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function fakeService(results: (query: string) => SearchHit[]) {
    let finishSync: () => void = () => {};
    const service: PickerService & { queries: string[] } = {
      queries: [],
      search: vi.fn(async (request) => {
        service.queries.push(`${request.query}|${request.cwd ?? "all"}|${request.prefix}`);
        return results(request.query);
      }),
      catchUp: () =>
        new Promise((resolve) => {
          finishSync = () => resolve({ notices: [], indexBusy: false });
        }),
      read: vi.fn(
        async (ref) =>
          ({
            messages: [
              {
                type: "message",
                index: 0,
                entryId: "e",
                role: "user",
                timestamp: "",
                text: `preview of ${ref.id}`,
              },
            ],
            page: { total: 1 },
          }) as unknown as ReadResult,
      ),
      readArchived: vi.fn(
        async (hit) =>
          ({
            messages: [
              {
                type: "message",
                index: 0,
                entryId: "e",
                role: "user",
                timestamp: "",
                text: `archived preview of ${hit.id}`,
              },
            ],
            page: { total: 1 },
          }) as unknown as ReadResult,
      ),
      pull: vi.fn(async (hit) => ({ path: `/x/sessions/${hit.id}.jsonl`, cwd: "/x" })),
    };
    return { service, finishSync: () => finishSync() };
  }

  function makePicker(
    service: PickerService,
    state: PickerState,
    done: (o: PickerOutcome) => void = () => {},
  ) {
    const tui = { requestRender: vi.fn(), terminal: { rows: 30 } };
    const picker = new RecallPicker({
      tui,
      theme: plainTheme,
      keybindings: getKeybindings(),
      done,
      service,
      state,
      measure: visibleWidth,
      folderExists: () => true,
    });
    return { picker, tui };
  }

  it("shows the index at once, then refreshes after the library's freshness check, keeping the selection", async () => {
    const a = hit({ name: "A" });
    const b = hit({ name: "B" });
    let round = 0;
    const { service, finishSync } = fakeService(() =>
      round++ === 0 ? [a, b] : [hit({ name: "new" }), a, b],
    );
    const { picker } = makePicker(service, initialState({ query: "", scope: "all", cwd: "/x" }));
    picker.render(100);
    picker.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(picker.current.results.map((h) => h.name)).toEqual(["A", "B"]);
    expect(picker.current.syncing).toBe(true);
    expect(picker.render(100).join("\n")).toContain("Updating the index");
    picker.key({ type: "down" });
    finishSync();
    await vi.advanceTimersByTimeAsync(0);
    expect(picker.current.results.map((h) => h.name)).toEqual(["new", "A", "B"]);
    expect(picker.current.results[picker.current.selected]!.name).toBe("B");
    expect(picker.current.syncing).toBe(false);
  });

  it("searches 40 ms after typing stops, with the last word as a prefix, in the chosen scope", async () => {
    const { service } = fakeService((q) => (q ? [hit({ name: q })] : []));
    const { picker } = makePicker(service, initialState({ query: "", scope: "all", cwd: "/x" }));
    picker.start();
    await vi.advanceTimersByTimeAsync(0);
    for (const ch of "stag") picker.handleInput(ch);
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS - 1);
    expect(service.queries).toEqual(["|all|true"]);
    await vi.advanceTimersByTimeAsync(1);
    expect(service.queries).toEqual(["|all|true", "stag|all|true"]);
    picker.handleInput("\t");
    await vi.advanceTimersByTimeAsync(0);
    expect(service.queries.at(-1)).toBe("stag|/x|true");
  });

  it("asks for the selected session's related sessions on Ctrl+R, and searches again on the next", async () => {
    const a = hit({ name: "A" });
    const { service, finishSync } = fakeService((q) => [hit({ name: q || "latest" }), a]);
    const { picker } = makePicker(service, initialState({ query: "", scope: "all", cwd: "/x" }));
    picker.start();
    finishSync();
    await vi.advanceTimersByTimeAsync(0);
    picker.handleInput("\x1b[B");
    picker.handleInput("\x12");
    await vi.advanceTimersByTimeAsync(0);
    const asked = vi.mocked(service.search).mock.calls.map(([request]) => request.related);
    expect(asked.at(-1)).toEqual({ id: a.id, path: a.path, cwd: a.cwd });
    expect(picker.render(160).join("\n")).toMatch(/related to A[^]*Ctrl\+R search/);
    picker.handleInput("\x12");
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.mocked(service.search).mock.calls.at(-1)![0].related).toBeUndefined();
  });

  it("searches by words and meaning on Ctrl+T, says so, and by words again on the next", async () => {
    const { service, finishSync } = fakeService((q) => [hit({ name: q || "latest" })]);
    const { picker } = makePicker(
      service,
      initialState({ query: "flaky clock", scope: "all", cwd: "/x" }),
    );
    picker.start();
    finishSync();
    await vi.advanceTimersByTimeAsync(0);
    // Words said outright: the library's default is both where the model is installed.
    expect(vi.mocked(service.search).mock.calls.at(-1)![0].match).toBe("words");
    expect(picker.render(160).join("\n")).toContain("Ctrl+T +meaning");
    picker.handleInput("\x14");
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.mocked(service.search).mock.calls.at(-1)![0].match).toBe("both");
    expect(picker.render(160).join("\n")).toMatch(/by words and meaning[^]*Ctrl\+T words only/);
    picker.handleInput("\x14");
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.mocked(service.search).mock.calls.at(-1)![0].match).toBe("words");
  });

  it("starts with words and meaning where the meaning model is installed", async () => {
    const { service, finishSync } = fakeService((q) => [hit({ name: q || "latest" })]);
    const { picker } = makePicker(
      service,
      initialState({ query: "flaky clock", scope: "all", cwd: "/x", byMeaning: true }),
    );
    picker.start();
    finishSync();
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.mocked(service.search).mock.calls.at(-1)![0].match).toBe("both");
    expect(picker.render(160).join("\n")).toMatch(/by words and meaning[^]*Ctrl\+T words only/);
  });

  it("finishes with the session to resume, and refuses the one Pi has open", async () => {
    const open = hit({ name: "open" });
    const other = hit({ name: "other" });
    const { service } = fakeService(() => [open, other]);
    const done = vi.fn();
    const { picker } = makePicker(
      service,
      initialState({ query: "", scope: "all", cwd: "/x", currentSession: { id: open.id } }),
      done,
    );
    picker.start();
    await vi.advanceTimersByTimeAsync(0);
    picker.handleInput("\r");
    expect(done).not.toHaveBeenCalled();
    expect(picker.render(100).join("\n")).toContain("That is the session you are in already.");
    picker.handleInput("\x1b[B");
    picker.handleInput("\r");
    expect(done).toHaveBeenCalledWith({ type: "resume", hit: other });
  });

  it("reads the preview once the selection rests, when the pane shows", async () => {
    const a = hit({ name: "A" });
    const { service } = fakeService(() => [a]);
    const { picker } = makePicker(service, initialState({ query: "", scope: "all", cwd: "/x" }));
    picker.start();
    picker.render(120);
    await vi.advanceTimersByTimeAsync(100);
    picker.render(120);
    await vi.advanceTimersByTimeAsync(100);
    expect(service.read).toHaveBeenCalledTimes(1);
    expect(picker.render(120).join("\n")).toContain(`preview of ${a.id}`);
  });

  it("Enter on an archived session pulls it, then resumes the pulled file; a pull refused says where it lives and why", async () => {
    const archived = {
      ...hit({ name: "B", path: "" }),
      origin: { remote: "team", machine: "desktop", user: "bob" },
    };
    const { service } = fakeService(() => []);
    service.search = vi.fn(async (request) => (request.remote === "team" ? [archived] : []));
    const outcomes: PickerOutcome[] = [];
    const { picker } = makePicker(
      service,
      initialState({ query: "", scope: "remote", cwd: "/x", remote: "team" }),
      (o) => outcomes.push(o),
    );
    picker.start();
    await vi.advanceTimersByTimeAsync(100);
    picker.key({ type: "confirm" });
    await vi.advanceTimersByTimeAsync(0);
    expect(service.pull).toHaveBeenCalledWith(archived);
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]!.type).toBe("resume");
    expect(outcomes[0]!.hit).toMatchObject({
      id: archived.id,
      path: `/x/sessions/${archived.id}.jsonl`,
      cwd: "/x",
    });
    expect("origin" in outcomes[0]!.hit).toBe(false);

    const refused = makePicker(
      service,
      initialState({ query: "", scope: "remote", cwd: "/x", remote: "team" }),
      (o) => outcomes.push(o),
    ).picker;
    service.pull = vi.fn(async () => {
      throw new Error(
        'remote team keeps no session files to pull: its config does not set "keepFiles": true',
      );
    });
    refused.start();
    await vi.advanceTimersByTimeAsync(100);
    refused.key({ type: "confirm" });
    await vi.advanceTimersByTimeAsync(0);
    expect(outcomes).toHaveLength(1);
    expect(refused.current.notice?.text).toBe(
      'That session lives on desktop (bob, in remote team), not on this machine: remote team keeps no session files to pull: its config does not set "keepFiles": true',
    );
  });

  it("previews an archived session from the archive, never as a file of this machine", async () => {
    const archived = {
      ...hit({ name: "B", path: "" }),
      origin: { remote: "team", machine: "desktop", user: "bob" },
    };
    const { service } = fakeService(() => []);
    service.search = vi.fn(async (request) =>
      request.remote === "team" ? [archived] : [hit({ name: "local" })],
    );
    const { picker } = makePicker(
      service,
      initialState({ query: "", scope: "all", cwd: "/x", remote: "team" }),
    );
    picker.start();
    picker.render(120);
    await vi.advanceTimersByTimeAsync(100);
    picker.key({ type: "toggleScope" });
    await vi.advanceTimersByTimeAsync(100);
    picker.render(120);
    await vi.advanceTimersByTimeAsync(100);
    expect(service.readArchived).toHaveBeenCalledWith(archived, { limit: 8 });
    expect(picker.render(120).join("\n")).toContain(archived.id.slice(0, 20));
    expect(service.read).not.toHaveBeenCalledWith(
      expect.objectContaining({ path: "" }),
      expect.anything(),
    );
  });
});
