/**
 * `recall --version`: the package's version and the native core's, and a clear error (exit 2,
 * one line, how to fix it) when the JavaScript and the loaded native core are of different
 * releases: here a real copy of the CLI whose bundles say 9.9.9, over this checkout's 0.1.0 core.
 */
import { spawnSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { RECALL_VERSION } from "../src/version.js";

const ROOT = join(import.meta.dirname, "..");
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const recall = (bin: string, args: string[], env: NodeJS.ProcessEnv = process.env) =>
  spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", env });

describe("recall --version", () => {
  it("names the package's and the native core's versions, which package.json and Cargo.toml carry", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
    const cargo = /^version = "([^"]+)"/m.exec(
      readFileSync(join(ROOT, "native", "Cargo.toml"), "utf8"),
    )![1];
    expect(RECALL_VERSION).toBe(pkg.version);
    expect(cargo).toBe(pkg.version);
    const run = recall(join(ROOT, "bin", "recall.cjs"), ["--version"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`recall ${pkg.version} (native core ${cargo})\n`);
  });

  it("says how to fix a native core of another release, in one line, exit 2", () => {
    const copy = mkdtempSync(join(tmpdir(), "recall-version-"));
    dirs.push(copy);
    cpSync(join(ROOT, "bin"), join(copy, "bin"), { recursive: true });
    mkdirSync(join(copy, "dist", "bundle"), { recursive: true });
    for (const bundle of ["cli.cjs", "quick.cjs", "early-look.cjs"]) {
      const text = readFileSync(join(ROOT, "dist", "bundle", bundle), "utf8");
      writeFileSync(
        join(copy, "dist", "bundle", bundle),
        text.replaceAll(`"${RECALL_VERSION}"`, '"9.9.9"'),
      );
    }
    mkdirSync(join(copy, "native"));
    symlinkSync(join(ROOT, "native", "recall.node"), join(copy, "native", "recall.node"));
    const agentDir = join(copy, "agent");
    cpSync(join(ROOT, "test", "fixtures", "agent", "sessions"), join(agentDir, "sessions"), {
      recursive: true,
    });
    const env = { ...process.env, PI_CODING_AGENT_DIR: agentDir, HOME: copy };
    for (const args of [["--version"], ["search", "deploy"]]) {
      const run = recall(join(copy, "bin", "recall.cjs"), args, env);
      expect(run.status).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toMatch(
        /^recall: the search core .*recall\.node is version 0\.1\.0, but recall is 9\.9\.9; reinstall recall \(`npm install -g recall-pi`.*`npm run build`\n$/,
      );
    }
  });
});
