#!/usr/bin/env node
// Bundles the CLI into one ES module, dist/bundle/cli.js: a cold `recall search` then loads one
// file instead of resolving ~60 modules, which is most of what a Node CLI pays before it works.
import { build } from "esbuild";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
await build({
  entryPoints: [join(root, "src", "cli", "main.ts")],
  outfile: join(root, "dist", "bundle", "cli.js"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  logLevel: "warning",
  // clipanion is CommonJS and requires Node built-ins; give the bundle a `require` to do it with.
  banner: { js: "import { createRequire as __recallCreateRequire } from 'node:module'; const require = __recallCreateRequire(import.meta.url);" },
});
