/** `/recall help` (src/pi/help.ts) names every key the picker's own help line names. */
import { describe, expect, it } from "vitest";
import { helpText } from "../src/pi/help.js";
import { plainTheme, renderPicker } from "../src/pi/picker/render.js";
import { initialState } from "../src/pi/picker/state.js";

describe("/recall help", () => {
  it("lists each key of the picker's help line, Shift+Tab included", () => {
    const state = initialState({
      query: "",
      scope: "all",
      cwd: "/home/dev/shop-api",
      now: Date.parse("2026-10-04T09:30:00.000Z"),
    });
    const helpLine = renderPicker(state, 160, 20, plainTheme).find((line) =>
      line.includes("Esc close"),
    )!;
    // "↑↓ move · Enter resume · Tab this folder · Shift+Tab +tools, thinking · Ctrl+R related ·
    // Ctrl+T +meaning · Esc close"
    const keys = helpLine
      .replace(/[│|]/g, "")
      .split("·")
      .map((part) => part.trim().split(" ")[0]!)
      .filter((key) => /^[A-Z]/.test(key));
    expect(keys).toEqual(["Enter", "Tab", "Shift+Tab", "Ctrl+R", "Ctrl+T", "Esc"]);
    const manual = helpText("/home/dev/.pi/agent/recall/config.json");
    // Each as a key of the manual's "Picker keys" (Tab is not the Tab of Shift+Tab).
    const pickerKeys = manual.slice(manual.indexOf("Picker keys"), manual.indexOf("Queries:"));
    for (const key of keys)
      expect(pickerKeys, key).toMatch(new RegExp(`\\s${key.replace("+", "\\+")}\\s`));
  });
});
