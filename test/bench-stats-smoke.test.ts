/**
 * Smoke run of bench/stats.mjs on a tiny corpus, with no thresholds: every measurement is still
 * produced and every answer (cold, warm, a new process's) is the cold one's, so the harness cannot
 * rot.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "recall-bench-stats-smoke-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("bench/stats.mjs (smoke, corpus of 20 sessions)", () => {
  it(
    "measures stats cold and warm and the export of the largest session, with the same answer each time",
    { timeout: 180_000 },
    () => {
      const resultsFile = join(dir, "results.json");
      const run = spawnSync(
        process.execPath,
        [
          "bench/stats.mjs",
          "--sessions",
          "20",
          "--seed",
          "2",
          "--rounds",
          "1",
          "--corpus-dir",
          join(dir, "corpus"),
          "--work",
          join(dir, "work"),
          "--results",
          resultsFile,
        ],
        { cwd: ROOT, encoding: "utf8", env: { PATH: process.env.PATH, HOME: dir } },
      );
      expect(run.stderr).not.toMatch(/Error/);
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(/\| Recall\.stats warm \(in process\) \|/);
      const r = JSON.parse(readFileSync(resultsFile, "utf8"));
      expect(r.corpus).toMatchObject({ label: "n20", files: 20 });
      expect(r.stats.sameAnswer).toBe(true);
      for (const key of [
        "coldMs",
        "coldCpuMs",
        "warmMs",
        "warmCpuMs",
        "warmUnsyncedMs",
        "warmUnsyncedCpuMs",
        "newProcessWarmMs",
        "window30dWarmMs",
        "commandMs",
        "nodeFloorMs",
      ])
        expect(r.stats[key].median, key).toBeTypeOf("number");
      expect(r.stats.warmMs.n).toBe(3);
      expect(r.answer.messages).toBeGreaterThan(0);
      for (const format of ["md", "html"]) {
        expect(r.export[format].wallMs.median).toBeTypeOf("number");
        expect(r.export[format].outBytes).toBeGreaterThan(1000);
      }
    },
  );
});
