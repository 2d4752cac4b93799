/**
 * A damaged tag database. Emptied to 0 bytes (a crash of another tool, a full disk, a bad copy)
 * while the index still holds the tags: they come back from the index, with a notice (they used
 * to be wiped, the index's copy included). Garbage: tag operations and #tag filters fail with one
 * clear line, plain word searches go on. Deleted on purpose: the tags are gone, as before.
 */
import { existsSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "../helpers/agent-dir.js";
import { jsonLines, runRecall } from "../helpers/run-cli.js";

const S1 = "01a0f6b1-2680-79e3-a1fa-30b6f0582ef5";
const S2 = "01a0f78c-e080-7f28-af10-ffa76e6bae4c";

let dir: AgentDir;
let tagsDb: string;
const recall = (args: string[]) => runRecall(args, { env: dir.env });
const taggedIds = async (tag: string) => jsonLines<{ id: string }>((await recall(["search", "--json", `#${tag}`])).stdout).map((s) => s.id).sort();

beforeEach(async () => {
  dir = makeAgentDir();
  tagsDb = join(dir.agentDir, "recall", "tags.db");
  expect((await recall(["tag", S1, "keep", "deploy"])).code).toBe(0);
  expect((await recall(["tag", S2, "keep"])).code).toBe(0);
  expect(await taggedIds("keep")).toEqual([S1, S2].sort());
});
afterEach(() => dir.cleanup());

function emptyIt(): void {
  for (const suffix of ["-wal", "-shm"]) rmSync(tagsDb + suffix, { force: true });
  truncateSync(tagsDb, 0);
}

describe("a tag database emptied to 0 bytes", () => {
  it("search: the tags come back from the index, with one notice", async () => {
    emptyIt();
    const result = await recall(["search", "--json", "#keep"]);
    expect(result.code).toBe(0);
    expect(jsonLines<{ id: string }>(result.stdout).map((s) => s.id).sort()).toEqual([S1, S2].sort());
    expect(result.stderr).toBe(`recall: the tag database ${tagsDb} was empty (0 bytes); restored the tags of 2 sessions from the index (all as manual tags)\n`);
    // Once: the database holds them again.
    const again = await recall(["tags", S1, "--json"]);
    expect(again.stderr).toBe("");
    expect(JSON.parse(again.stdout)).toMatchObject({ id: S1, manual: ["deploy", "keep"] });
  });

  it("tags (the counts) restores them too", async () => {
    emptyIt();
    const result = await recall(["tags", "--json"]);
    expect(result.code).toBe(0);
    expect(jsonLines(result.stdout)).toEqual([
      { tag: "keep", sessions: 2 },
      { tag: "deploy", sessions: 1 },
    ]);
    expect(result.stderr).toMatch(/restored the tags of 2 sessions/);
  });

  it("a tag edit first: the edit and the restored tags are both kept", async () => {
    emptyIt();
    expect((await recall(["tag", S1, "new"])).code).toBe(0);
    expect(await taggedIds("keep")).toEqual([S1, S2].sort());
    expect(await taggedIds("new")).toEqual([S1]);
  });
});

describe("a tag database deleted on purpose", () => {
  it("its tags are gone, the index's copy too", async () => {
    for (const suffix of ["", "-wal", "-shm"]) rmSync(tagsDb + suffix, { force: true });
    const result = await recall(["search", "--json", "#keep"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("");
  });
});

describe("a garbage tag database", () => {
  beforeEach(() => {
    for (const suffix of ["-wal", "-shm"]) rmSync(tagsDb + suffix, { force: true });
    writeFileSync(tagsDb, "this is not a database ".repeat(200));
  });

  it("tag operations fail with one clear line", async () => {
    for (const args of [["tag", S1, "x"], ["tags"], ["search", "#keep"]]) {
      const result = await recall(args);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`^recall: the tag database ${tagsDb} is damaged \\(.*\\); restore it from a backup or move it aside\\n$`));
    }
    expect(existsSync(tagsDb)).toBe(true);
  });

  it("plain word searches go on, with the index's tags", async () => {
    const result = await recall(["search", "--json", "staging"]);
    expect(result.code).toBe(0);
    expect(jsonLines(result.stdout).length).toBeGreaterThan(0);
  });
});
