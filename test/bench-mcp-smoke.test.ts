/**
 * Smoke run of the MCP benchmark (bench/mcp.mjs) on 20 sessions, with no thresholds: it only checks
 * that every measurement is still produced (tool call with and without `recall watch`, in
 * process, literal scan, server ready), so the script cannot rot.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "recall-bench-mcp-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("MCP benchmark (smoke, corpus of 20 sessions)", () => {
  it(
    "measures the tool call, the same search in process, the literal scan and the server start",
    { timeout: 120_000 },
    () => {
      const resultsFile = join(dir, "results.json");
      const args = [
        "bench/mcp.mjs",
        "--sessions",
        "20",
        "--runs",
        "2",
        "--scan-runs",
        "1",
        "--ready-runs",
        "1",
        "--corpus-dir",
        join(dir, "corpus"),
        "--work",
        join(dir, "work"),
        "--results",
        resultsFile,
      ];
      const run = spawnSync(process.execPath, args, {
        cwd: ROOT,
        encoding: "utf8",
        env: { PATH: process.env.PATH, HOME: dir },
      });
      expect(run.stderr).not.toMatch(/Error/);
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(/\| query \| hits \| tool call p50/);
      const r = JSON.parse(readFileSync(resultsFile, "utf8"));
      expect(r.corpus).toMatchObject({ label: "n20", files: 20 });
      expect(r.ready.n).toBe(1);
      expect(r.nodeStart.n).toBe(1);
      expect(r.queries.map((q: { key: string }) => q.key)).toEqual([
        "word",
        "words",
        "phrase",
        "nohits",
      ]);
      for (const q of r.queries) {
        for (const stat of [q.mcp, q.mcpWatched, q.inproc]) expect(stat.n).toBe(2);
        expect(q.scan.n).toBe(1);
        expect(q.speedupP95).toBeTypeOf("number");
      }
      expect(Object.keys(r.targets)).toEqual(["p95", "p95Watched", "speedup", "ready"]);
    },
  );
});
