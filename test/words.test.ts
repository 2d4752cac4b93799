// What a word is, through the recall command: Chinese, Japanese and Korean text found by two or
// more characters in a row (and marked as found), session names found like tags, a prefix that
// reaches tags, and query words that start with a dash.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { jsonLines, runRecall } from "./helpers/run-cli.js";

let agent: AgentDir;
const recall = (...args: string[]) => runRecall(args, { env: agent.env });
const S1_ID = "01a0f6b1-2680-79e3-a1fa-30b6f0582ef5";
const S1_NAME = "Fix staging deploy: readiness probe and nginx ingress";
const S1_FORK_ID = "01a0f71f-0380-71ce-a5f6-9af2c7be0ad4";

/** Writes a Pi session file with one user message per text, and a session name if given. */
function writeSession(id: string, texts: string[], name?: string): void {
  const start = Date.parse("2026-10-05T10:00:00Z");
  const lines: object[] = [
    {
      type: "session",
      version: 3,
      id,
      timestamp: new Date(start).toISOString(),
      cwd: "/home/dev/words",
    },
  ];
  let parentId: string | null = null;
  texts.forEach((text, i) => {
    const ms = start + (i + 1) * 1000;
    const entryId = `${id.slice(0, 4)}${String(i).padStart(4, "0")}`;
    lines.push({
      type: "message",
      id: entryId,
      parentId,
      timestamp: new Date(ms).toISOString(),
      message: {
        role: i % 2 ? "assistant" : "user",
        content: [{ type: "text", text }],
        timestamp: ms,
      },
    });
    parentId = entryId;
  });
  if (name)
    lines.push({
      type: "session_info",
      id: `${id.slice(0, 4)}name`,
      parentId,
      timestamp: new Date(start + 60_000).toISOString(),
      name,
    });
  writeFileSync(
    join(agent.sessionsDir, "--home-dev-words--", `2026-10-05T10-00-00-000Z_${id}.jsonl`),
    lines.map((l) => JSON.stringify(l)).join("\n") + "\n",
  );
}

const JA = "0a000000-0000-7000-8000-000000000001";
const ZH = "0a000000-0000-7000-8000-000000000002";
const KO = "0a000000-0000-7000-8000-000000000003";
const ZEBRA = "0a000000-0000-7000-8000-000000000004";
const VAULT = "0a000000-0000-7000-8000-000000000005";
const CHATTY = "0a000000-0000-7000-8000-000000000006";

beforeAll(async () => {
  agent = makeAgentDir();
  mkdirSync(join(agent.sessionsDir, "--home-dev-words--"));
  writeSession(JA, [
    "設定ファイルの読み込みが失敗します",
    "東京サーバーの設定ファイルを直しました",
  ]);
  writeSession(ZH, ["我们在北京部署了新的服务器", "部署完成了"]);
  writeSession(KO, ["서울에서 배포를 확인했습니다", "좋습니다"]);
  writeSession(
    ZEBRA,
    ["we went through the numbers", "the numbers add up"],
    "Quarterly zebra audit",
  );
  writeSession(VAULT, ["the cron job failed again", "fixed the schedule"], "Rotate vault tokens");
  writeSession(CHATTY, [
    "the vault is sealed; rotate it?",
    "tokens expire weekly, tokens are in the vault",
  ]);
  expect((await recall("index")).code).toBe(0);
  expect((await recall("tag", ZEBRA, "codebase")).code).toBe(0);
});
afterAll(() => agent.cleanup());

const ids = (stdout: string) => jsonLines<{ id: string }>(stdout).map((hit) => hit.id);

describe("Chinese, Japanese and Korean text", () => {
  it.each([
    ["日本", "01a0f755-f200-7250-a372-48336bf4923d", "日本"],
    ["設定ファイル", JA, "設定ファイル"],
    ["北京", ZH, "北京"],
    ["部署了", ZH, "部署了"],
    ["서울", KO, "서울"],
  ])(
    "`%s` finds the session whose text holds it, and marks it in the snippet",
    async (query, id, mark) => {
      const result = await recall("search", "--json", query);
      expect(result.code, result.stderr).toBe(0);
      const [hit] = jsonLines<{ id: string; snippet: string; spans: [number, number][] }>(
        result.stdout,
      );
      expect(hit!.id).toBe(id);
      const bytes = Buffer.from(hit!.snippet);
      expect(hit!.spans.map(([s, e]) => bytes.subarray(s, e).toString())).toEqual([mark]);
    },
  );

  it("marks the same characters in a session's text as the picker's preview does", async () => {
    const read = await recall("read", "--color", "always", "--highlight", "設定ファイル", JA);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).toContain("\x1b[1m\x1b[31m設定ファイル\x1b[39m\x1b[22m");
  });

  it("leaves Latin words whole", async () => {
    expect(ids((await recall("search", "--json", "readiness")).stdout)).toContain(S1_ID);
    expect((await recall("search", "--json", "readin")).code).toBe(1);
  });
});

describe("session names", () => {
  // The seed kept names out of search; recall deliberately searches them, weighted like tags.
  it("finds a session by a word of its name only", async () => {
    expect(ids((await recall("search", "--json", "zebra")).stdout)).toEqual([ZEBRA]);
  });

  it("ranks a session first for its own name", async () => {
    expect(ids((await recall("search", "--json", "Rotate vault tokens")).stdout)[0]).toBe(VAULT);
    // The fixture's fork of S1 carries S1's name too: the two lead.
    expect(new Set(ids((await recall("search", "--json", S1_NAME)).stdout).slice(0, 2))).toEqual(
      new Set([S1_ID, S1_FORK_ID]),
    );
  });
});

describe("--prefix", () => {
  it("reaches tag text: `codeba` finds a session tagged #codebase", async () => {
    expect(ids((await recall("search", "--json", "--prefix", "codeba")).stdout)).toEqual([ZEBRA]);
    expect((await recall("search", "--json", "codeba")).code).toBe(1);
  });
});

describe("a query that starts with a dash", () => {
  // Both parsers get the same line (test/quick-parse.test.ts); this is the command as run.
  it("is a query, not an unknown option", async () => {
    const words = await recall("search", "-#nosuchtag", "staging", "--json");
    expect(words.code, words.stderr).toBe(0);
    expect(ids(words.stdout)[0]).toBe(S1_ID);
    const dash = await recall("search", "-x");
    expect([0, 1], dash.stderr).toContain(dash.code);
    expect(dash.stderr).not.toMatch(/unknown|invalid option/);
    const tagged = await recall("search", "-#codebase", "numbers", "--json");
    expect(ids(tagged.stdout)).not.toContain(ZEBRA);
    expect(ids((await recall("search", "numbers", "--json")).stdout)).toContain(ZEBRA);
  });

  it("keeps options before or after the words, `--`, and the errors of mistyped long options", async () => {
    expect(ids((await recall("search", "--json", "staging", "--limit", "1")).stdout)).toEqual([
      S1_ID,
    ]);
    const ended = await recall("search", "--", "--json");
    expect(ended.code).toBe(1);
    expect(ended.stderr).toMatch(/no session matches "--json"/);
    const typo = await recall("search", "--limt", "1", "staging");
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/^recall: /);
    const help = await recall("search", "-h");
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/search/);
  });
});
