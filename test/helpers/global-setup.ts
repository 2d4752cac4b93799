/**
 * Compiles the library and bundles the CLI before the tests run, so end-to-end tests spawn the
 * current code. The compile is incremental (tsconfig.build.json, dist/.tsbuildinfo): after
 * `npm install` built dist/, it checks what changed and emits that only (about 4 s of CPU instead
 * of 11). Then it installs the package copy the Pi tests share (pi-env.ts).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { installPackageCopy, SHARED_PACKAGE_VARIABLE } from "./pi-env.js";

export default function setup(): () => void {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  if (!existsSync(`${root}/native/recall.node`)) {
    throw new Error("native/recall.node is missing: run `npm install` (it builds the search core)");
  }
  execFileSync(
    process.execPath,
    [`${root}/node_modules/typescript/bin/tsc`, "-p", `${root}/tsconfig.build.json`],
    { stdio: "inherit" },
  );
  execFileSync(process.execPath, [`${root}/scripts/bundle-cli.mjs`], { stdio: "inherit" });
  // The installed package the Pi tests run (pi-env.ts), one copy for the run; the test workers
  // inherit the variable.
  const piPackages = mkdtempSync(join(tmpdir(), "recall-pi-package-"));
  process.env[SHARED_PACKAGE_VARIABLE] = installPackageCopy(piPackages);
  return () => rmSync(piPackages, { recursive: true, force: true });
}
