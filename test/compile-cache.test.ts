// bin/recall.cjs compiles the CLI bundle through a V8 code cache kept beside it (Node < 22.1). The
// cache is an optimisation only: a missing, stale or garbled one must never change what runs.
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import Module from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
// Node ≥ 22.1 caches compiled code itself (module.enableCompileCache), elsewhere.
const usesOwnCache = !("enableCompileCache" in Module);

let copy: string | undefined;
afterEach(() => {
  if (copy) {
    chmodSync(join(copy, "dist", "bundle"), 0o755);
    rmSync(copy, { recursive: true, force: true });
  }
});

/** A copy of the installed layout: bin/, dist/bundle/ and the native addon. */
function install(): string {
  copy = mkdtempSync(join(tmpdir(), "recall-cache-"));
  cpSync(join(ROOT, "bin"), join(copy, "bin"), { recursive: true });
  mkdirSync(join(copy, "dist", "bundle"), { recursive: true });
  for (const bundle of ["cli.cjs", "quick.cjs", "early-look.cjs"])
    cpSync(join(ROOT, "dist", "bundle", bundle), join(copy, "dist", "bundle", bundle));
  mkdirSync(join(copy, "native"));
  symlinkSync(join(ROOT, "native", "recall.node"), join(copy, "native", "recall.node"));
  return copy;
}

const caches = (dir: string) =>
  readdirSync(join(dir, "dist", "bundle")).filter((f) => f.endsWith(".v8cache"));
const version = (dir: string) =>
  execFileSync(process.execPath, [join(dir, "bin", "recall.cjs"), "--version"], {
    encoding: "utf8",
  }).trim();

describe.skipIf(!usesOwnCache)(
  `the CLI's code cache${usesOwnCache ? "" : " (skipped: this Node caches compiled code itself, module.enableCompileCache)"}`,
  () => {
    it("is written by the first run, used by the next, and rewritten when garbled", () => {
      const dir = install();
      expect(version(dir)).toBe("recall 0.1.0 (native core 0.1.0)");
      const [cache] = caches(dir);
      expect(cache).toMatch(/^cli\.cjs\.\d+-\d+-v[\d.]+-\w+\.other\.v8cache$/);
      expect(version(dir)).toBe("recall 0.1.0 (native core 0.1.0)");
      writeFileSync(join(dir, "dist", "bundle", cache!), "not a code cache");
      expect(version(dir)).toBe("recall 0.1.0 (native core 0.1.0)");
      expect(caches(dir)).toEqual([cache]);
      expect(readFileSync(join(dir, "dist", "bundle", cache!), "latin1")).not.toBe(
        "not a code cache",
      );
    });

    it("keeps one cache per command, and drops those of an earlier bundle", () => {
      const dir = install();
      expect(version(dir)).toBe("recall 0.1.0 (native core 0.1.0)");
      execFileSync(process.execPath, [join(dir, "bin", "recall.cjs"), "search", "--help"], {
        encoding: "utf8",
      });
      expect(
        caches(dir)
          .map((f) => f.split(".").at(-2))
          .sort(),
      ).toEqual(["other", "search"]);
      const bundle = join(dir, "dist", "bundle", "cli.cjs");
      utimesSync(bundle, new Date(), new Date(Date.now() + 5000)); // as a rebuilt bundle would be
      expect(version(dir)).toBe("recall 0.1.0 (native core 0.1.0)");
      expect(caches(dir)).toHaveLength(1);
    });

    // Root can write into a read-only folder.
    it.skipIf(process.getuid?.() === 0)(
      `is left out where the bundle's folder is read-only${process.getuid?.() === 0 ? " (skipped: root may write a read-only folder)" : ""}`,
      () => {
        const dir = install();
        chmodSync(join(dir, "dist", "bundle"), 0o555);
        expect(version(dir)).toBe("recall 0.1.0 (native core 0.1.0)");
        expect(caches(dir)).toEqual([]);
      },
    );
  },
);
