// The Rust core's lints, as `npm test` runs them, over both crates of the workspace (the addon's
// and the model runtime's, native/model/): `cargo fmt --check` (the style of native/rustfmt.toml)
// and `cargo clippy` with every warning an error. A toolchain without the
// rustfmt or clippy component (rustup's minimal profile) skips that check and says so.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const manifest = fileURLToPath(new URL("../native/Cargo.toml", import.meta.url));
const CHECKS = [
  {
    name: "cargo fmt",
    component: "rustfmt",
    args: ["fmt", "--all", "--manifest-path", manifest, "--check"],
  },
  {
    name: "cargo clippy",
    component: "clippy",
    args: [
      "clippy",
      "--release",
      "--workspace",
      "--all-targets",
      "--quiet",
      "--manifest-path",
      manifest,
      "--",
      "-D",
      "warnings",
    ],
  },
];

let failed = false;
for (const check of CHECKS) {
  const probe = spawnSync("cargo", [check.args[0], "--version"], { encoding: "utf8" });
  if (probe.status !== 0) {
    console.log(
      `${check.name}: skipped: the ${check.component} component is not installed (rustup component add ${check.component})`,
    );
    continue;
  }
  const run = spawnSync("cargo", check.args, { stdio: "inherit" });
  if (run.status !== 0) {
    console.error(
      `${check.name} failed${check.component === "rustfmt" ? ": run cargo fmt --all --manifest-path native/Cargo.toml" : ""}`,
    );
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
