#!/usr/bin/env node
// Writes src/native/addon.d.ts, the TypeScript declarations of the search core's N-API surface,
// from the Rust source: napi-derive records each #[napi] item it expands in a folder named by
// NAPI_TYPE_DEF_TMP_FOLDER, and @napi-rs/cli (a devDependency: an installed package ships the
// file) renders those records. `--check` writes nothing and fails when the committed file differs,
// so a change to the Rust surface cannot leave the TypeScript side behind.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateTypeDef } from "@napi-rs/cli";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const nativeDir = join(root, "native");
const typingsFile = join(root, "src", "native", "addon.d.ts");
const typeDefDir = join(nativeDir, "target", "napi-type-def");
const check = process.argv.includes("--check");

rmSync(typeDefDir, { recursive: true, force: true });
mkdirSync(typeDefDir, { recursive: true });
// A check expands the macros without building the addon; the changed NAPI_FORCE_BUILD_*
// value makes cargo expand them again even when nothing else changed (napi-build asks for it).
// With clippy installed it is `cargo clippy --release`, the check scripts/rust-lint.mjs runs: the
// two share the dependencies' checked metadata, so `npm test` checks the dependency tree once,
// not a second time in the debug profile (218 s of a fresh clone's test run at load 11). Not
// `cargo check --release`: its build-script run is the addon's build's, and the changed value
// would make `cargo test --release` compile the crate and every test again.
const clippy = spawnSync("cargo", ["clippy", "--version"], { stdio: "ignore" }).status === 0;
const expand = spawnSync(
  "cargo",
  [
    ...(clippy ? ["clippy", "--release"] : ["check"]),
    "--quiet",
    "--manifest-path",
    join(nativeDir, "Cargo.toml"),
  ],
  {
    stdio: ["ignore", "inherit", "inherit"],
    env: {
      ...process.env,
      NAPI_TYPE_DEF_TMP_FOLDER: typeDefDir,
      NAPI_FORCE_BUILD_RECALL_NATIVE: String(Date.now()),
    },
  },
);
if (expand.status !== 0) process.exit(expand.status ?? 1);

const header =
  "// Generated from native/src by scripts/native-typings.mjs (napi-rs); do not edit.\n";
const { dts } = await generateTypeDef({ typeDefDir, cwd: root, dtsHeader: header });
if (!check) {
  writeFileSync(typingsFile, dts);
} else if (!existsSync(typingsFile) || readFileSync(typingsFile, "utf8") !== dts) {
  console.error(
    `recall: ${typingsFile} differs from what native/src declares; run \`node scripts/native-typings.mjs\` and commit it`,
  );
  process.exit(1);
}
