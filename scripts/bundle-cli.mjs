#!/usr/bin/env node
// Bundles the CLI into one CommonJS file, dist/bundle/cli.cjs, that bin/recall.cjs requires. A cold
// `recall search` then loads one file instead of resolving ~60 modules, and never starts Node's
// ES module loader: most of what a Node CLI pays before it does anything.
import { build } from "esbuild";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// Nothing left over from an earlier layout of the bundle.
rmSync(join(root, "dist", "bundle"), { recursive: true, force: true });

// clipanion requires `tty` at load time only to guess a color depth, which recall always passes
// in; loading tty also loads net. This stands in for it and loads the real one on first use.
const lazyTty = {
  name: "lazy-tty",
  setup(build) {
    build.onResolve({ filter: /^tty$/ }, (args) => (args.importer.includes("clipanion") ? { path: "tty", namespace: "lazy-tty" } : undefined));
    build.onLoad({ filter: /.*/, namespace: "lazy-tty" }, () => ({
      contents: "module.exports = new Proxy({}, { get: (_, key) => require('node:tty')[key] });",
      loader: "js",
    }));
  },
};

// clipanion's default context reads process.stdin when it loads, and every run spreads that
// context (reading it again): creating the stdin stream costs milliseconds, and most commands never
// read stdin. recall always passes a full context of its own, so the defaults become lazy and
// non-enumerable (a spread skips them). The build fails if clipanion's code no longer matches.
const lazyClipanionDefaults = {
  name: "lazy-clipanion-defaults",
  setup(build) {
    build.onLoad({ filter: /clipanion[\\/]lib[\\/]advanced[\\/]Cli\.m?js$/ }, (args) => {
      const original = readFileSync(args.path, "utf8");
      const literal = /Cli\.defaultContext = \{\s*env: process\.env,\s*stdin: process\.stdin,\s*stdout: process\.stdout,\s*stderr: process\.stderr,\s*colorDepth: ((?:platform\.)?getDefaultColorDepth)\(\),\s*\};/;
      if (!literal.test(original)) throw new Error(`${args.path}: Cli.defaultContext is not what scripts/bundle-cli.mjs expects`);
      const lazy = `Cli.defaultContext = Object.defineProperties({}, {
        env: { get: () => process.env },
        stdin: { get: () => process.stdin },
        stdout: { get: () => process.stdout },
        stderr: { get: () => process.stderr },
        colorDepth: { get: () => $1() },
      });`;
      return { contents: original.replace(literal, lazy), loader: "js" };
    });
  },
};

// clipanion compiles its parser on every run; recall compiles it when the bundle is built (below)
// and gives it to the builder as `precompiledMachine` (src/cli/precompiled-parser.ts). This teaches
// CliBuilder.compile to use that machine. The build fails if clipanion's code no longer matches.
const precompiledParser = {
  name: "precompiled-parser",
  setup(build) {
    build.onLoad({ filter: /clipanion[\\/]lib[\\/]core\.m?js$/ }, (args) => {
      const original = readFileSync(args.path, "utf8");
      const literal =
        /compile\(\) \{\s*const machines = \[\];\s*const contexts = \[\];\s*for \(const builder of this\.builders\) \{\s*const \{ machine, context \} = builder\.compile\(\);\s*machines\.push\(machine\);\s*contexts\.push\(context\);\s*\}\s*const machine = makeAnyOfMachine\(machines\);\s*simplifyMachine\(machine\);/;
      if (!literal.test(original)) throw new Error(`${args.path}: CliBuilder.compile is not what scripts/bundle-cli.mjs expects`);
      const patched = `compile() {
        const machines = [];
        const contexts = [];
        const precompiled = this.precompiledMachine;
        for (const builder of this.builders) {
            if (precompiled) {
                contexts.push(builder.context);
                continue;
            }
            const { machine, context } = builder.compile();
            machines.push(machine);
            contexts.push(context);
        }
        const machine = precompiled ?? makeAnyOfMachine(machines);
        if (!precompiled) simplifyMachine(machine);`;
      return { contents: original.replace(literal, patched), loader: "js" };
    });
  },
};

// A lazy `await import("node:child_process")` stays a dynamic import in a CommonJS bundle, which
// bin/recall.cjs's compiled script cannot run. Bundled as a tiny module that requires the built-in,
// it becomes a lazy require instead.
const lazyBuiltins = {
  name: "lazy-builtins",
  setup(build) {
    build.onResolve({ filter: /^node:/ }, (args) => (args.kind === "dynamic-import" ? { path: args.path, namespace: "lazy-builtin" } : undefined));
    build.onLoad({ filter: /.*/, namespace: "lazy-builtin" }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: "js" }));
  },
};

// clipanion and typanion name their CommonJS build as `main`, and ship an ES module build beside
// it (`.mjs`). Bundling the ES modules lets esbuild drop what recall never uses and refer to the
// rest directly; the CommonJS builds are wrapped instead, and every module that imports them gets
// a copy of all their exports made at load (~0.7 ms of a cold start).
const esModuleBuilds = {
  name: "es-module-builds",
  setup(build) {
    build.onResolve({ filter: /^(clipanion|typanion)$/ }, (args) => {
      const folder = dirname(createRequire(args.importer).resolve(`${args.path}/package.json`));
      const esModule = join(folder, `${JSON.parse(readFileSync(join(folder, "package.json"), "utf8")).main}.mjs`);
      if (!existsSync(esModule)) throw new Error(`${args.path} has no ES module build at ${esModule}: update scripts/bundle-cli.mjs`);
      return { path: esModule };
    });
  },
};

// Two bundles: the CLI, and the start of its freshness check, which bin/recall.cjs loads first
// (src/cli/early-look.ts): a few KB, so the check's stats begin before the CLI is even loaded.
const bundle = join(root, "dist", "bundle", "cli.cjs");
await build({
  entryPoints: { cli: join(root, "src", "cli", "main.ts"), "early-look": join(root, "src", "cli", "early-look.ts"), mcp: join(root, "src", "mcp", "main.ts") },
  outdir: dirname(bundle),
  outExtension: { ".js": ".cjs" },
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  logLevel: "warning",
  // Less for V8 to parse on every start. Function names are not kept (esbuild's keepNames costs a
  // call per function at load); RECALL_BUNDLE_READABLE=1 builds a readable bundle for profiling.
  minify: !process.env.RECALL_BUNDLE_READABLE,
  plugins: [esModuleBuilds, lazyTty, lazyClipanionDefaults, precompiledParser, lazyBuiltins],
  // The library finds its native addon and packages relative to its own module URL.
  define: { "import.meta.url": "__recallModuleUrl" },
  banner: { js: "const __recallModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
});

// The parser of each command, and of all of them, compiled by the bundle itself.
const cli = createRequire(import.meta.url)(bundle);
mkdirSync(join(dirname(bundle), "parsers"));
for (const key of cli.parserKeys()) {
  writeFileSync(join(dirname(bundle), "parsers", `${key}.json`), cli.compileParser(cli.buildCli(key === "all" ? undefined : key)));
}
