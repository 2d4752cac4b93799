/**
 * A full disk under the cache while indexing: the index stays at its last commit, the error says
 * the disk is full and where, later commands answer from that commit, and tagging keeps working
 * (tags live elsewhere). As root, the cache is a small tmpfs filled up; without root the test is
 * skipped, and says so.
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seededRandom } from "../helpers/damage.js";
import { FIXTURE_FILES, userMessage } from "../helpers/fixture-files.js";
import { jsonLines } from "../helpers/run-cli.js";
import { isRoot, makeTmpfsCache, type TmpfsCache } from "../helpers/tmpfs-cache.js";

if (!isRoot) console.warn("full-disk.test.ts: skipped, needs root to mount a small tmpfs");

let cache: TmpfsCache;
const recall = (args: string[]) => cache.recall(args);
const FULL = /the disk is full: no space left on device for .*\/cache/;

/** Text that does not compress: random words. */
function bulkyText(words: number): string {
  const random = seededRandom(7);
  return Array.from({ length: words }, () => Math.floor(random() * 2 ** 32).toString(36)).join(" ");
}

describe.skipIf(!isRoot)(
  `a full disk under the cache${isRoot ? "" : " (skipped: needs root to mount a tmpfs)"}`,
  () => {
    beforeAll(async () => {
      cache = makeTmpfsCache("1m");
      expect((await recall(["index"])).code).toBe(0);
      // Fill what is left.
      try {
        writeFileSync(join(cache.mountPoint, "filler"), Buffer.alloc(1 << 20));
      } catch {
        // ENOSPC: the disk is full now, which is the point.
      }
      const file = FIXTURE_FILES.s1.replace(/^.*\/sessions\//, `${cache.agent.sessionsDir}/`);
      appendFileSync(
        file,
        userMessage(
          "c0000full",
          `diskfullword ${bulkyText(30_000)}`,
          Date.parse("2026-11-02T00:00:00Z"),
        ),
      );
    });
    afterAll(() => cache?.cleanup());

    it("index fails saying so; search and list answer from the last commit; tag and tags work", async () => {
      const index = await recall(["index"]);
      expect(index.code).toBe(2);
      expect(index.stderr).toMatch(new RegExp(`^recall: ${FULL.source}\\n$`));

      const search = await recall(["search", "the", "--json"]);
      expect(search.code).toBe(0);
      expect(jsonLines(search.stdout).length).toBeGreaterThan(0);
      expect(search.stderr.split("\n").filter(Boolean)).toEqual([
        expect.stringMatching(/could not be updated \(the disk is full/),
      ]);
      const list = await recall(["list", "--json", "--no-sync"]);
      expect(list.stderr).toBe("");
      expect(jsonLines(list.stdout)).toHaveLength(10);

      expect((await recall(["tag", "01a0f6b1", "fulldisk"])).code).toBe(0);
      const tags = await recall(["tags", "01a0f6b1"]);
      expect(tags.code).toBe(0);
      expect(tags.stdout).toContain("fulldisk");

      // With room again, the next search takes everything in, the tag included.
      rmSync(join(cache.mountPoint, "filler"));
      execFileSync("mount", ["-o", "remount,size=16m", cache.mountPoint]);
      const after = await recall(["search", "diskfullword", "--json"]);
      expect(after.stderr).toBe("");
      expect(jsonLines<{ id: string; tags: string[] }>(after.stdout)[0]).toMatchObject({
        id: expect.stringMatching(/^01a0f6b1/),
        tags: ["fulldisk"],
      });
    });
  },
);
