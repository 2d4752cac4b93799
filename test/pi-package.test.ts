/**
 * The published package as Pi installs it: `npm pack`, then `pi install
 * npm:recall-pi@file:<tarball>` (Pi's real npm path: `npm install` into ~/.pi/agent/npm, install
 * scripts included), then `/recall search` in the real Pi with nothing but that installed package.
 * The native core comes as it does from the registry, in the platform package
 * (recall-pi-linux-x64-gnu, packed from npm/linux-x64-gnu with this checkout's build), installed
 * into Pi's npm folder first, as npm would from recall-pi's optional dependencies. Skipped,
 * visibly, without the Pi runtime or off linux-x64.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FIXTURE_SESSIONS_DIR } from "./helpers/fixture-files.js";
import { PI_RUNTIME, PI_SKIP_REASON, REPO } from "./helpers/pi-env.js";

const PLATFORM = "linux-x64-gnu";
const ON_PLATFORM = process.platform === "linux" && process.arch === "x64";

describe.skipIf(!PI_RUNTIME || !ON_PLATFORM)(`pi install npm:recall-pi${PI_SKIP_REASON}`, () => {
  const root = mkdtempSync(join(tmpdir(), "recall-pi-package-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("installs from the packed tarball and answers /recall search", () => {
    // dist/ is already built by the test setup: --ignore-scripts keeps `prepare` from rebuilding it
    // under other tests.
    const tarball = execFileSync(
      "npm",
      ["pack", "--ignore-scripts", "--pack-destination", root, "--silent"],
      { cwd: REPO, encoding: "utf8" },
    )
      .trim()
      .split("\n")
      .at(-1)!;
    const platformDir = join(root, PLATFORM);
    cpSync(join(REPO, "npm", PLATFORM), platformDir, { recursive: true });
    cpSync(join(REPO, "native", "recall.node"), join(platformDir, `recall.${PLATFORM}.node`));
    const platformTarball = execFileSync(
      "npm",
      ["pack", platformDir, "--pack-destination", root, "--silent"],
      { cwd: root, encoding: "utf8" },
    )
      .trim()
      .split("\n")
      .at(-1)!;
    const agentDir = join(root, "agent");
    mkdirSync(agentDir);
    cpSync(FIXTURE_SESSIONS_DIR, join(agentDir, "sessions"), { recursive: true });
    // A fresh HOME: no npm or node-gyp caches of the user's. The rest of the environment (proxy, CA
    // certificates) stays.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOME: root,
      PI_CODING_AGENT_DIR: agentDir,
      PI_OFFLINE: "1",
    };
    const preinstall = spawnSync(
      "npm",
      [
        "install",
        "--prefix",
        join(agentDir, "npm"),
        "--no-audit",
        "--no-fund",
        join(root, platformTarball),
      ],
      { env, encoding: "utf8" },
    );
    expect(preinstall.status, preinstall.stderr).toBe(0);
    const pi = (...args: string[]) =>
      spawnSync(PI_RUNTIME!.node, [PI_RUNTIME!.cli, ...args], {
        cwd: root,
        env,
        encoding: "utf8",
        timeout: 540_000,
      });

    const install = pi("install", `npm:recall-pi@file:${join(root, tarball)}`);
    expect(install.status, install.stderr).toBe(0);
    expect(install.stdout).toContain("Installed npm:recall-pi");
    const settings = JSON.parse(readFileSync(join(agentDir, "settings.json"), "utf8")) as {
      packages: string[];
    };
    expect(settings.packages).toEqual([`npm:recall-pi@file:${join(root, tarball)}`]);

    const search = pi("-p", "/recall search forkonlyword");
    expect(search.status, search.stderr).toBe(0);
    const output = search.stdout + search.stderr;
    expect(output).toContain("01a0f71f-0380-71ce-a5f6-9af2c7be0ad4");
    expect(output).toContain("forkonlyword");

    // The CLI of the same install, on the Node running the tests (20), with no rebuild.
    const cli = spawnSync(
      process.execPath,
      [
        join(agentDir, "npm", "node_modules", "recall-pi", "bin", "recall.cjs"),
        "search",
        "forkonlyword",
      ],
      { env, encoding: "utf8" },
    );
    expect(cli.status, cli.stderr).toBe(0);
    expect(cli.stdout).toContain("01a0f71f-0380-71ce-a5f6-9af2c7be0ad4");
  }, 600_000);
});
