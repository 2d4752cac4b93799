/**
 * A real OpenSearch for the archive's tests, started by scripts/opensearch.sh once per test run
 * (the first test file that asks starts it, the others find it running; opensearch-run.ts stops
 * it). Where Java is missing the tests that need it are skipped, and say so in their names.
 */
import { execFile, spawnSync } from "node:child_process";
import { inject } from "vitest";
import { OPENSEARCH_SCRIPT } from "./opensearch-run.js";

const javaInstalled = spawnSync("java", ["-version"], { stdio: "ignore" }).status === 0;

/** The title of a suite that needs OpenSearch: it says why when the suite is skipped. */
export function needsOpenSearch(title: string): string {
  return javaInstalled ? title : `${title} (skipped: Java not installed)`;
}

export const openSearchMissing = !javaInstalled;

/**
 * What `recall remote test --json` passes on a remote that works, as [check, ok] pairs (keepFiles
 * adds "may keep files").
 */
export const WORKING_REMOTE_CHECKS: [string, boolean][] = [
  ["reachable", true],
  ["authenticated", true],
  ["may write", true],
  ["may read", true],
  ["template", true],
  ["same index", true],
];

/** The URL of this run's OpenSearch, started if it is not running yet. */
export function openSearchUrl(): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      OPENSEARCH_SCRIPT,
      ["start", "--dir", inject("openSearchDir")],
      { timeout: 300_000 },
      (error, stdout, stderr) => {
        if (error)
          reject(
            new Error(`scripts/opensearch.sh start failed: ${stderr.trim() || error.message}`),
          );
        else resolve(stdout.trim());
      },
    );
  });
}

/** A request to the engine's own REST API at `url` (a body makes it a POST), answered as JSON. */
export async function engineApi(
  url: string,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<any> {
  const response = await fetch(`${url}${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: { "content-type": "application/json" },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return response.json();
}
