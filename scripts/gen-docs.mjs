#!/usr/bin/env node
// Writes the shell completions (completions/), the man pages (man/) and the CLI reference
// (docs/cli.md) from the compiled command definitions, and lists the man pages in package.json.
// `--check` writes nothing and exits 1 if any generated file differs from the one on disk. Run
// after `npm run prepare`.
import { readFileSync, writeFileSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildCli } from "../dist/cli/main.js";
import { commandModel } from "../dist/cli/docs/command-model.js";
import { COMPLETION_GENERATORS } from "../dist/cli/docs/completions.js";
import { commandManPage, overviewManPage } from "../dist/cli/docs/man-page.js";
import { cliReference } from "../dist/cli/docs/markdown.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const check = process.argv.includes("--check");
const commands = commandModel(buildCli());

const files = new Map([
  ["completions/recall.bash", COMPLETION_GENERATORS.bash(commands)],
  ["completions/_recall", COMPLETION_GENERATORS.zsh(commands)],
  ["completions/recall.fish", COMPLETION_GENERATORS.fish(commands)],
  ["man/recall.1", overviewManPage(commands)],
  ...commands.map((c) => [`man/recall-${c.name}.1`, commandManPage(c, commands)]),
  ["docs/cli.md", cliReference(commands)],
]);

const packagePath = join(root, "package.json");
const manifest = JSON.parse(readFileSync(packagePath, "utf8"));
manifest.man = [...files.keys()].filter((p) => p.startsWith("man/")).map((p) => `./${p}`);
files.set("package.json", `${JSON.stringify(manifest, null, 2)}\n`);

let stale = [];
for (const [path, content] of files) {
  let current;
  try {
    current = readFileSync(join(root, path), "utf8");
  } catch {
    current = undefined;
  }
  if (current === content) continue;
  stale.push(path);
  if (!check) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}
// Pages of commands that no longer exist.
for (const name of readdirSync(join(root, "man"), { withFileTypes: true }).map((e) => e.name)) {
  if (!files.has(`man/${name}`)) {
    stale.push(`man/${name}`);
    if (!check) rmSync(join(root, "man", name));
  }
}
if (stale.length > 0) {
  console.error(`${check ? "stale" : "wrote"}: ${stale.join(", ")}`);
  if (check) process.exit(1);
}
