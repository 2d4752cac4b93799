#!/usr/bin/env node
// Builds the Rust search core into native/recall.node. Runs on `npm install`. In a git checkout
// it rebuilds when a native source is newer than the addon. In an installed package (npm or
// `pi install npm:…`) it builds nothing when the prebuilt package of this platform (an optional
// dependency, recall-pi-<platform>; npm installs only the one that fits) or an earlier build
// loads; only where none fits does it compile, and without cargo it says what is missing.
// --force always builds.
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
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

/**
 * The platforms with a prebuilt core (package.json `napi.targets` in napi-rs's names, as
 * src/native/platform.ts lists them). The release adds their packages, recall-pi-<platform>, to
 * the published package.json as optional dependencies (`napi pre-publish`).
 */
const PREBUILT_PLATFORMS = [
  "darwin-arm64",
  "darwin-x64",
  "linux-x64-gnu",
  "linux-arm64-gnu",
  "linux-x64-musl",
];

/** The installed prebuilt core of this platform, if it loads. */
function prebuilt() {
  try {
    const file = join(
      dirname(require.resolve(`recall-pi-${thisPlatform()}/package.json`)),
      `recall.${thisPlatform()}.node`,
    );
    return loads(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

/**
 * This machine in napi-rs's platform names (as src/native/platform.ts): linux-x64-gnu,
 * darwin-arm64, …
 */
function thisPlatform() {
  const { platform, arch } = process;
  if (platform === "win32") return `win32-${arch}-msvc`;
  if (platform !== "linux") return `${platform}-${arch}`;
  let musl;
  try {
    musl = readFileSync("/usr/bin/ldd", "utf8").includes("musl");
  } catch {
    musl = !process.report?.getReport().header?.glibcVersionRuntime;
  }
  return `linux-${arch}-${musl ? "musl" : "gnu"}`;
}

const checkout = existsSync(join(nativeDir, "..", ".git"));
const upToDate = checkout
  ? statSync(addon, { throwIfNoEntry: false })?.mtimeMs >= newestSource(nativeDir)
  : (existsSync(addon) && loads(addon)) || prebuilt() !== undefined;
if (!force && upToDate) {
  process.exit(0);
}

const cargo = spawnSync("cargo", ["--version"], { stdio: "ignore" });
if (cargo.error || cargo.status !== 0) {
  const fitting = PREBUILT_PLATFORMS.includes(thisPlatform());
  const why = checkout
    ? "a git checkout builds its native core from source"
    : fitting
      ? `the prebuilt native core for this machine, recall-pi-${thisPlatform()}, is not installed (optional dependencies left out, or not published for ${packageJson.version})`
      : `no prebuilt native core fits this machine (${thisPlatform()}; prebuilt for ${PREBUILT_PLATFORMS.join(", ")})`;
  console.error(
    `recall: ${why}, and building one needs Rust, but cargo is not on PATH; install Rust from https://rustup.rs, then run \`npm rebuild recall-pi\` (or \`npm install\` again)`,
  );
  process.exit(1);
}

// A checkout builds the Rust tests in the same run: `npm test` then runs them without compiling
// the dependency tree a second time (one cargo run decides how each dependency is compiled).
const targets = checkout ? ["--all-targets"] : [];
// About 9 min of CPU time for the core, under 1 more for the tests (BENCHMARKS.md, "Install").
console.error(
  `recall: building the native search core (cargo build --release${checkout ? " --all-targets" : ""}: about 10 minutes of CPU time)…`,
);
const build = spawnSync(
  "cargo",
  ["build", "--release", ...targets, "--manifest-path", join(nativeDir, "Cargo.toml")],
  {
    stdio: ["ignore", "inherit", "inherit"],
  },
);
if (build.status !== 0) process.exit(build.status ?? 1);

const libraryName =
  {
    darwin: "librecall_native.dylib",
    win32: "recall_native.dll",
  }[process.platform] ?? "librecall_native.so";
// Copy then rename: a running Pi process keeps its mapping of the previous addon intact.
const staged = `${addon}.${process.pid}.tmp`;
copyFileSync(join(nativeDir, "target", "release", libraryName), staged);
renameSync(staged, addon);
// An installed package keeps the addon only, not cargo's build folder (hundreds of MB).
if (!checkout) rmSync(join(nativeDir, "target"), { recursive: true, force: true });
