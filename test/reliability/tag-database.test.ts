/**
 * A damaged tag database. Emptied to 0 bytes (a crash of another tool, a full disk, a bad copy)
 * while the index still holds the tags: they come back from the index, with a notice (they used
 * to be wiped, the index's copy included). Garbage, cut short, or a folder in its place: tag
 * operations and #tag filters fail with one clear line, plain word searches go on (with a notice
 * when the index had to wait for it), and doctor's fix brings the tags back. Deleted on purpose:
 * the tags are gone, as before.
 */
import { existsSync, mkdirSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "../helpers/agent-dir.js";
import { jsonLines, runRecall } from "../helpers/run-cli.js";

const S1 = "01a0f6b1-2680-79e3-a1fa-30b6f0582ef5";
const S2 = "01a0f78c-e080-7f28-af10-ffa76e6bae4c";

let dir: AgentDir;
let tagsDb: string;
const recall = (args: string[]) => runRecall(args, { env: dir.env });
const taggedIds = async (tag: string) =>
  jsonLines<{ id: string }>((await recall(["search", "--json", `#${tag}`])).stdout)
    .map((s) => s.id)
    .sort();

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
    expect(
      jsonLines<{ id: string }>(result.stdout)
        .map((s) => s.id)
        .sort(),
    ).toEqual([S1, S2].sort());
    expect(result.stderr).toBe(
      `recall: the tag database ${tagsDb} was empty (0 bytes); restored the tags of 2 sessions from the index (all as manual tags)\n`,
    );
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
      expect(result.stderr).toMatch(
        new RegExp(
          `^recall: the tag database ${tagsDb} is damaged \\(.*\\); restore it from a backup or move it aside\\n$`,
        ),
      );
    }
    expect(existsSync(tagsDb)).toBe(true);
  });

  it("plain word searches go on, with the index's tags", async () => {
    const result = await recall(["search", "--json", "staging"]);
    expect(result.code).toBe(0);
    expect(jsonLines(result.stdout).length).toBeGreaterThan(0);
  });
});

const DAMAGED = (path: string) =>
  new RegExp(
    `^recall: the tag database ${path} is damaged \\(.*\\); restore it from a backup or move it aside\\n$`,
  );

describe("a tag database cut short", () => {
  beforeEach(() => {
    for (const suffix of ["-wal", "-shm"]) rmSync(tagsDb + suffix, { force: true });
    truncateSync(tagsDb, Math.floor(statSync(tagsDb).size / 2));
  });

  it("#tag searches stop with one clear line, like tag operations; plain word searches go on", async () => {
    for (const args of [
      ["search", "#keep"],
      ["search", "--json", "#keep", "staging"],
      ["tag", S1, "x"],
    ]) {
      const result = await recall(args);
      expect(result, args.join(" ")).toMatchObject({ code: 2, stdout: "" });
      expect(result.stderr).toMatch(DAMAGED(tagsDb));
    }
    const plain = await recall(["search", "--json", "staging"]);
    expect(plain.code).toBe(0);
    expect(jsonLines(plain.stdout).length).toBeGreaterThan(0);
  });
});

describe("a folder where the tag database should be", () => {
  beforeEach(() => {
    for (const suffix of ["", "-wal", "-shm"]) rmSync(tagsDb + suffix, { force: true });
    mkdirSync(tagsDb);
  });

  it("plain word searches answer, with a notice; tag operations and #tag searches stop with one line", async () => {
    const plain = await recall(["search", "--json", "staging"]);
    expect(plain.code).toBe(0);
    expect(jsonLines(plain.stdout).length).toBeGreaterThan(0);
    expect(plain.stderr).toBe(
      `recall: the tag database ${tagsDb} is damaged (a folder, not a file); restore it from a backup or move it aside; the index is not updated until then\n`,
    );
    expect((await recall(["list", "--json"])).code).toBe(0);
    for (const args of [["search", "#keep"], ["tag", S1, "x"], ["tags"]]) {
      const result = await recall(args);
      expect(result, args.join(" ")).toMatchObject({ code: 2, stdout: "" });
      expect(result.stderr).toMatch(DAMAGED(tagsDb));
    }
  });

  it("doctor fails the tags check with a fix that brings the tags back from the index", async () => {
    const doctor = await recall(["doctor", "--json"]);
    expect(doctor.code).toBe(2);
    const tags = jsonLines<{ name: string; ok: boolean; fix: string }>(doctor.stdout).find(
      (c) => c.name === "tags",
    )!;
    expect(tags.ok).toBe(false);
    expect(tags.fix).toMatch(/^mv \S+ \S+ && touch \S+ /);
    // The fix, as the user would run it: the tags are back.
    rmSync(tagsDb, { recursive: true });
    writeFileSync(tagsDb, "");
    expect(await taggedIds("keep")).toEqual([S1, S2].sort());
    expect((await recall(["doctor"])).code).toBe(0);
  });
});
