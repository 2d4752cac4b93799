/**
 * The npm package carries what a machine without a prebuilt core needs to build one from source
 * (scripts/build-native.mjs): both crates of the native workspace, the addon's and the model
 * runtime's (native/model/), with manifests Cargo accepts as shipped — no tests/ or examples/.
 * Checked without compiling: the package's native files are copied as `npm pack` lists them, and
 * `cargo fetch --offline --locked` reads their workspace, every target of both manifests and the
 * lock file (it fails on a manifest naming a file the package lacks, as `cargo build` does).
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const cargo = spawnSync("cargo", ["--version"], { stdio: "ignore" }).status === 0;
const host = cargo
  ? /^host: (\S+)$/m.exec(spawnSync("rustc", ["-vV"], { encoding: "utf8" }).stdout)?.[1]
  : undefined;
const scratch = mkdtempSync(join(tmpdir(), "recall-native-package-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.skipIf(!host)(
  `the npm package's native sources${host ? "" : " (skipped: cargo is not on PATH)"}`,
  () => {
    it("hold both crates of the workspace, and Cargo reads them as shipped", () => {
      const pack = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
        cwd: root,
        encoding: "utf8",
      });
      expect(pack.status, pack.stderr).toBe(0);
      const files: string[] = JSON.parse(pack.stdout)[0].files.map(
        (file: { path: string }) => file.path,
      );
      const native = files.filter((file) => file.startsWith("native/"));
      expect(native).toEqual(
        expect.arrayContaining([
          "native/Cargo.toml",
          "native/Cargo.lock",
          "native/src/lib.rs",
          "native/model/Cargo.toml",
          "native/model/src/lib.rs",
        ]),
      );
      expect(
        native.filter((file) => file.includes("/tests/") || file.includes("/target/")),
      ).toEqual([]);
      for (const file of native) {
        mkdirSync(join(scratch, dirname(file)), { recursive: true });
        cpSync(join(root, file), join(scratch, file));
      }
      const fetch = spawnSync(
        "cargo",
        [
          "fetch",
          "--offline",
          "--locked",
          "--target",
          host!,
          "--manifest-path",
          join(scratch, "native", "Cargo.toml"),
        ],
        { encoding: "utf8" },
      );
      expect(fetch.status, fetch.stderr).toBe(0);
    });
  },
);
