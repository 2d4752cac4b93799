// Colors come from chalk at the level recall decided (src/output/paint.ts), and chalk is loaded
// only when there are colors to make (src/output/load-paint.ts).
import { describe, expect, it } from "vitest";
import { loadPaint } from "../src/output/load-paint.js";
import { createPaint } from "../src/output/paint.js";

describe("paint", () => {
  it("writes the same escape codes as recall's own styles did", () => {
    const paint = createPaint(true);
    expect(
      ["bold", "dim", "red", "yellow", "magenta", "cyan"].map((style) =>
        paint[style as "bold"]("x"),
      ),
    ).toEqual([
      "\x1b[1mx\x1b[22m",
      "\x1b[2mx\x1b[22m",
      "\x1b[31mx\x1b[39m",
      "\x1b[33mx\x1b[39m",
      "\x1b[35mx\x1b[39m",
      "\x1b[36mx\x1b[39m",
    ]);
    expect(paint.dim(`· ${paint.red("error")}`)).toBe("\x1b[2m· \x1b[31merror\x1b[39m\x1b[22m");
  });

  it("colors whatever the environment says when recall decided to", () => {
    const saved = { ...process.env };
    Object.assign(process.env, { NO_COLOR: "1", FORCE_COLOR: "0", TERM: "dumb" });
    try {
      expect(createPaint(true).bold("x")).toBe("\x1b[1mx\x1b[22m");
    } finally {
      for (const name of ["NO_COLOR", "FORCE_COLOR", "TERM"])
        if (saved[name] === undefined) delete process.env[name];
      Object.assign(process.env, saved);
    }
  });

  it("loads chalk's styles when colors are on, and gives text back as it is when they are off", async () => {
    expect((await loadPaint(true)).bold.red("x")).toBe(createPaint(true).bold.red("x"));
    const plain = await loadPaint(false);
    expect([plain("a"), plain.bold("b"), plain.bold.red("c"), plain.dim.magenta.cyan("")]).toEqual([
      "a",
      "b",
      "c",
      "",
    ]);
  });
});
