/**
 * scripts/opensearch.sh fetch: it finds Maven's repository by asking Maven (its user.home, or
 * settings.xml, not HOME), prints no colour codes, and leaves no half-unpacked folder behind when
 * unpacking fails. Needs Maven and unzip (not part of the README's setup: skipped, named, without).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { OPENSEARCH_SCRIPT } from "./helpers/opensearch-run.js";
import { skipWithout } from "./helpers/tools.js";

const SKIP = skipWithout("mvn", "unzip");
const VERSION = "2.19.6";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function fetch(env: NodeJS.ProcessEnv): { status: number | null; stderr: string; cache: string } {
  dir = mkdtempSync(join(tmpdir(), "recall-os-fetch-"));
  const cache = join(dir, "cache");
  const run = spawnSync("bash", [OPENSEARCH_SCRIPT, "fetch"], {
    env: {
      PATH: process.env.PATH,
      HOME: join(dir, "home"),
      RECALL_OPENSEARCH_CACHE: cache,
      ...env,
    },
    encoding: "utf8",
  });
  return { status: run.status, stderr: run.stderr, cache };
}

describe.skipIf(SKIP !== "")(`scripts/opensearch.sh fetch${SKIP}`, () => {
  it("leaves nothing half-unpacked when the engine's zip cannot be unpacked, and says what to do", () => {
    const repository = mkdtempSync(join(tmpdir(), "recall-os-repo-"));
    try {
      const zip = join(
        repository,
        "org/opensearch/distribution/integ-test-zip/opensearch",
        VERSION,
      );
      const jar = join(repository, "org/opensearch/plugin/analysis-common", VERSION);
      mkdirSync(zip, { recursive: true });
      mkdirSync(jar, { recursive: true });
      writeFileSync(join(zip, `opensearch-${VERSION}.zip`), "not a zip\n");
      writeFileSync(join(jar, `analysis-common-${VERSION}.jar`), "not a jar\n");
      const { status, stderr, cache } = fetch({ MAVEN_REPOSITORY: repository });
      expect(status).toBe(2);
      expect(stderr).toMatch(
        /opensearch\.sh: could not unpack .*opensearch-2\.19\.6\.zip \(a damaged download\? delete it, and fetch again\)\n$/,
      );
      expect(readdirSync(cache)).toEqual([]);
    } finally {
      rmSync(repository, { recursive: true, force: true });
    }
  });

  it(
    "finds the engine in Maven's own repository when HOME is another folder, printing no colour codes",
    { timeout: 600_000 },
    () => {
      const { status, stderr, cache } = fetch({});
      expect(stderr).not.toMatch(/\x1b/);
      expect(status).toBe(0);
      expect(existsSync(join(cache, `opensearch-${VERSION}`, "bin", "opensearch"))).toBe(true);
      expect(readdirSync(cache).filter((name) => name.startsWith("unpack."))).toEqual([]);
    },
  );
});
