/**
 * `recall index` names each file with malformed lines, and the lines, instead of only counting
 * them.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "../helpers/agent-dir.js";
import { FIXTURE_FILES } from "../helpers/fixture-files.js";
import { jsonLines, runRecall } from "../helpers/run-cli.js";

let agent: AgentDir;
afterEach(() => agent?.cleanup());

const header = JSON.stringify({
  type: "session",
  version: 3,
  id: "garbled",
  timestamp: "2026-11-05T08:00:00.000Z",
  cwd: "/home/dev/odd",
});
const message = (word: string) =>
  JSON.stringify({
    type: "message",
    id: word,
    parentId: null,
    timestamp: "2026-11-05T08:01:00.000Z",
    message: { role: "user", content: word },
  });

function writeGarbled(lines: string[]): string {
  const folder = join(agent.sessionsDir, "--home-dev-odd--");
  mkdirSync(folder, { recursive: true });
  const path = join(folder, "2026-11-05T08-00-00-000Z_garbled.jsonl");
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

describe("malformed lines", () => {
  it("are named by file and line on stderr, and as one JSON line each with --json", async () => {
    agent = makeAgentDir();
    const garbled = writeGarbled([
      header,
      message("firstgoodword"),
      "{not json",
      "[1, 2]",
      message("secondgoodword"),
      '"just a string"',
    ]);
    const corrupt = FIXTURE_FILES.corrupt.replace(/^.*\/sessions\//, `${agent.sessionsDir}/`);

    const human = await runRecall(["index"], { env: agent.env });
    expect(human.code).toBe(0);
    const stderr = human.stderr.split("\n").filter(Boolean);
    expect(stderr).toContain(
      `recall: ${garbled}: skipped malformed lines 3 (not JSON), 4 (not a JSON object), 6 (not a JSON object)`,
    );
    expect(stderr).toContain(
      `recall: ${corrupt}: skipped malformed lines 5 (several JSON objects on one line), 8 (not JSON)`,
    );
    expect(stderr).toContain("recall: skipped 5 malformed lines");

    const json = await runRecall(["index", "--rebuild", "--json"], { env: agent.env });
    expect(json.code).toBe(0);
    const lines = jsonLines(json.stdout);
    expect(lines.filter((l) => l.type === "malformed" && l.path === garbled)).toEqual([
      { type: "malformed", path: garbled, line: 3, reason: "not JSON" },
      { type: "malformed", path: garbled, line: 4, reason: "not a JSON object" },
      { type: "malformed", path: garbled, line: 6, reason: "not a JSON object" },
    ]);
    expect(lines.filter((l) => l.type === "malformed" && l.path === corrupt)).toHaveLength(2);
    expect(lines.at(-1)).toMatchObject({ type: "summary", malformedLines: 5 });
    // The good lines around them are indexed.
    for (const word of ["firstgoodword", "secondgoodword"]) {
      expect(
        (await runRecall(["search", word, "--no-sync", "--json"], { env: agent.env })).code,
      ).toBe(0);
    }
  });

  it("a line of two objects run together is skipped and named, as Pi drops it: neither object is indexed", async () => {
    agent = makeAgentDir({ withFixtures: false });
    const garbled = writeGarbled([
      header,
      message("keptbeforeword"),
      message("firsthalfword") + message("secondhalfword"),
      message("keptafterword"),
    ]);
    const json = await runRecall(["index", "--json"], { env: agent.env });
    expect(json.code).toBe(0);
    const lines = jsonLines(json.stdout);
    expect(lines.filter((l) => l.type === "malformed")).toEqual([
      { type: "malformed", path: garbled, line: 3, reason: "several JSON objects on one line" },
    ]);
    expect(lines.at(-1)).toMatchObject({ type: "summary", malformedLines: 1 });
    for (const word of ["keptbeforeword", "keptafterword"])
      expect((await runRecall(["search", word, "--no-sync"], { env: agent.env })).code).toBe(0);
    for (const word of ["firsthalfword", "secondhalfword"])
      expect((await runRecall(["search", word, "--no-sync"], { env: agent.env })).code).toBe(1);
    const read = await runRecall(["read", garbled, "--all-branches"], { env: agent.env });
    expect(read.stdout).toContain("keptafterword");
    expect(read.stdout).not.toMatch(/firsthalfword|secondhalfword/);
  });

  it("a file of garbage gets one line on stderr, with a count of the lines not named", async () => {
    agent = makeAgentDir({ withFixtures: false });
    const garbled = writeGarbled([
      header,
      ...Array.from({ length: 300 }, (_, i) => `garbage ${i}`),
    ]);
    const human = await runRecall(["index"], { env: agent.env });
    expect(human.stderr.split("\n").filter(Boolean)).toEqual([
      `recall: ${garbled}: skipped malformed lines 2 (not JSON), 3 (not JSON), 4 (not JSON), 5 (not JSON), 6 (not JSON) and 295 more`,
      "recall: skipped 300 malformed lines",
    ]);
    const json = await runRecall(["index", "--rebuild", "--json"], { env: agent.env });
    const malformed = jsonLines(json.stdout).filter((l) => l.type === "malformed");
    // At most 100 per file: the summary keeps the full count.
    expect(malformed).toHaveLength(100);
    expect(jsonLines(json.stdout).at(-1)).toMatchObject({ malformedLines: 300 });
  });
});
