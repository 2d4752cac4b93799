/**
 * Smoke run of `recall serve`'s benchmark (bench/serve.mjs) on 20 sessions, with no thresholds:
 * it only checks that every measurement is still produced (start, search as you type, the long
 * session's page, the activity page), so the script cannot rot. Chromium is left out (the serve
 * tests drive it); the script's browser rounds run where it is installed.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "recall-bench-serve-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("recall serve benchmark (smoke, corpus of 20 sessions)", () => {
  it(
    "times the start, search as you type, a long session's page and the activity page",
    { timeout: 120_000 },
    () => {
      const resultsFile = join(dir, "results.json");
      const args = [
        "bench/serve.mjs",
        "--sessions",
        "20",
        "--rounds",
        "1",
        "--warm-runs",
        "1",
        "--activity-runs",
        "1",
        "--queries",
        "2",
        "--long-messages",
        "100",
        "--no-browser",
      ];
      const run = spawnSync(
        process.execPath,
        [
          ...args,
          "--corpus-dir",
          join(dir, "corpus"),
          "--work",
          join(dir, "work"),
          "--results",
          resultsFile,
        ],
        {
          cwd: ROOT,
          encoding: "utf8",
          env: { PATH: process.env.PATH, HOME: dir },
        },
      );
      expect(run.stderr).not.toMatch(/Error/);
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(/\| measured \| p50 \/ p95/);
      const r = JSON.parse(readFileSync(resultsFile, "utf8"));
      expect(r.corpus).toMatchObject({ label: "n20", files: 20 });
      expect(r.longSession.messages).toBeGreaterThanOrEqual(100);
      const m = r.measurements;
      for (const name of [
        "urlPrinted",
        "firstPage",
        "withStyles",
        "sessionCold",
        "sessionWarm",
        "partsPage",
        "activityAllCold",
        "activityMonthCold",
        "nodeStart",
      ])
        expect(m[name].n, name).toBeGreaterThan(0);
      // Every prefix of both typed queries, one request each.
      expect(m.search.n).toBe(r.typing.requestsPerRound);
      expect(r.typing.queries).toHaveLength(2);
      expect(r.facts.session.parts).toBeGreaterThan(0);
      expect(Object.keys(r.targets)).toEqual(["firstPage", "search", "session", "activity"]);
    },
  );
});
