#!/usr/bin/env node
// Builds the Rust search core into native/recall.node. Runs on `npm install`. In a git checkout
// it rebuilds when a native source is newer than the addon. In an installed package (npm or
// `pi install npm:…`) it builds nothing when the prebuilt package of this platform (an optional
// dependency, recall-pi-<platform>; npm installs only the one that fits) or an earlier build
// loads; only where none fits does it compile, and without cargo it says what is missing.
// --force always builds.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, readdirSync, readFileSync, renameSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const nativeDir = join(dirname(fileURLToPath(import.meta.url)), "..", "native");
const addon = join(nativeDir, "recall.node");
const force = process.argv.includes("--force");

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "target" || entry.name.endsWith(".node")) continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const packageJson = JSON.parse(readFileSync(join(nativeDir, "..", "package.json"), "utf8"));
const require = createRequire(import.meta.url);

/** Whether the addon at `path` loads here and is of this package's release. */
function loads(path) {
  try {
    return require(path).coreVersion?.() === packageJson.version;
  } catch {
    return false;
  }
}

/** The installed prebuilt core of this platform, if one loads. */
function prebuilt() {
  for (const name of Object.keys(packageJson.optionalDependencies ?? {})) {
    let dir;
    try {
      dir = dirname(require.resolve(`${name}/package.json`));
    } catch {
      continue;
    }
    const file = join(dir, `recall.${name.slice("recall-pi-".length)}.node`);
    if (loads(file)) return file;
  }
  return undefined;
}

const checkout = existsSync(join(nativeDir, "..", ".git"));
const upToDate = checkout ? statSync(addon, { throwIfNoEntry: false })?.mtimeMs >= newestSource(nativeDir) : (existsSync(addon) && loads(addon)) || prebuilt() !== undefined;
if (!force && upToDate) {
  process.exit(0);
}

const cargo = spawnSync("cargo", ["--version"], { stdio: "ignore" });
if (cargo.error || cargo.status !== 0) {
  const machine = `${process.platform}-${process.arch}`;
  const why = checkout ? "a git checkout builds its native core from source" : `no prebuilt native core fits this machine (${machine}; prebuilt: ${Object.keys(packageJson.optionalDependencies ?? {}).map((n) => n.slice("recall-pi-".length)).join(", ")})`;
  console.error(`recall: ${why}, and building one needs Rust, but cargo is not on PATH; install Rust from https://rustup.rs, then run \`npm rebuild recall-pi\` (or \`npm install\` again)`);
  process.exit(1);
}

console.error("recall: building the native search core (cargo build --release)…");
const build = spawnSync("cargo", ["build", "--release", "--manifest-path", join(nativeDir, "Cargo.toml")], {
  stdio: ["ignore", "inherit", "inherit"],
});
if (build.status !== 0) process.exit(build.status ?? 1);

const libraryName = {
  darwin: "librecall_native.dylib",
  win32: "recall_native.dll",
}[process.platform] ?? "librecall_native.so";
// Copy then rename: a running Pi process keeps its mapping of the previous addon intact.
const staged = `${addon}.${process.pid}.tmp`;
copyFileSync(join(nativeDir, "target", "release", libraryName), staged);
renameSync(staged, addon);
