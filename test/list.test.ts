import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionSummary } from "../src/answers/session-summary.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { jsonLines, runRecall } from "./helpers/run-cli.js";

let agent: AgentDir;
beforeAll(() => {
  agent = makeAgentDir();
  // Date-only bounds are local midnights: pin the zone so they mean the same everywhere.
  agent.env.TZ = "UTC";
});
afterAll(() => agent.cleanup());

const recall = (...args: string[]) => runRecall(args, { env: agent.env });
const listIds = async (...args: string[]) =>
  jsonLines<SessionSummary>((await recall("list", "--json", ...args)).stdout).map((s) => s.id);
const searchIds = async (...args: string[]) =>
  jsonLines<{ id: string }>((await recall("search", "--json", ...args)).stdout).map((s) => s.id);

const ID = {
  v1: "421f595e-0a03-4c2f-9f1d-25f1dc156710",
  v2: "2d9abfc1-ce2a-46a6-a446-f9bb2819c0a3",
  s1: "01a0f6b1-2680-79e3-a1fa-30b6f0582ef5",
  s2: "01a0f6e8-1500-7a6b-ad20-694247f75ec3",
  s3: "01a0f71f-0380-71ce-a5f6-9af2c7be0ad4",
  s4: "01a0f755-f200-7250-a372-48336bf4923d",
  s5: "01a0f78c-e080-7f28-af10-ffa76e6bae4c",
  corrupt: "01a0f831-ac00-74bc-a342-d9db8ae256fe",
  noHeader: "01a0f868-9a80-781f-b021-c1b2df97e78b",
  unknownType: "01a0f89f-8900-7c35-8cbf-ea1052d39058",
};
const NEWEST_FIRST = [
  ID.unknownType,
  ID.noHeader,
  ID.corrupt,
  ID.s5,
  ID.s4,
  ID.s3,
  ID.s2,
  ID.s1,
  ID.v2,
  ID.v1,
];

/** A session in a folder that exists, with one exchange at `ms`. */
function writeSession(dir: AgentDir, id: string, cwd: string, ms: number, words: string): string {
  const folder = join(dir.sessionsDir, "--extra--");
  mkdirSync(folder, { recursive: true });
  const at = new Date(ms).toISOString();
  const path = join(folder, `${at.replace(/[:.]/g, "-")}_${id}.jsonl`);
  const lines = [
    { type: "session", version: 3, id, timestamp: at, cwd },
    {
      type: "message",
      id: "u1",
      parentId: null,
      timestamp: at,
      message: { role: "user", content: `question about ${words}`, timestamp: ms },
    },
    {
      type: "message",
      id: "a1",
      parentId: "u1",
      timestamp: at,
      message: {
        role: "assistant",
        content: [{ type: "text", text: `answer about ${words}` }],
        timestamp: ms,
      },
    },
  ];
  writeFileSync(path, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
  return path;
}

describe("recall list", () => {
  it("lists every session with messages, most recently active first, in the documented shape", async () => {
    const result = await recall("list", "--json");
    expect(result.code).toBe(0);
    const sessions = jsonLines<SessionSummary>(result.stdout);
    expect(sessions.map((s) => s.id)).toEqual(NEWEST_FIRST);
    expect(sessions.find((s) => s.id === ID.s2)).toEqual({
      id: ID.s2,
      path: join(
        agent.sessionsDir,
        "--home-dev-shop-api--/2026-10-01T10-00-00-000Z_01a0f6e8-1500-7a6b-ad20-694247f75ec3.jsonl",
      ),
      cwd: "/home/dev/shop-api",
      // No such folder here: the folder is its own project.
      project: "/home/dev/shop-api",
      name: "Payments chart: helm vs kustomize",
      created: "2026-10-01T10:00:00.000Z",
      modified: expect.stringMatching(/^2026-10-01T10:03:/),
      messageCount: 8,
      firstMessage: "Should we pin the helm chart version for the payments service?",
      parent: null,
      tags: [],
    });
    const modified = sessions.map((s) => Date.parse(s.modified));
    expect([...modified].sort((a, b) => b - a)).toEqual(modified);
  });

  it("prints a title, details and path per session for a person, and honours --limit", async () => {
    const result = await recall("list", "-n", "2");
    expect(result.code).toBe(0);
    const blocks = result.stdout.trim().split("\n\n");
    expect(blocks).toHaveLength(2);
    expect(blocks[0]).toMatch(
      /^beforemodechangeword: what does the database migration touch\?\n {2}infra · .* ago · 4 messages · 01a0f89f-8900-7c35-8cbf-ea1052d39058\n {2}\/.*01a0f89f-8900-7c35-8cbf-ea1052d39058\.jsonl$/,
    );
  });

  it("keeps one folder's sessions with --cwd, and the current folder's with --here", async () => {
    expect(await listIds("--cwd", "/home/dev/blog")).toEqual([ID.corrupt, ID.s4, ID.v2]);
    const own = makeAgentDir({ withFixtures: false });
    try {
      const project = join(own.root, "project");
      mkdirSync(project);
      writeSession(own, "here-session", project, Date.parse("2026-10-02T08:00:00Z"), "herewords");
      writeSession(
        own,
        "elsewhere-session",
        join(own.root, "elsewhere"),
        Date.parse("2026-10-02T09:00:00Z"),
        "otherwords",
      );
      const here = await runRecall(["list", "--here", "--json"], { env: own.env, cwd: project });
      expect(jsonLines<SessionSummary>(here.stdout).map((s) => s.id)).toEqual(["here-session"]);
    } finally {
      own.cleanup();
    }
  });

  it("says so, with exit 1, when nothing is listed", async () => {
    const result = await recall("list", "--cwd", "/home/dev/nothing-here");
    expect(result).toMatchObject({ code: 1, stdout: "" });
    expect(result.stderr).toBe("recall: no session in /home/dev/nothing-here\n");
    const json = await recall("list", "--json", "--since", "2030-01-01");
    expect(json).toMatchObject({ code: 1, stdout: "", stderr: "" });
  });
});

describe("time filters", () => {
  it("keep sessions by their last activity in list: date-times, dates, and both bounds", async () => {
    expect(await listIds("--since", "2026-10-01T12:30:00Z")).toEqual([
      ID.unknownType,
      ID.noHeader,
      ID.corrupt,
      ID.s5,
    ]);
    expect(await listIds("--until", "2026-09-30T00:00:00Z")).toEqual([ID.v2, ID.v1]);
    expect(await listIds("--since", "2026-09-05", "--until", "2026-09-30")).toEqual([ID.v2]);
  });

  it("apply inside the index query, before --limit picks the top", async () => {
    expect(await listIds("--limit", "1", "--until", "2026-09-30T00:00:00Z")).toEqual([ID.v2]);
    const all = await searchIds("kubectl");
    expect(all).toEqual(expect.arrayContaining([ID.s1, ID.v1]));
    expect(await searchIds("kubectl", "--limit", "1", "--until", "2026-09-15T00:00:00Z")).toEqual([
      ID.v1,
    ]);
    const since = await searchIds("kubectl", "--since", "2026-09-15T00:00:00Z");
    expect(since).toContain(ID.s1);
    expect(since).not.toContain(ID.v1);
  });

  it("understand relative times, and filter search by the time of the matching message", async () => {
    const own = makeAgentDir();
    try {
      const now = Date.now();
      // An hour ago, but never before today's midnight (local time), so that "--until yesterday"
      // leaves it out at any hour this runs.
      const today = new Date(now).setHours(0, 0, 0, 0);
      writeSession(
        own,
        "fresh-session",
        "/home/dev/fresh",
        Math.max(now - 3600e3, today),
        "freshword payments",
      );
      const ids = async (...args: string[]) =>
        jsonLines<{ id: string }>(
          (await runRecall([...args, "--json"], { env: own.env })).stdout,
        ).map((s) => s.id);
      // Every fixture is from 2026-10-01 or before: more than two weeks old on any clock this runs
      // on.
      expect(now - Date.parse("2026-10-01T19:00:00Z")).toBeGreaterThan(14 * 24 * 3600e3);
      expect(await ids("list", "--since", "24h")).toEqual(["fresh-session"]);
      expect(await ids("list", "--since", "2w")).toEqual(["fresh-session"]);
      expect(await ids("list", "--until", "7d")).toEqual(expect.arrayContaining(NEWEST_FIRST));
      expect(await ids("list", "--until", "7d")).not.toContain("fresh-session");
      // "payments" is in the fresh session and in S2; only the fresh message is recent.
      expect(await ids("search", "payments")).toEqual(
        expect.arrayContaining(["fresh-session", ID.s2]),
      );
      expect(await ids("search", "payments", "--since", "24h")).toEqual(["fresh-session"]);
      expect(await ids("search", "payments", "--until", "yesterday")).not.toContain(
        "fresh-session",
      );
    } finally {
      own.cleanup();
    }
  });

  it("refuse a time they cannot read", async () => {
    for (const command of ["list", "search"]) {
      const result = await recall(
        command,
        "--since",
        "last tuesday",
        ...(command === "search" ? ["x"] : []),
      );
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/cannot read the time "last tuesday"/);
    }
  });
});
