/**
 * The invariants of ARCHITECTURE.md that the import graph shows, checked on every source file:
 * adapters stand on the facade (src/index.ts) and on presentation (src/output) only, the library
 * never reaches into an adapter, and nothing but the Pi adapter imports Pi.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const src = join(root, "src");
const ADAPTERS = ["cli", "pi", "mcp"];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** Every module a file imports (static, dynamic and type-only), as written. */
export function importsOf(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+["']([^"']+)["']/g)) found.push(match[1]!);
  for (const match of text.matchAll(/(?:^|\n)\s*import\s+["']([^"']+)["']/g)) found.push(match[1]!);
  for (const match of text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) found.push(match[1]!);
  return found;
}

/** `src/<folder>` a source path belongs to ("" for files directly in src/). */
function folderOf(path: string): string {
  const rel = relative(src, path).split(sep);
  return rel.length > 1 ? rel[0]! : "";
}

/** The source file a relative import names (`.js` in the import is the `.ts` on disk). */
function target(from: string, specifier: string): string {
  return resolve(dirname(from), specifier).replace(/\.js$/, ".ts");
}

const files = sourceFiles(src).map((path) => ({ path, imports: importsOf(readFileSync(path, "utf8")) }));

describe("the import graph", () => {
  it("sees the imports it checks", () => {
    const cliMain = files.find((f) => f.path.endsWith(join("cli", "main.ts")))!;
    expect(cliMain.imports).toContain("clipanion");
    expect(importsOf(`import type { A } from "../index.js";\nconst x = await import("./y.js");`)).toEqual(["../index.js", "./y.js"]);
  });

  for (const adapter of ADAPTERS) {
    it(`src/${adapter} imports the library only through src/index.ts (and src/output for presentation)`, () => {
      const offending: string[] = [];
      for (const file of files.filter((f) => folderOf(f.path) === adapter)) {
        for (const specifier of file.imports.filter((s) => s.startsWith("."))) {
          const to = target(file.path, specifier);
          const allowed = to === join(src, "index.ts") || folderOf(to) === adapter || folderOf(to) === "output";
          if (!allowed) offending.push(`${relative(root, file.path)} → ${specifier}`);
        }
      }
      expect(offending).toEqual([]);
    });
  }

  it("the library and presentation never import an adapter", () => {
    const offending: string[] = [];
    for (const file of files.filter((f) => !ADAPTERS.includes(folderOf(f.path)))) {
      for (const specifier of file.imports.filter((s) => s.startsWith("."))) {
        if (ADAPTERS.includes(folderOf(target(file.path, specifier)))) offending.push(`${relative(root, file.path)} → ${specifier}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it("only the Pi adapter imports Pi's packages", () => {
    const offending = files
      .filter((f) => folderOf(f.path) !== "pi")
      .flatMap((f) => f.imports.filter((s) => s.startsWith("@earendil-works/")).map((s) => `${relative(root, f.path)} → ${s}`));
    expect(offending).toEqual([]);
  });
});
