#!/usr/bin/env node
// Builds the Rust search core into native/recall.node. Runs on `npm install`. In a git checkout
// it rebuilds when a native source is newer than the addon; in an installed package (npm or
// `pi install npm:…`, whose files all get the install time) it keeps the shipped addon if it loads
// on this machine. --force always builds.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, readdirSync, renameSync, statSync } from "node:fs";
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

function loads(path) {
  try {
    return typeof createRequire(import.meta.url)(path).NativeIndex === "function";
  } catch {
    return false;
  }
}

const checkout = existsSync(join(nativeDir, "..", ".git"));
const upToDate = checkout ? statSync(addon, { throwIfNoEntry: false })?.mtimeMs >= newestSource(nativeDir) : existsSync(addon) && loads(addon);
if (!force && upToDate) {
  process.exit(0);
}

const cargo = spawnSync("cargo", ["--version"], { stdio: "ignore" });
if (cargo.error || cargo.status !== 0) {
  console.error("recall: building the search core needs Rust (cargo); install it from https://rustup.rs and run `npm install` again");
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
