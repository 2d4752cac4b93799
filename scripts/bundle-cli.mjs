#!/usr/bin/env node
// Bundles the CLI into one CommonJS file, dist/bundle/cli.cjs, that bin/recall.cjs requires. A cold
// `recall search` then loads one file instead of resolving ~60 modules, and never starts Node's
// ES module loader: most of what a Node CLI pays before it does anything.
import { build } from "esbuild";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// Nothing left over from an earlier layout of the bundle.
rmSync(join(root, "dist", "bundle"), { recursive: true, force: true });

// A lazy `await import("node:child_process")` stays a dynamic import in a CommonJS bundle, which
// bin/recall.cjs's compiled script cannot run. Bundled as a tiny module that requires the built-in,
// it becomes a lazy require instead.
const lazyBuiltins = {
  name: "lazy-builtins",
  setup(build) {
    build.onResolve({ filter: /^node:/ }, (args) =>
      args.kind === "dynamic-import" ? { path: args.path, namespace: "lazy-builtin" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "lazy-builtin" }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: "js",
    }));
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
      const esModule = join(
        folder,
        `${JSON.parse(readFileSync(join(folder, "package.json"), "utf8")).main}.mjs`,
      );
      if (!existsSync(esModule))
        throw new Error(
          `${args.path} has no ES module build at ${esModule}: update scripts/bundle-cli.mjs`,
        );
      return { path: esModule };
    });
  },
};

// The archive's secret rules (secretlint, src/archive/secret-rules.ts) are a bundle of their own,
// dist/bundle/secret-rules.cjs, required when redaction first runs (src/archive/redact.ts): the
// CLI's bundle, which every command loads, holds only that require.
const secretRules = {
  name: "secret-rules",
  setup(build) {
    build.onResolve({ filter: /\/secret-rules\.js$/ }, (args) =>
      args.kind === "dynamic-import" ? { path: args.path, namespace: "secret-rules" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "secret-rules" }, () => ({
      contents: `module.exports = require(require("node:path").join(__dirname, "secret-rules.cjs"));`,
      loader: "js",
    }));
  },
};

// Rendering a session (src/render: markdown-it and highlight.js with its languages) is a bundle
// of its own too, dist/bundle/render.cjs, required when an export first renders
// (src/api/export.ts).
const render = {
  name: "render",
  setup(build) {
    build.onResolve({ filter: /\/render\/index\.js$/ }, (args) =>
      args.kind === "dynamic-import" ? { path: args.path, namespace: "render" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "render" }, () => ({
      contents: `module.exports = require(require("node:path").join(__dirname, "render.cjs"));`,
      loader: "js",
    }));
  },
};

// Three bundles loaded by bin/recall.cjs: the start of the freshness check, loaded first
// (src/cli/early-look.ts): a few KB, so the check's stats begin before the CLI is even loaded;
// `search` and `list` with recall's own parser and without clipanion's Cli (src/cli/quick.ts),
// tried next for those two; and the whole CLI. A fourth, the MCP server (src/mcp/main.ts), is
// what `recall mcp` and bin/recall-mcp.cjs load, so no other command loads the MCP SDK; a fifth,
// the web app's server (src/serve/main.ts), only `recall serve`.
await build({
  entryPoints: {
    cli: join(root, "src", "cli", "main.ts"),
    quick: join(root, "src", "cli", "quick.ts"),
    "early-look": join(root, "src", "cli", "early-look.ts"),
    mcp: join(root, "src", "mcp", "main.ts"),
    serve: join(root, "src", "serve", "main.ts"),
    "secret-rules": join(root, "src", "archive", "secret-rules.ts"),
    render: join(root, "src", "render", "index.ts"),
  },
  outdir: join(root, "dist", "bundle"),
  outExtension: { ".js": ".cjs" },
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  logLevel: "warning",
  // Less for V8 to parse on every start. Function names are not kept (esbuild's keepNames costs a
  // call per function at load); RECALL_BUNDLE_READABLE=1 builds a readable bundle for profiling.
  minify: !process.env.RECALL_BUNDLE_READABLE,
  plugins: [esModuleBuilds, lazyBuiltins, secretRules, render],
  // The archive's OpenSearch client is required from node_modules when `push` or `remote` runs,
  // never parsed by a bundle that every other command loads.
  external: ["@opensearch-project/opensearch"],
  // The library finds its native addon and packages relative to its own module URL.
  define: { "import.meta.url": "__recallModuleUrl" },
  banner: { js: "const __recallModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
});

// The web app's front end (web/: Preact, compiled here), for the browser: what `recall serve`
// sends as /assets/app.js and /assets/app.css. Nothing of it is fetched from anywhere else.
rmSync(join(root, "dist", "web"), { recursive: true, force: true });
await build({
  entryPoints: { app: join(root, "web", "src", "main.tsx") },
  outdir: join(root, "dist", "web"),
  bundle: true,
  platform: "browser",
  format: "esm",
  target: "es2020",
  jsx: "automatic",
  jsxImportSource: "preact",
  logLevel: "warning",
  minify: !process.env.RECALL_BUNDLE_READABLE,
});
await build({
  entryPoints: { app: join(root, "web", "src", "app.css") },
  outdir: join(root, "dist", "web"),
  bundle: true,
  logLevel: "warning",
  minify: !process.env.RECALL_BUNDLE_READABLE,
});
