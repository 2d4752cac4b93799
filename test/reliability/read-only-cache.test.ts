/**
 * A cache folder that cannot be written to (a read-only mount): `search --no-sync`, `list` and
 * `read` answer from the index as it is; a search that would sync answers too, with one notice.
 * As root, chmod does not stop writes, so the cache is a tmpfs remounted read-only; without root
 * the test is skipped, and says so.
 */
import { execFileSync } from "node:child_process";
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Recall } from "../../src/index.js";
import { runRecallTool } from "../../src/pi/tool.js";
import { FIXTURE_FILES, userMessage } from "../helpers/fixture-files.js";
import { jsonLines } from "../helpers/run-cli.js";
import { isRoot, makeTmpfsCache, type TmpfsCache } from "../helpers/tmpfs-cache.js";

if (!isRoot)
  console.warn("read-only-cache.test.ts: skipped, needs root to mount a read-only tmpfs");

let cache: TmpfsCache;
const recall = (args: string[]) => cache.recall(args);

describe.skipIf(!isRoot)(
  `a read-only cache${isRoot ? "" : " (skipped: needs root to mount a tmpfs)"}`,
  () => {
    beforeAll(async () => {
      cache = makeTmpfsCache("16m");
      expect((await recall(["index"])).code).toBe(0);
      execFileSync("mount", ["-o", "remount,ro", cache.mountPoint]);
    });
    afterAll(() => cache?.cleanup());

    it("search --no-sync, list and read answer from the index as it is, with nothing on stderr", async () => {
      const search = await recall(["search", "the", "--no-sync", "--json"]);
      expect(search.stderr).toBe("");
      expect(search.code).toBe(0);
      expect(jsonLines(search.stdout).length).toBeGreaterThan(0);
      const list = await recall(["list", "--json", "--no-sync"]);
      expect(list.stderr).toBe("");
      expect(jsonLines(list.stdout)).toHaveLength(10);
      const read = await recall(["read", "01a0f6b1", "--json"]);
      expect(read.stderr).toBe("");
      expect(read.code).toBe(0);
    });

    it("a search that would update the index answers from it as it is, with one notice", async () => {
      const file = FIXTURE_FILES.s1.replace(/^.*\/sessions\//, `${cache.agent.sessionsDir}/`);
      appendFileSync(
        file,
        userMessage("c00000ro", "readonlyappendedword", Date.parse("2026-11-02T00:00:00Z")),
      );
      const search = await recall(["search", "the", "--json"]);
      expect(search.code).toBe(0);
      expect(jsonLines(search.stdout).length).toBeGreaterThan(0);
      expect(search.stderr.split("\n").filter(Boolean)).toEqual([
        expect.stringMatching(
          /^recall: the index in .* could not be updated \(.*Read-only file system.*\); answering from it as it is$/,
        ),
      ]);
      const index = await recall(["index"]);
      expect(index.code).toBe(2);
      expect(index.stderr).toBe(
        `recall: cannot write to the index in ${cache.cacheDir}: Read-only file system (os error 30)\n`,
      );
    });

    it("a tag edit is saved, and says the index cannot take it because the cache is read-only, and where", async () => {
      const tag = await recall(["tag", "01a0f6b1", "rotag"]);
      expect(tag.code).toBe(0);
      expect(tag.stdout).toContain("#rotag");
      // Finding the session tried to update the index first, and said so.
      expect(tag.stderr.split("\n").filter(Boolean)).toEqual([
        `recall: the index in ${cache.cacheDir} could not be updated (Read-only file system (os error 30)); answering from it as it is`,
        `recall: the tags are saved, not yet in the index: cannot write to the index in ${cache.cacheDir}: Read-only file system (os error 30)`,
      ]);
      expect(tag.stderr).not.toMatch(/another recall process/);
      const tags = await recall(["tags"]);
      expect(tags.stdout).toMatch(/#rotag\s+1/);
      const untag = await recall(["untag", "01a0f6b1", "rotag"]);
      expect(untag.code).toBe(0);
      expect(untag.stderr).toMatch(
        new RegExp(
          `\\nrecall: the change is saved, not yet in the index: cannot write to the index in ${cache.cacheDir}: Read-only`,
        ),
      );
    });

    it("the Pi tool answers too, and tells the model its results may miss the newest sessions", async () => {
      const recallOnCache = Recall.open({
        env: { ...cache.agent.env, RECALL_CACHE_DIR: join(cache.mountPoint, "cache") },
      });
      const context = {
        cwd: "/home/dev/shop-api",
        sessionManager: { getSessionId: () => "01ffffff-0000-7000-8000-000000000001" },
      } as never;
      try {
        const file = FIXTURE_FILES.s1.replace(/^.*\/sessions\//, `${cache.agent.sessionsDir}/`);
        appendFileSync(
          file,
          userMessage("c00001ro", "readonlytoolword", Date.parse("2026-11-03T00:00:00Z")),
        );
        const result = await runRecallTool(
          recallOnCache,
          { action: "search", query: "staging deploy" },
          context,
        );
        const text = result.content[0]!.text;
        expect(result.isError).toBeFalsy();
        expect(text).toMatch(
          /\(the index in .* could not be updated \(.*Read-only file system.*\); answering from it as it is; results may miss the newest sessions\.\)/,
        );
        expect(text).toContain("01a0f6b1-2680-79e3-a1fa-30b6f0582ef5");
      } finally {
        recallOnCache.close();
      }
    });
  },
);
