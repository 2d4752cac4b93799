/**
 * The platforms recall ships a prebuilt core for are listed alike everywhere (package.json's napi
 * targets, the loader, the install script, the release's build matrix and its packages), and
 * only platforms the core compiles on are listed.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PREBUILT_PLATFORMS } from "../src/native/platform.js";

const root = join(import.meta.dirname, "..");
const read = (file: string) => readFileSync(join(root, file), "utf8");

describe("prebuilt platforms", () => {
  const targets: string[] = JSON.parse(read("package.json")).napi.targets;

  it("are the same list in package.json, the loader, the install script, the release and npm/", () => {
    expect(targets).toHaveLength(PREBUILT_PLATFORMS.length);
    const installList = /const PREBUILT_PLATFORMS = (\[[^\]]*\])/.exec(
      read("scripts/build-native.mjs"),
    )![1]!;
    // As JSON once the formatter's trailing comma is gone.
    expect(JSON.parse(installList.replace(/,(\s*\])$/, "$1"))).toEqual(PREBUILT_PLATFORMS);
    const release = read(".github/workflows/release.yml");
    const built = [...release.matchAll(/platform: ([\w-]+), target: ([\w-]+)/g)].map((m) => [
      m[1],
      m[2],
    ]);
    expect(built.map(([platform]) => platform).sort()).toEqual([...PREBUILT_PLATFORMS].sort());
    expect(built.map(([, target]) => target).sort()).toEqual([...targets].sort());
    // npm/model-minilm is the model package, the same on every platform (scripts/model-package.sh).
    const platformFolders = readdirSync(join(root, "npm")).filter(
      (name) => name !== "model-minilm",
    );
    expect(platformFolders.sort()).toEqual([...PREBUILT_PLATFORMS].sort());
    for (const target of targets) expect(read("scripts/pack-release.sh")).toContain(`"${target}"`);
  });

  it("leave out Windows while the core uses Unix-only APIs (it does not compile there)", () => {
    const unixOnly = readdirSync(join(root, "native/src"), { recursive: true })
      .map(String)
      .filter((file) => file.endsWith(".rs"))
      .some((file) =>
        /std::os::(unix|fd)/.test(readFileSync(join(root, "native/src", file), "utf8")),
      );
    expect(unixOnly).toBe(true);
    expect(targets.filter((target) => target.includes("windows"))).toEqual([]);
    expect(PREBUILT_PLATFORMS.filter((platform) => platform.startsWith("win32"))).toEqual([]);
    expect(existsSync(join(root, "npm/win32-x64-msvc"))).toBe(false);
  });
});
