/**
 * A test skipped on this machine says why in its name (DEVELOPERS.md: a test needing a tool the
 * README's setup does not install, or the shared fixtures, skips visibly, naming it): every
 * `skipIf(…)` of the test files names its test with a reason that is "" when it runs and
 * " (skipped: …)" when it does not, or with a helper that words it (needsOpenSearch).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const TEST_DIR = fileURLToPath(new URL(".", import.meta.url));
const testFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? testFiles(join(dir, entry.name))
      : entry.name.endsWith(".test.ts")
        ? [join(dir, entry.name)]
        : [],
  );

/**
 * The name given to a skippable test: what follows `skipIf(condition)(` (on that line or, as the
 * formatter may break it, the next) up to the end of its line.
 */
function skippableNames(source: string): string[] {
  const names: string[] = [];
  for (let at = source.indexOf(".skipIf("); at !== -1; at = source.indexOf(".skipIf(", at + 1)) {
    // The condition's own parentheses: its end is where they balance.
    let depth = 0;
    let end = at + ".skipIf".length;
    for (; end < source.length; end++) {
      if (source[end] === "(") depth++;
      else if (source[end] === ")" && --depth === 0) break;
    }
    const rest = source.slice(end + 1).replace(/^\(\s+/, "(");
    names.push(rest.slice(0, rest.indexOf("\n")));
  }
  return names;
}

describe("skipped tests", () => {
  it("each skippable test's name carries the reason it is skipped", () => {
    const silent: string[] = [];
    for (const file of testFiles(TEST_DIR).filter((f) => !f.endsWith("skip-reasons.test.ts"))) {
      for (const name of skippableNames(readFileSync(file, "utf8"))) {
        if (!/^\((`(?:[^`\\]|\\.)*\$\{|needsOpenSearch\()/.test(name))
          silent.push(`${file.slice(TEST_DIR.length)}: ${name.slice(0, 100)}`);
      }
    }
    expect(silent).toEqual([]);
  });
});
