import { describe, expect, it } from "vitest";
import { formatAge } from "../src/output/age.js";
import { resolveColor, type ColorMode } from "../src/output/color.js";
import { highlightLine, segments } from "../src/output/highlight.js";
import { createPaint } from "../src/output/paint.js";
import { parseTime } from "../src/output/time.js";

describe("resolveColor", () => {
  const table: [ColorMode, NodeJS.ProcessEnv, boolean, boolean][] = [
    ["auto", {}, true, true],
    ["auto", {}, false, false],
    ["auto", { NO_COLOR: "1" }, true, false],
    ["auto", { NO_COLOR: "" }, true, true],
    ["auto", { TERM: "dumb" }, true, false],
    ["always", { NO_COLOR: "1" }, false, true],
    ["never", {}, true, false],
  ];
  it.each(table)("%s with env %j on a tty=%s → %s", (mode, env, tty, expected) => {
    expect(resolveColor(mode, env, tty)).toBe(expected);
  });
});

describe("paint", () => {
  it("chains styles outermost first, and makes each chain once", () => {
    const paint = createPaint(true);
    expect(paint.bold.red("x")).toBe("\x1b[1m\x1b[31mx\x1b[39m\x1b[22m");
    expect(paint.dim("y")).toBe("\x1b[2my\x1b[22m");
    expect(paint.bold.red).toBe(paint.bold.red);
    expect(createPaint(false).bold.cyan("z")).toBe("z");
  });
});

describe("highlighting byte spans", () => {
  it("maps UTF-8 byte offsets after multi-byte characters", () => {
    const snippet = "日本語 café naïve 🚀 deploy";
    const start = Buffer.byteLength("日本語 café ");
    const end = start + Buffer.byteLength("naïve");
    const deploy = Buffer.byteLength("日本語 café naïve 🚀 ");
    expect(
      segments(snippet, [
        [start, end],
        [deploy, deploy + 6],
      ]),
    ).toEqual([
      { text: "日本語 café ", match: false },
      { text: "naïve", match: true },
      { text: " 🚀 ", match: false },
      { text: "deploy", match: true },
    ]);
  });

  it("folds whitespace to one line and ignores spans that do not fit", () => {
    expect(
      highlightLine(
        "a\n\nb  c",
        [
          [3, 4],
          [90, 99],
        ],
        (t) => `[${t}]`,
      ),
    ).toBe("a [b] c");
  });
});

describe("formatAge", () => {
  const now = Date.parse("2026-11-30T12:00:00Z");
  it.each([
    [now - 10e3, "just now"],
    [now - 5 * 60e3, "5m ago"],
    [now - 3 * 3600e3, "3h ago"],
    [now - 2 * 86400e3, "2d ago"],
    [now - 15 * 86400e3, "2w ago"],
    [now - 70 * 86400e3, "2mo ago"],
    [now - 800 * 86400e3, "2y ago"],
  ])("%s → %s", (then, expected) => expect(formatAge(then, now)).toBe(expected));
});

describe("parseTime", () => {
  const now = new Date(2026, 10, 30, 15, 30).getTime();
  it.each([
    ["7d", now - 7 * 86400e3],
    ["24h", now - 24 * 3600e3],
    ["2w", now - 14 * 86400e3],
    ["30m", now - 30 * 60e3],
    ["today", new Date(2026, 10, 30).getTime()],
    ["yesterday", new Date(2026, 10, 29).getTime()],
    ["2026-11-01", new Date(2026, 10, 1).getTime()],
    ["2026-11-01T10:00:00Z", Date.parse("2026-11-01T10:00:00Z")],
  ])("%s", (text, expected) => expect(parseTime(text, now)).toBe(expected));

  it("rejects what it cannot read with a clear message", () => {
    expect(() => parseTime("last tuesday", now)).toThrow(/cannot read the time "last tuesday"/);
  });
});
