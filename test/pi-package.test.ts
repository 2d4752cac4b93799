/**
 * The published package as Pi installs it: `npm pack`, then `pi install npm:recall-pi@file:<tarball>`
 * (Pi's real npm path: `npm install` into ~/.pi/agent/npm, install scripts included), then
 * `/recall search` in the real Pi with nothing but that installed package. Slow (npm compiles
 * better-sqlite3), so it runs once; skipped, visibly, without the Pi runtime.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FIXTURE_SESSIONS_DIR } from "./helpers/fixture-files.js";
import { PI_RUNTIME, PI_SKIP_REASON, REPO } from "./helpers/pi-env.js";

describe.skipIf(!PI_RUNTIME)(`pi install npm:recall-pi${PI_SKIP_REASON}`, () => {
  const root = mkdtempSync(join(tmpdir(), "recall-pi-package-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("installs from the packed tarball and answers /recall search", () => {
    // dist/ is already built by the test setup: --ignore-scripts keeps `prepare` from rebuilding it under other tests.
    const tarball = execFileSync("npm", ["pack", "--ignore-scripts", "--pack-destination", root, "--silent"], { cwd: REPO, encoding: "utf8" }).trim().split("\n").at(-1)!;
    const agentDir = join(root, "agent");
    mkdirSync(agentDir);
    cpSync(FIXTURE_SESSIONS_DIR, join(agentDir, "sessions"), { recursive: true });
    // A fresh HOME loses the user's ~/.npmrc; keep the setting this machine needs to build addons
    // without downloading Node's headers. The rest of the environment (proxy, CA certificates) stays.
    const nodedir = execFileSync("npm", ["config", "get", "nodedir"], { encoding: "utf8" }).trim();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOME: root,
      PI_CODING_AGENT_DIR: agentDir,
      PI_OFFLINE: "1",
      ...(nodedir && nodedir !== "undefined" ? { npm_config_nodedir: nodedir } : {}),
    };
    const pi = (...args: string[]) => spawnSync(PI_RUNTIME!.node, [PI_RUNTIME!.cli, ...args], { cwd: root, env, encoding: "utf8", timeout: 540_000 });

    const install = pi("install", `npm:recall-pi@file:${join(root, tarball)}`);
    expect(install.status, install.stderr).toBe(0);
    expect(install.stdout).toContain("Installed npm:recall-pi");
    const settings = JSON.parse(readFileSync(join(agentDir, "settings.json"), "utf8")) as { packages: string[] };
    expect(settings.packages).toEqual([`npm:recall-pi@file:${join(root, tarball)}`]);

    const search = pi("-p", "/recall search forkonlyword");
    expect(search.status, search.stderr).toBe(0);
    const output = search.stdout + search.stderr;
    expect(output).toContain("01a0f71f-0380-71ce-a5f6-9af2c7be0ad4");
    expect(output).toContain("forkonlyword");
  }, 600_000);
});
