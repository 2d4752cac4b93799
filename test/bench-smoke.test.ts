/**
 * Smoke run of the benchmark harness (bench/run.mjs) on a tiny corpus, with no thresholds: it only
 * checks that every measurement of issue 7 is still produced, so the harness cannot rot.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "recall-bench-smoke-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const STAT = ["n", "median", "p95", "min", "max", "mean"];
const QUERY_KEYS = ["word", "words", "phrase", "prefix", "folder", "nohits"];

function expectStat(value: unknown): void {
  expect(value).toBeTypeOf("object");
  expect(Object.keys(value as object)).toEqual(expect.arrayContaining(STAT));
  expect((value as { n: number }).n).toBeGreaterThan(0);
  expect((value as { median: number }).median).toBeTypeOf("number");
}

describe("benchmark harness (smoke, corpus of 20 sessions)", () => {
  it("measures everything and writes a results file", { timeout: 120_000 }, () => {
    const resultsFile = join(dir, "results.json");
    const run = spawnSync(
      process.execPath,
      [
        "bench/run.mjs",
        "--sessions",
        "20",
        "--quick",
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
    expect(run.stdout).toMatch(/\| measurement \|/);
    expect(existsSync(resultsFile)).toBe(true);

    const r = JSON.parse(readFileSync(resultsFile, "utf8"));
    expect(r.machine).toMatchObject({
      nproc: expect.any(Number),
      memoryGiB: expect.any(Number),
      cpuModel: expect.any(String),
    });
    expect(r.load.start).toHaveLength(3);
    expect(r.corpus).toMatchObject({ label: "n20", files: 20, bytes: expect.any(Number) });
    expect(r.command).toMatch(/^npm run bench -- /);

    const m = r.measurements;
    expectStat(m.index.wallMs);
    expect(m.index.mbPerS).toBeGreaterThan(0);
    expect(m.index.messagesPerS).toBeGreaterThan(0);
    expect(m.index.indexRatio).toBeGreaterThan(0);
    if (existsSync("/usr/bin/time")) expectStat(m.index.peakRssMiB);

    expectStat(m.freshness.noChangeSyncMs);
    expectStat(m.freshness.cliSyncOverheadMs);
    expectStat(m.freshness.append.totalMs);
    expect(m.freshness.append.found).toBe(m.freshness.append.runs);

    expectStat(m.nodeFloorMs);
    for (const key of QUERY_KEYS) {
      expectStat(m.cliSearch[key]);
      expectStat(m.cliSearch[key].noSync);
      expectStat(m.cliSearch[key].watched);
      expectStat(m.inProcess[key]);
      expectStat(m.inProcessAllContent[key]);
      if (r.machine.rg) expectStat(m.rg[key]);
    }
    // The #tag query is measured once `recall tag` exists, and reported as n/a until then.
    if (m.tags.available) {
      expectStat(m.cliSearch.tag);
      expectStat(m.inProcess.tag);
    } else {
      expect(r.notes.join("\n")).toMatch(/tag query: n\/a/);
    }
    expect(m.cliSearch.nohits.hits).toBe(0);
    // The corpus's text comes from the packages in node_modules: a dependency added may leave the
    // word only in tool output, so the search of every kind of text must find it.
    expect(m.inProcessAllContent.word.hits).toBeGreaterThan(0);

    expectStat(m.picker.fromOpenMs);
    expectStat(m.picker.fromImportMs);
    // Its prefix ("webso") may be only in tool output of so small a corpus (see the word above).
    expect(m.picker.hits).toBeGreaterThanOrEqual(0);

    expect(r.targets.map((t: { id: string }) => t.id)).toEqual([
      "cli-vs-node",
      "cli-watched-vs-node",
      "inproc-p95",
      "inproc-all-p95",
      "inproc-vs-rg",
      "picker",
      "index-time",
      "index-per-gb",
      "index-rss",
      "index-size",
      "fresh-nochange",
      "fresh-append",
    ]);

    const report = spawnSync(process.execPath, ["bench/report.mjs", resultsFile], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(report.status).toBe(0);
    expect(report.stdout).toMatch(/full index/);
    expect(report.stdout).toMatch(/in-process `searchSessions` `--content all`, single word/);
  });
});
