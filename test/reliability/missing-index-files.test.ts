/**
 * Issue 30, items 1 and 2, as the campaign met them through the CLI: a segment file deleted from
 * `index/depth/` or a `.pos` deleted from the main index made every command exit 2, `recall index
 * --rebuild` included, while `recall doctor` said the checksums matched. Each now repairs itself:
 * one notice, the answer, the tags kept; doctor names the file.
 */
import { appendFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "../helpers/agent-dir.js";
import { keepCleanCache, segmentFiles, type CleanCache } from "../helpers/damage.js";
import { userMessage } from "../helpers/fixture-files.js";
import { jsonLines, runRecall } from "../helpers/run-cli.js";

const TAGGED = "01a0f6b1";
const NOTICE =
  /^recall: the index in .* could not be used \(.*missing.*\); rebuilding it from the session files$/;

let agent: AgentDir;
let cacheDir: string;
let clean: CleanCache;

const recall = (args: string[]) => runRecall(args, { env: agent.env });

function restoreCleanIndex(): void {
  clean.restore();
}

const deleteOne = (folder: string, extension: string) =>
  rmSync(segmentFiles(join(cacheDir, folder), extension)[0]!);

/** The ids and tags `recall list` gives, and its exit code and stderr. */
async function listed(): Promise<{
  code: number | null;
  stderr: string;
  sessions: [string, string[]][];
}> {
  const list = await recall(["list", "--json", "--limit", "50"]);
  return {
    code: list.code,
    stderr: list.stderr,
    sessions: jsonLines<{ id: string; tags: string[] }>(list.stdout).map((s) => [s.id, s.tags]),
  };
}

let cleanList: [string, string[]][];

beforeAll(async () => {
  agent = makeAgentDir();
  expect((await recall(["index"])).code).toBe(0);
  expect((await recall(["tag", TAGGED, "keepme"])).code).toBe(0);
  clean = keepCleanCache(agent.agentDir, agent.root);
  cacheDir = clean.dir;
  cleanList = (await listed()).sessions;
  expect(JSON.stringify(cleanList)).toContain("keepme");
});
afterAll(() => agent?.cleanup());

describe("a segment file deleted from the depth index", () => {
  for (const extension of ["term", "fast", "idx", "store", "fieldnorm", "pos"]) {
    it(`.${extension}: the first write repairs it, \`--rebuild\` works, doctor names it`, async () => {
      restoreCleanIndex();
      deleteOne(join("index", "depth"), extension);
      const doctor = await recall(["doctor", "--json"]);
      expect(doctor.stdout, "doctor").toMatch(
        new RegExp(`depth/[0-9a-f]+\\.${extension} \\(missing\\)`),
      );

      const tag = await recall(["tag", TAGGED, "afterdamage"]);
      expect(tag.code, tag.stderr).toBe(0);
      expect(tag.stderr.split("\n").filter(Boolean)).toEqual([expect.stringMatching(NOTICE)]);
      const list = await listed();
      expect(list.code).toBe(0);
      expect(list.stderr).toBe("");
      expect(JSON.stringify(list.sessions)).toContain('"afterdamage","keepme"');
      const all = await recall(["search", "quuxtooloutput", "--content", "all", "--json"]);
      expect(all.code, all.stderr).toBe(0);

      restoreCleanIndex();
      deleteOne(join("index", "depth"), extension);
      const rebuild = await recall(["index", "--rebuild", "--json"]);
      expect(rebuild.code, rebuild.stderr).toBe(0);
      expect(jsonLines(rebuild.stdout).at(-1)).toMatchObject({ type: "summary", indexed: 11 });
    });
  }

  it(".pos: a search of every kind of text repairs it", async () => {
    restoreCleanIndex();
    deleteOne(join("index", "depth"), "pos");
    const all = await recall([
      "search",
      "quuxtooloutput",
      "--content",
      "all",
      "--json",
      "--no-sync",
    ]);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stderr.split("\n").filter(Boolean)).toEqual([expect.stringMatching(NOTICE)]);
  });

  it("a sync that finds a change repairs it", async () => {
    restoreCleanIndex();
    deleteOne(join("index", "depth"), "term");
    const folder = join(agent.sessionsDir, "--home-dev-blog--");
    appendFileSync(
      join(folder, readdirSync(folder)[0]!),
      userMessage("zq000001", "zebraquagga appended", Date.parse("2026-10-02T10:00:00Z")),
    );
    const search = await recall(["search", "zebraquagga", "--json"]);
    expect(search.code, search.stderr).toBe(0);
    expect(search.stderr.split("\n").filter(Boolean)).toEqual([expect.stringMatching(NOTICE)]);
  });
});

describe("a .pos deleted from the main index", () => {
  it("the next command rebuilds it with one notice, tags kept", async () => {
    restoreCleanIndex();
    deleteOne("index", "pos");
    const list = await listed();
    expect(list.code, list.stderr).toBe(0);
    expect(list.stderr.split("\n").filter(Boolean)).toEqual([expect.stringMatching(NOTICE)]);
    // Earlier tests tagged a session and appended to another: the same sessions, keepme kept.
    expect(list.sessions.map(([id]) => id).sort()).toEqual(cleanList.map(([id]) => id).sort());
    expect(list.sessions.find(([id]) => id.startsWith(TAGGED))![1]).toContain("keepme");
    const search = await recall(["search", "the", "--json"]);
    expect(search.code, search.stderr).toBe(0);
    expect(search.stderr).toBe("");
  });
});
