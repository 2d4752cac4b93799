/**
 * `recall stats` on real session files through the built CLI: the fixture sessions, and a made
 * session with recorded usage and cost on two models and two days, its fork (whose copies of the
 * parent's messages count once), a window, the busiest files, --json's records, and the errors.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { jsonLines, runRecall } from "./helpers/run-cli.js";

let agent: AgentDir;
const recall = (args: string[]) => runRecall(args, { env: { ...agent.env, TZ: "UTC" } });

const PARENT_ID = "0f000000-0000-7000-8000-0000000000a1";
const FORK_ID = "0f000000-0000-7000-8000-0000000000a2";
const FOLDER = "/home/dev/costly";

const usage = (input: number, output: number, cost: number) => ({
  input,
  output,
  cacheRead: 10,
  cacheWrite: 5,
  totalTokens: input + output + 15,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: cost },
});
const user = (id: string, parentId: string | null, at: string, text: string) =>
  JSON.stringify({
    type: "message",
    id,
    parentId,
    timestamp: at,
    message: { role: "user", content: text, timestamp: at },
  });
const reply = (
  id: string,
  parentId: string,
  at: string,
  model: string,
  u: ReturnType<typeof usage>,
  path?: string,
) =>
  JSON.stringify({
    type: "message",
    id,
    parentId,
    timestamp: at,
    message: {
      role: "assistant",
      provider: "acme",
      model,
      usage: u,
      stopReason: "stop",
      timestamp: at,
      content: [
        { type: "text", text: "ok" },
        ...(path ? [{ type: "toolCall", id: `c-${id}`, name: "read", arguments: { path } }] : []),
      ],
    },
  });

/**
 * Two days: day 1 a user message and a `big` reply reading src/a.ts; day 2 a user message and a
 * `small` reply reading it again.
 */
const parentEntries = [
  user("p1", null, "2026-12-01T10:00:00.000Z", "first"),
  reply("p2", "p1", "2026-12-01T10:01:00.000Z", "big", usage(100, 50, 0.25), "src/a.ts"),
  user("p3", "p2", "2026-12-02T10:00:00.000Z", "second"),
  reply("p4", "p3", "2026-12-02T10:01:00.000Z", "small", usage(20, 10, 0.01), "src/a.ts"),
];

beforeAll(() => {
  agent = makeAgentDir();
  const folder = join(agent.sessionsDir, "--home-dev-costly--");
  mkdirSync(folder);
  const parentPath = join(folder, `2026-12-01T10-00-00-000Z_${PARENT_ID}.jsonl`);
  writeFileSync(
    parentPath,
    [
      JSON.stringify({
        type: "session",
        version: 3,
        id: PARENT_ID,
        timestamp: "2026-12-01T10:00:00.000Z",
        cwd: FOLDER,
      }),
      ...parentEntries,
    ].join("\n") + "\n",
  );
  // The fork copies the parent's entries (their times too), then goes on: one reply of its own,
  // writing src/b.ts.
  writeFileSync(
    join(folder, `2026-12-03T10-00-00-000Z_${FORK_ID}.jsonl`),
    [
      JSON.stringify({
        type: "session",
        version: 3,
        id: FORK_ID,
        timestamp: "2026-12-03T10:00:00.000Z",
        cwd: FOLDER,
        parentSession: parentPath,
      }),
      ...parentEntries,
      reply("f1", "p4", "2026-12-03T10:01:00.000Z", "big", usage(1000, 500, 2.5), "src/b.ts"),
    ].join("\n") + "\n",
  );
});
afterAll(() => agent.cleanup());

type Row = Record<string, string | number>;

describe("recall stats --json", () => {
  let records: Row[];
  beforeAll(async () => {
    const result = await recall(["stats", "--json", "--since", "2026-12-01"]);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    records = jsonLines<Row>(result.stdout);
  });
  const of = (type: string) => records.filter((r) => r.type === type);

  it("by day: messages, sessions, tokens and cost as recorded; a fork's copies count once, in the parent", () => {
    expect(of("day")).toEqual([
      {
        type: "day",
        day: "2026-12-01",
        sessions: 1,
        messages: 2,
        input: 100,
        output: 50,
        cacheRead: 10,
        cacheWrite: 5,
        tokens: 165,
        cost: 0.25,
      },
      {
        type: "day",
        day: "2026-12-02",
        sessions: 1,
        messages: 2,
        input: 20,
        output: 10,
        cacheRead: 10,
        cacheWrite: 5,
        tokens: 45,
        cost: 0.01,
      },
      {
        type: "day",
        day: "2026-12-03",
        sessions: 1,
        messages: 1,
        input: 1000,
        output: 500,
        cacheRead: 10,
        cacheWrite: 5,
        tokens: 1515,
        cost: 2.5,
      },
    ]);
  });

  it("by model, by project, the busiest files, then the totals", () => {
    expect(of("model").map((m) => [m.model, m.sessions, m.messages, m.cost])).toEqual([
      ["acme/big", 2, 2, 2.75],
      ["acme/small", 1, 1, 0.01],
    ]);
    expect(of("project")).toEqual([
      {
        type: "project",
        project: FOLDER,
        sessions: 2,
        messages: 5,
        input: 1120,
        output: 560,
        cacheRead: 30,
        cacheWrite: 15,
        tokens: 1725,
        cost: 2.76,
      },
    ]);
    expect(of("file")).toEqual([
      { type: "file", path: `${FOLDER}/src/a.ts`, calls: 2, sessions: 1 },
      { type: "file", path: `${FOLDER}/src/b.ts`, calls: 1, sessions: 1 },
    ]);
    expect(records[records.length - 1]).toEqual({
      type: "totals",
      unreadable: 0,
      sessions: 2,
      messages: 5,
      input: 1120,
      output: 560,
      cacheRead: 30,
      cacheWrite: 15,
      tokens: 1725,
      cost: 2.76,
    });
  });
});

describe("recall stats", () => {
  it("over the fixtures: the totals are the sums of the days, and of the projects", async () => {
    const records = jsonLines<Row>(
      (await recall(["stats", "--json", "--until", "2026-11-01"])).stdout,
    );
    const totals = records.find((r) => r.type === "totals")!;
    const sum = (type: string, field: string) =>
      records.filter((r) => r.type === type).reduce((s, r) => s + (r[field] as number), 0);
    expect(totals.messages).toBeGreaterThan(20);
    for (const field of ["messages", "tokens"]) {
      expect(sum("day", field)).toBe(totals[field]);
      expect(sum("project", field)).toBe(totals[field]);
    }
    expect(records.filter((r) => r.type === "project").map((r) => r.project)).toEqual(
      expect.arrayContaining(["/home/dev/shop-api", "/home/dev/infra", "/home/dev/blog"]),
    );
  });

  it("a table per grouping for a person, and the totals line", async () => {
    const result = await recall(["stats", "--since", "2026-12-01", "--files", "1"]);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(result.stdout).toMatch(
      /^day +sessions +messages +tokens +cost\n2026-12-01 +1 +2 +165 +0\.2500\n/,
    );
    expect(result.stdout).toMatch(/\nacme\/big +2 +2 +1,680 +2\.75\n/);
    expect(result.stdout).toMatch(
      /\nfile +calls +sessions\n\/home\/dev\/costly\/src\/a\.ts +2 +1\n\n/,
    );
    expect(result.stdout.trimEnd().split("\n").pop()).toBe(
      "2 sessions, 5 messages, 1,725 tokens, cost 2.76",
    );
  });

  it("nothing in the window: exit 1 with a line; bad input: exit 2 with one line", async () => {
    const empty = await recall(["stats", "--since", "2030-01-01"]);
    expect(empty).toMatchObject({ code: 1, stdout: "" });
    expect(empty.stderr).toMatch(/no message in that window/);
    for (const args of [
      ["stats", "--files", "-1"],
      ["stats", "--since", "someday"],
    ]) {
      const bad = await recall(args);
      expect(bad.code).toBe(2);
      expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    }
  });
});
