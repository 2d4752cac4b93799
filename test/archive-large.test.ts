/**
 * One session file too large for a JavaScript string among others, pushed to a real OpenSearch
 * (scripts/opensearch.sh) by a remote that keeps files: it is reported and skipped, and every
 * file after it is still pushed (the push reads files as the sync's consumer, push-sink.ts). The
 * file is sparse: 600 MB of it take no disk. Peak memory on a large session is measured in
 * bench/memory.mjs, not here.
 */
import { appendFileSync, closeSync, mkdirSync, openSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PART_TEXT_CHARS } from "../src/sync/change-stream.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { userMessage } from "./helpers/fixture-files.js";
import {
  engineApi,
  needsOpenSearch,
  openSearchMissing,
  openSearchUrl,
} from "./helpers/opensearch.js";
import { jsonLines, runRecall } from "./helpers/run-cli.js";

const INDEX = "recall-large-test";
const HUGE_ID = "00000000-1111-7222-8333-944445555666";
/** More characters than a JavaScript string may hold (V8: 2^29 - 24). */
const HUGE_BYTES = 600 << 20;

let url = "";
let agent: AgentDir;
let huge = "";

const api = (path: string, init?: { method?: string; body?: unknown }) =>
  engineApi(url, path, init);

async function sessionsIn(index: string): Promise<Set<string>> {
  await api(`/${index}/_refresh`, { method: "POST" });
  const found = await api(`/${index}/_search`, {
    body: { size: 1000, _source: ["session_id"], query: { match_all: {} } },
  });
  return new Set((found.hits?.hits ?? []).map((h: any) => h._source.session_id));
}

describe.skipIf(openSearchMissing)(
  needsOpenSearch("a session file too large for a string, pushed to a real OpenSearch"),
  () => {
    beforeAll(async () => {
      url = await openSearchUrl();
      agent = makeAgentDir();
      // Listed first (the folder sorts before the fixtures'): a header, a line of 600 MB, a
      // message.
      const folder = join(agent.sessionsDir, "--aaa--");
      mkdirSync(folder, { recursive: true });
      huge = join(folder, `2020-01-01T00-00-00-000Z_${HUGE_ID}.jsonl`);
      const at = Date.parse("2020-01-01T00:00:00Z");
      const fd = openSync(huge, "w");
      writeSync(
        fd,
        `${JSON.stringify({ type: "session", version: 3, id: HUGE_ID, timestamp: new Date(at).toISOString(), cwd: "/home/dev/aaa" })}\n`,
      );
      // The hole: bytes never written read as zeros.
      const message = `\n${JSON.stringify({ type: "message", id: "a0000001", parentId: null, timestamp: new Date(at).toISOString(), message: { role: "user", content: "the huge session", timestamp: at } })}\n`;
      writeSync(fd, message, HUGE_BYTES);
      closeSync(fd);
      const added = await runRecall(
        [
          "remote",
          "add",
          "team",
          url,
          "--index",
          INDEX,
          "--keep-files",
          "--machine",
          "laptop",
          "--user",
          "ada",
        ],
        { env: agent.env },
      );
      expect(added.stderr).toBe("");
    }, 300_000);
    afterAll(() => agent?.cleanup());

    it("is reported and skipped, in a dry run and a push, and the files after it still go", async () => {
      const dry = await runRecall(["push", "--remote", "team", "--dry-run", "--json"], {
        env: agent.env,
      });
      expect(dry.stderr.trim().split("\n")).toEqual([
        expect.stringMatching(
          new RegExp(
            `^recall: ${huge}: too large to keep in remote team \\(601 MB; at most 48 MB\\)$`,
          ),
        ),
      ]);
      expect(dry.code).toBe(2);
      const drySummary = jsonLines(dry.stdout).at(-1)!;
      expect(drySummary.sessions).toBeGreaterThan(5);

      const push = await runRecall(["push", "--remote", "team", "--json"], { env: agent.env });
      expect(push.stderr.trim().split("\n")).toEqual([
        expect.stringMatching(/too large to keep in remote team/),
      ]);
      expect(push.code).toBe(2);
      const summary = jsonLines(push.stdout).at(-1)!;
      expect(summary).toMatchObject({
        sessions: drySummary.sessions,
        messages: drySummary.messages,
        failed: [{ path: huge, reason: expect.stringMatching(/too large to keep/) }],
      });
      // Every other session is in the archive, and kept; the huge one's message went, its file did
      // not.
      const archived = await sessionsIn(INDEX);
      const kept = await sessionsIn(`${INDEX}-files`);
      expect(archived.size).toBeGreaterThan(5);
      expect(archived).toContain(HUGE_ID);
      expect(kept).not.toContain(HUGE_ID);
      expect([...archived].filter((id) => id !== HUGE_ID && !kept.has(id))).toEqual([]);
    });

    it("a session longer than a read's part is pushed in parts as one piece: every message once, its name's secret counted once", async () => {
      const id = "0b0b0b0b-1111-7222-8333-944445555666";
      const folder = join(agent.sessionsDir, "--zzz--");
      mkdirSync(folder, { recursive: true });
      const file = join(folder, `2026-10-20T00-00-00-000Z_${id}.jsonl`);
      const at = Date.parse("2026-10-20T00:00:00Z");
      const token = `${"ghp_"}${"Qw3rTy9Zx7".repeat(4).slice(0, 36)}`;
      const assistant = (entry: string, text: string, ms: number) =>
        `${JSON.stringify({ type: "message", id: entry, parentId: null, timestamp: new Date(ms).toISOString(), message: { role: "assistant", content: [{ type: "text", text }], timestamp: ms } })}\n`;
      let text = `${JSON.stringify({ type: "session", version: 3, id, timestamp: new Date(at).toISOString(), cwd: "/home/dev/zzz" })}\n`;
      text += `${JSON.stringify({ type: "session_info", id: "n0000001", parentId: null, timestamp: new Date(at).toISOString(), name: `deploy with ${token}` })}\n`;
      // Users and assistants in turn (none joined), 40,000 characters each: two parts and more.
      const MESSAGES = Math.ceil((2.5 * PART_TEXT_CHARS) / 40_000);
      for (let m = 0; m < MESSAGES; m++) {
        const body = `marker${m}x ${"puffin colony survey notes ".repeat(1_480)}`;
        text +=
          m % 2 === 0
            ? userMessage(`m${String(m).padStart(7, "0")}`, body, at + m * 1000)
            : assistant(`m${String(m).padStart(7, "0")}`, body, at + m * 1000);
      }
      writeFileSync(file, text);
      const push = await runRecall(
        ["push", "--remote", "team", "--json", "--cwd", "/home/dev/zzz"],
        { env: agent.env },
      );
      expect(push.stderr).toBe("");
      expect(jsonLines(push.stdout).at(-1)).toMatchObject({
        sessions: 1,
        messages: MESSAGES,
        failed: [],
        redactedIn: { "session-name": { "github-token": 1 } },
      });
      const documents = async () => {
        await api(`/${INDEX}/_refresh`, { method: "POST" });
        const found = await api(`/${INDEX}/_search`, {
          body: {
            size: 1000,
            _source: ["position", "session_name"],
            query: { term: { session_id: id } },
          },
        });
        return found.hits.hits.map((h: any) => [h._id, h._source]) as [
          string,
          { position: number; session_name: string },
        ][];
      };
      const first = await documents();
      expect(first.map(([, d]) => d.position).sort((a, b) => a - b)).toEqual(
        Array.from({ length: MESSAGES }, (_, m) => m),
      );
      expect(new Set(first.map(([, d]) => d.session_name))).toEqual(
        new Set(["deploy with [REDACTED:github-token]"]),
      );

      // An append is read from the last message on, as the index reads it; nothing else is sent
      // again.
      appendFileSync(file, userMessage("m9999999", "one more puffin", at + MESSAGES * 1000));
      const appended = await runRecall(
        ["push", "--remote", "team", "--json", "--cwd", "/home/dev/zzz"],
        { env: agent.env },
      );
      expect(jsonLines(appended.stdout).at(-1)).toMatchObject({
        sessions: 1,
        messages: 2,
        deleted: 0,
        failed: [],
      });
      expect((await documents()).length).toBe(MESSAGES + 1);
    });
  },
);
