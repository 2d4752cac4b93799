#!/usr/bin/env node
// Bundles the CLI into one CommonJS file, dist/bundle/cli.cjs, that bin/recall.cjs requires. A cold
// `recall search` then loads one file instead of resolving ~60 modules, and never starts Node's
// ES module loader: most of what a Node CLI pays before it does anything.
import { build } from "esbuild";
import { rmSync } from "node:fs";
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

await build({
  entryPoints: [join(root, "src", "cli", "main.ts")],
  outfile: join(root, "dist", "bundle", "cli.cjs"),
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  logLevel: "warning",
  // Less for V8 to parse on every start; names are kept for readable stack traces.
  minify: true,
  keepNames: true,
  plugins: [lazyTty],
  // The library finds its native addon and packages relative to its own module URL.
  define: { "import.meta.url": "__recallModuleUrl" },
  banner: { js: "const __recallModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
});
