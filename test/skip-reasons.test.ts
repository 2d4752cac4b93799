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
    entry.isDirectory() ? testFiles(join(dir, entry.name)) : entry.name.endsWith(".test.ts") ? [join(dir, entry.name)] : [],
  );

/** The name given to a skippable test: what follows `skipIf(condition)(` up to the end of its line. */
function skippableNames(source: string): string[] {
  const names: string[] = [];
  for (const line of source.split("\n")) {
    const at = line.indexOf(".skipIf(");
    if (at === -1) continue;
    // The condition's own parentheses: its end is where they balance.
    let depth = 0;
    let end = at + ".skipIf".length;
    for (; end < line.length; end++) {
      if (line[end] === "(") depth++;
      else if (line[end] === ")" && --depth === 0) break;
    }
    names.push(line.slice(end + 1));
  }
  return names;
}

describe("skipped tests", () => {
  it("each skippable test's name carries the reason it is skipped", () => {
    const silent: string[] = [];
    for (const file of testFiles(TEST_DIR).filter((f) => !f.endsWith("skip-reasons.test.ts"))) {
      for (const name of skippableNames(readFileSync(file, "utf8"))) {
        if (!/^\((`(?:[^`\\]|\\.)*\$\{|needsOpenSearch\()/.test(name)) silent.push(`${file.slice(TEST_DIR.length)}: ${name.slice(0, 100)}`);
      }
    }
    expect(silent).toEqual([]);
  });
});
