/**
 * A message whose time is not a usable time (too large, fractional, a string, null…) must not
 * keep any session out of the index: the message falls back to its entry's time, then the
 * session's, and every other file is indexed as usual.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "../helpers/agent-dir.js";
import { jsonLines, runRecall } from "../helpers/run-cli.js";

let agent: AgentDir;
afterEach(() => agent?.cleanup());

const HEADER_TIME = "2026-11-05T08:00:00.000Z";
const ENTRY_TIME = "2026-11-05T09:30:00.000Z";
const BAD_VALUES: unknown[] = [
  1e20,
  -1e300,
  1.5e300,
  "1e20",
  "not a time",
  null,
  true,
  {},
  [],
  8.64e15 + 1,
];

function sessionWithTimes(word: string, messageTime: unknown, entryTime: unknown): string {
  const header = {
    type: "session",
    version: 3,
    id: `bad-${word}`,
    timestamp: HEADER_TIME,
    cwd: "/home/dev/odd",
  };
  const message = {
    type: "message",
    id: "m1",
    parentId: null,
    timestamp: entryTime,
    message: { role: "user", content: `${word} here`, timestamp: messageTime },
  };
  return `${JSON.stringify(header)}\n${JSON.stringify(message)}\n`;
}

describe("bad timestamps", () => {
  it("never take the other sessions down: each bad value falls back to the entry's time, then the header's", async () => {
    agent = makeAgentDir();
    const folder = join(agent.sessionsDir, "--home-dev-odd--");
    mkdirSync(folder);
    BAD_VALUES.forEach((value, i) => {
      writeFileSync(
        join(folder, `2026-11-05T08-00-00-000Z_msg${i}.jsonl`),
        sessionWithTimes(`msgword${i}`, value, ENTRY_TIME),
      );
      writeFileSync(
        join(folder, `2026-11-05T08-00-00-000Z_both${i}.jsonl`),
        sessionWithTimes(`bothword${i}`, value, value),
      );
    });
    const index = await runRecall(["index", "--json"], { env: agent.env });
    expect(index.stderr).toBe("");
    expect(index.code).toBe(0);
    const summary = jsonLines(index.stdout).find((l) => l.type === "summary");
    expect(summary).toMatchObject({ failed: 0, indexed: 11 + 2 * BAD_VALUES.length });

    for (let i = 0; i < BAD_VALUES.length; i++) {
      for (const [word, expected] of [
        [`msgword${i}`, ENTRY_TIME],
        [`bothword${i}`, HEADER_TIME],
      ] as const) {
        const found = await runRecall(["search", word, "--json", "--no-sync"], { env: agent.env });
        expect(found.code, `${word} (${JSON.stringify(BAD_VALUES[i])})`).toBe(0);
        const [hit] = jsonLines<{ message: { timestamp: string } }>(found.stdout);
        expect(hit!.message.timestamp, `${word} (${JSON.stringify(BAD_VALUES[i])})`).toBe(expected);
      }
    }
    const list = await runRecall(["list", "--json", "--limit", "100"], { env: agent.env });
    expect(list.code).toBe(0);
    const listed = jsonLines<{ id: string }>(list.stdout).map((s) => s.id);
    expect(listed.filter((id) => id.startsWith("bad-"))).toHaveLength(2 * BAD_VALUES.length);
    // The fixture sessions are all still there (the header-only one has nothing to list).
    expect(listed).toHaveLength(10 + 2 * BAD_VALUES.length);
  });

  it("keep a fractional millisecond time, to the millisecond", async () => {
    agent = makeAgentDir();
    const ms = Date.parse("2026-11-06T10:00:00.123Z") + 0.75;
    mkdirSync(join(agent.sessionsDir, "--home-dev-odd--"));
    writeFileSync(
      join(agent.sessionsDir, "--home-dev-odd--", "2026-11-06T10-00-00-000Z_frac.jsonl"),
      sessionWithTimes("fractionword", ms, ENTRY_TIME),
    );
    const found = await runRecall(["search", "fractionword", "--json"], { env: agent.env });
    expect(found.stderr).toBe("");
    expect(jsonLines<{ message: { timestamp: string } }>(found.stdout)[0]!.message.timestamp).toBe(
      "2026-11-06T10:00:00.123Z",
    );
  });

  it("text no JSON encoder could write (a lone surrogate) is indexed all the same, as a replacement character", async () => {
    agent = makeAgentDir();
    const folder = join(agent.sessionsDir, "--home-dev-odd--");
    mkdirSync(folder);
    // Valid JSON for JavaScript; before the change set was typed, the index refused the whole
    // batch.
    writeFileSync(
      join(folder, "2026-11-07T10-00-00-000Z_surrogate.jsonl"),
      sessionWithTimes("surrogateword \ud800", Date.parse(ENTRY_TIME), ENTRY_TIME),
    );
    writeFileSync(
      join(folder, "2026-11-07T11-00-00-000Z_fine.jsonl"),
      sessionWithTimes("fineword", Date.parse(ENTRY_TIME), ENTRY_TIME),
    );
    const index = await runRecall(["index"], { env: agent.env });
    expect(index.code).toBe(0);
    expect(index.stdout).toMatch(/^13 session files: 13 indexed, .* 0 failed/);
    for (const word of ["fineword", "surrogateword"]) {
      const found = await runRecall(["search", word, "--json", "--no-sync"], { env: agent.env });
      expect(found.code).toBe(0);
    }
  });
});
