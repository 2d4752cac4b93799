/**
 * The invariants of ARCHITECTURE.md that a machine can check, on every source file: adapters
 * stand on the facade (src/index.ts) and on presentation (src/output) only, the library never
 * reaches into an adapter or into presentation, presentation never into the native core, nothing
 * but the Pi adapter imports Pi; src/index.ts exports the facade, its pure helpers and the types
 * and constants of what they take and give; the archive has one entry point; the library never
 * prints, never names a CLI flag or command in what it says, and decides nothing about words;
 * dependencies only through their public entry points; `--json` records only in src/cli/wire.ts.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const src = join(root, "src");
const ADAPTERS = ["cli", "pi", "mcp", "serve"];
/** The library's folders ("" for the files directly in src/: the store, locations, errors…). */
const LIBRARY = ["api", "archive", "sync", "answers", "render", "sessions", "tags", "native", ""];

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
  for (const match of text.matchAll(
    /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+["']([^"']+)["']/g,
  ))
    found.push(match[1]!);
  for (const match of text.matchAll(/(?:^|\n)\s*import\s+["']([^"']+)["']/g)) found.push(match[1]!);
  for (const match of text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) found.push(match[1]!);
  return found;
}

/** The modules a file imports for their code: every import but `import type` and `export type`. */
function valueImportsOf(text: string): string[] {
  return importsOf(text.replace(/(?:^|\n)\s*(?:import|export)\s+type\s[^;]*;/g, "\n"));
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

/**
 * `text` without its comments (strings kept; a `//` inside a string is left alone). Regular
 * expression literals are not told apart: a quote or backtick inside one may hide what follows.
 */
export function withoutComments(text: string): string {
  return text.replace(
    /("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)|\/\*[\s\S]*?\*\/|\/\/[^\n]*/g,
    (_match, literal: string | undefined) => literal ?? "",
  );
}

/** The string and template literals of a source text, comments left out. */
export function literalsOf(text: string): string[] {
  return [
    ...withoutComments(text).matchAll(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g),
  ].map((m) => m[0]);
}

const files = sourceFiles(src).map((path) => {
  const text = readFileSync(path, "utf8");
  return { path, text, imports: importsOf(text) };
});
const rel = (path: string) => relative(root, path).split(sep).join("/");
const library = files.filter((f) => LIBRARY.includes(folderOf(f.path)));

describe("the import graph", () => {
  it("sees the imports it checks", () => {
    const cliMain = files.find((f) => f.path.endsWith(join("cli", "main.ts")))!;
    expect(cliMain.imports).toContain("clipanion");
    expect(
      importsOf(`import type { A } from "../index.js";\nconst x = await import("./y.js");`),
    ).toEqual(["../index.js", "./y.js"]);
  });

  for (const adapter of ADAPTERS) {
    it(`src/${adapter} imports the library only through src/index.ts (and src/output for presentation)`, () => {
      const offending: string[] = [];
      for (const file of files.filter((f) => folderOf(f.path) === adapter)) {
        for (const specifier of file.imports.filter((s) => s.startsWith("."))) {
          const to = target(file.path, specifier);
          const allowed =
            to === join(src, "index.ts") || folderOf(to) === adapter || folderOf(to) === "output";
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
        if (ADAPTERS.includes(folderOf(target(file.path, specifier))))
          offending.push(`${relative(root, file.path)} → ${specifier}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it("only the Pi adapter imports Pi's packages", () => {
    const offending = files
      .filter((f) => folderOf(f.path) !== "pi")
      .flatMap((f) =>
        f.imports
          .filter((s) => s.startsWith("@earendil-works/"))
          .map((s) => `${relative(root, f.path)} → ${s}`),
      );
    expect(offending).toEqual([]);
  });
});

/**
 * The library's layers, highest first (src/index.ts, the facade's door, stands above them all): a
 * module imports only its own layer and those below, so no two folders import each other. The
 * archive is a subsystem under src/api; what both answer with (src/answers) is below them.
 */
const LAYERS: readonly string[][] = [
  ["api"],
  ["archive"],
  ["sync"],
  ["answers"],
  ["render"],
  ["sessions", "tags"],
  ["store.ts"],
  ["native"],
  [""],
];

/**
 * The layer of a library file, 0 the lowest; a file directly in src/ is in the lowest but store.ts.
 */
function layerOf(path: string): number {
  const folder = folderOf(path);
  const name = folder === "" && relative(src, path) === "store.ts" ? "store.ts" : folder;
  return LAYERS.length - 1 - LAYERS.findIndex((layer) => layer.includes(name));
}

describe("the library's layers", () => {
  it("a library module imports only its own layer and those below (the archive never imports src/api)", () => {
    const offending = library
      .filter((f) => relative(src, f.path) !== "index.ts")
      .flatMap((f) =>
        f.imports
          .filter((s) => s.startsWith(".") && layerOf(target(f.path, s)) > layerOf(f.path))
          .map((s) => `${rel(f.path)} → ${s}`),
      );
    expect(library.filter((f) => folderOf(f.path) === "archive").length).toBeGreaterThan(10);
    expect(offending).toEqual([]);
  });

  it("the archive has one entry point: from the rest of the library, only archive.ts is imported for its code (and redact.ts, the redaction the model features share)", () => {
    const ENTRIES = [join(src, "archive", "archive.ts"), join(src, "archive", "redact.ts")];
    const offending = library
      .filter((f) => folderOf(f.path) !== "archive" && relative(src, f.path) !== "index.ts")
      .flatMap((f) =>
        valueImportsOf(f.text)
          .filter(
            (s) =>
              s.startsWith(".") &&
              folderOf(target(f.path, s)) === "archive" &&
              !ENTRIES.includes(target(f.path, s)),
          )
          .map((s) => `${rel(f.path)} → ${s}`),
      );
    expect(offending).toEqual([]);
    expect(
      valueImportsOf(
        `import type { A } from "./a.js";\nimport { B, type C } from "./b.js";\nexport type { D } from "./d.js";`,
      ),
    ).toEqual(["./b.js"]);
  });

  it("sees an import that runs up a layer", () => {
    const archive = join(src, "archive", "push.ts");
    expect(layerOf(target(archive, "../api/config.js"))).toBeGreaterThan(layerOf(archive));
    expect(layerOf(target(join(src, "store.ts"), "./api/recall.js"))).toBeGreaterThan(
      layerOf(join(src, "store.ts")),
    );
    expect(layerOf(target(archive, "../sessions/file-guard.js"))).toBeLessThan(layerOf(archive));
  });
});

describe("the facade", () => {
  it("src/index.ts exports the facade, startEarlyLook, RecallError, the pure helpers and constants; everything else only as types", () => {
    const index = files.find((f) => f.path === join(src, "index.ts"))!.text;
    expect(index).not.toMatch(/export\s+\*/);
    const values = [...withoutComments(index).matchAll(/export\s+\{([^}]*)\}/g)].flatMap((m) =>
      m[1]!
        .split(",")
        .map((name) => name.trim())
        .filter((name) => name && !name.startsWith("type ")),
    );
    expect(values).toEqual(expect.arrayContaining(["Recall", "startEarlyLook", "RecallError"]));
    // Functions of their arguments alone (no index, no state), named here so that a new one is a
    // decision.
    const helpers = [
      "resolveLocations as locate",
      "versions",
      "isTerminal",
      "prefixMarks as wordMarks",
      "normalizeTag",
      "parseTags",
      "projectOf",
      "meaningIncomplete",
      "searchQuery as sessionSearchQuery",
      "findQuery as sessionFindQuery",
      "listQuery as sessionListQuery",
      "checkedPageChars as sessionPageChars",
      "readMode as sessionReadMode",
    ];
    const others = values.filter(
      (name) =>
        !["Recall", "startEarlyLook", "RecallError", ...helpers].includes(name) &&
        !/^[A-Z][A-Z0-9_]*$/.test(name),
    );
    expect(others).toEqual([]);
  });
});

describe("the library and presentation", () => {
  it("the library never imports presentation (src/output)", () => {
    const offending = library.flatMap((f) =>
      f.imports
        .filter((s) => s.startsWith(".") && folderOf(target(f.path, s)) === "output")
        .map((s) => `${rel(f.path)} → ${s}`),
    );
    expect(offending).toEqual([]);
  });

  it("presentation never imports the native core: what it needs of words comes through the facade", () => {
    const offending = files
      .filter((f) => folderOf(f.path) === "output")
      .flatMap((f) =>
        f.imports
          .filter((s) => s.startsWith(".") && folderOf(target(f.path, s)) === "native")
          .map((s) => `${rel(f.path)} → ${s}`),
      );
    expect(offending).toEqual([]);
  });

  it("the library never prints: no process.stdout, process.stderr or console", () => {
    const offending = library
      .filter((f) => /\bprocess\.(stdout|stderr)\b|\bconsole\./.test(withoutComments(f.text)))
      .map((f) => rel(f.path));
    expect(library.length).toBeGreaterThan(50);
    expect(offending).toEqual([]);
  });

  it("nothing in TypeScript decides what a word is: no Unicode letter classes, no word segmenter", () => {
    // What a tag is made of (letters, digits, `_`, `-`) is the tag's own rule, not a word's.
    const TAG_SHAPE = join(src, "tags", "normalize.ts");
    // The archive's analyzer is OpenSearch's configuration, sent to the engine, not a word decided
    // here.
    const REMOTE_ANALYZER = join(src, "archive", "template.ts");
    const offending = files
      .filter(
        (f) =>
          f.path !== TAG_SHAPE &&
          f.path !== REMOTE_ANALYZER &&
          /\\p\{(L|Letter|Alphabetic|N|Number)\}|granularity:\s*["']word["']/.test(
            withoutComments(f.text),
          ),
      )
      .map((f) => rel(f.path));
    expect(offending).toEqual([]);
  });

  it("the library names no CLI flag or recall command in what it says (each adapter words its errors)", () => {
    // Pi's own command line, which the library runs (pi-model.ts) or hands back to run (resume.ts).
    const PI_FLAGS =
      /^--(session|model|mode|system-prompt|no-(session|tools|extensions|skills|prompt-templates|context-files|mcp|themes))$/;
    const COMMAND =
      /(?<![\w-])recall (index|search|list|read|context|ask|tag|untag|tags|autotag|resume|watch|doctor|mcp|version|push|pull|remote|related|pick|export|stats|serve)\b/;
    // The export's stylesheet: its CSS custom properties (`--fg`) are not flags.
    const CSS = join(src, "render", "stylesheet.ts");
    const offending = library
      .filter((f) => f.path !== CSS)
      .flatMap((f) =>
        literalsOf(f.text)
          .filter(
            (literal) =>
              COMMAND.test(literal) ||
              (literal.match(/(?<![\w-])--[a-z][a-z-]*/g) ?? []).some(
                (flag) => !PI_FLAGS.test(flag),
              ),
          )
          .map((literal) => `${rel(f.path)}: ${literal}`),
      );
    expect(offending).toEqual([]);
  });
});

describe("src/render", () => {
  const render = files.filter((f) => folderOf(f.path) === "render");
  /**
   * What rendering may use besides its own folder: the document's types, the version, its two
   * libraries, hashing; files only for the stylesheet.
   */
  const ALLOWED = new Set([
    "markdown-it",
    "highlight.js/lib/common",
    "highlight.js/lib/languages/dockerfile",
    "highlight.js/lib/languages/powershell",
    "node:crypto",
    "../sessions/session-document.js",
    "../version.js",
  ]);
  const STYLESHEET_ONLY = new Set(["node:fs", "node:module"]);

  it("turns a session document into text and nothing else: no session file, index, network or process", () => {
    expect(render.length).toBeGreaterThan(3);
    const offending = render.flatMap((f) =>
      f.imports
        .filter(
          (s) =>
            !s.startsWith("./") &&
            !ALLOWED.has(s) &&
            !(STYLESHEET_ONLY.has(s) && f.path.endsWith(join("render", "stylesheet.ts"))),
        )
        .map((s) => `${rel(f.path)} → ${s}`),
    );
    expect(offending).toEqual([]);
  });

  it("renders Markdown to HTML only with raw HTML off, and is imported by the library only lazily (its own bundle)", () => {
    const options = render.flatMap((f) =>
      [...withoutComments(f.text).matchAll(/\bhtml:\s*(true|false)\b/g)].map((m) => m[1]),
    );
    expect(options).toEqual(["false"]);
    const eager = library
      .filter((f) => folderOf(f.path) !== "render")
      .flatMap((f) =>
        [
          ...withoutComments(f.text).matchAll(
            /(?:^|\n)\s*import\s+(?!type\b)[^;]*?from\s+["']([^"']*\/render\/[^"']+)["']/g,
          ),
        ].map((m) => `${rel(f.path)} → ${m[1]}`),
      )
      .filter((what) => !what.endsWith("/render/exported-session.js"));
    expect(eager).toEqual([]);
  });
});

/**
 * A path into a dependency that its package.json `exports` names (its public API, e.g.
 * highlight.js/lib/common).
 */
function exported(specifier: string): boolean {
  const name = specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");
  const exports = (
    JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")) as {
      exports?: unknown;
    }
  ).exports;
  if (!exports || typeof exports !== "object") return false;
  const subpath = `.${specifier.slice(name.length)}`;
  return Object.keys(exports).some(
    (key) => key === subpath || (key.endsWith("/*") && subpath.startsWith(key.slice(0, -1))),
  );
}

describe("adapters and dependencies", () => {
  it("no private internals of Node or of a dependency: no Module._…, no clipanion RunState, no deep imports", () => {
    const bin = readdirSync(join(root, "bin")).map((name) => join(root, "bin", name));
    const all = [...files.map((f) => f.path), ...bin];
    const offending = all.flatMap((path) => {
      const text = withoutComments(readFileSync(path, "utf8"));
      const found = [...text.matchAll(/\bModule\._\w+|\bRunState\b/g)].map((m) => m[0]);
      const specifiers = [
        ...importsOf(text),
        ...[...text.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]!),
      ];
      const deep = specifiers.filter(
        (s) =>
          !s.startsWith(".") &&
          !s.startsWith("node:") &&
          /^(@[^/]+\/)?[^/]+\/(lib|dist|src|build|internal)(\/|$)/.test(s) &&
          !exported(s),
      );
      return [...new Set([...found, ...deep])].map((what) => `${rel(path)}: ${what}`);
    });
    expect(offending).toEqual([]);
  });

  it("every command option is made through src/cli/options.ts, which notes it for recall's own command-line readers", () => {
    const offending = files
      .filter((f) => f.path !== join(src, "cli", "options.ts"))
      .filter((f) => /import\s*\{[^}]*\bOption\b[^}]*\}\s*from\s*"clipanion"/.test(f.text))
      .map((f) => rel(f.path));
    expect(offending).toEqual([]);
  });

  it("--json records are built only in src/cli/wire.ts", () => {
    const offending = files
      .filter((f) => folderOf(f.path) === "cli" && f.path !== join(src, "cli", "wire.ts"))
      .filter((f) => /JSON\.stringify\(/.test(withoutComments(f.text)))
      .map((f) => rel(f.path));
    expect(offending).toEqual([]);
  });
});
