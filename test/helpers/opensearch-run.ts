/**
 * Global setup for the archive's tests: names a folder for this run's OpenSearch (started only
 * when a test asks for it, see opensearch.ts) and stops whatever was started there at the end.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { fileURLToPath } from "node:url";

export const OPENSEARCH_SCRIPT = fileURLToPath(
  new URL("../../scripts/opensearch.sh", import.meta.url),
);

declare module "vitest" {
  export interface ProvidedContext {
    openSearchDir: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), "recall-opensearch-"));
  project.provide("openSearchDir", dir);
  return () => {
    execFileSync(OPENSEARCH_SCRIPT, ["stop", "--dir", dir], { stdio: "inherit" });
    rmSync(dir, { recursive: true, force: true });
  };
}
