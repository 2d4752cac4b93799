/**
 * Related sessions (`recall related`, `Recall.related`, pi_session_related, the `recall` tool's
 * related action and the picker's Ctrl+R) over a real index of real session files: the fixture
 * sessions, and pairs of sessions on one topic written beside them. With the model package, the
 * same by meaning: a session that shares no distinctive word with another but is about the same
 * thing is related to it by meaning alone.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Recall, type SearchHit } from "../src/index.js";
import { runRecallTool } from "../src/pi/tool.js";
import { handleKey, initialState, searchRequest, withResults } from "../src/pi/picker/state.js";
import { plainTheme, renderPicker } from "../src/pi/picker/render.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { MODEL_PACKAGE, MODEL_SKIP_REASON } from "./helpers/model-package.js";
import { jsonLines, runRecall } from "./helpers/run-cli.js";

const ID = {
  flakyA: "0b1e000a-0000-7000-8000-00000000000a",
  flakyB: "0b1e000b-0000-7000-8000-00000000000b",
  deployA: "0b1e000c-0000-7000-8000-00000000000c",
  deployB: "0b1e000d-0000-7000-8000-00000000000d",
  unique: "0b1e000e-0000-7000-8000-00000000000e",
  clockA: "0b1e000f-0000-7000-8000-00000000000f",
} as const;

/** A Pi session file: a header, then user and assistant messages in turn. */
function writeSession(dir: AgentDir, id: string, cwd: string, texts: string[]): string {
  const folder = join(dir.sessionsDir, `-${cwd.replace(/\//g, "-")}--`);
  mkdirSync(folder, { recursive: true });
  const at = "2026-10-02T08:00:00.000Z";
  const path = join(folder, `2026-10-02T08-00-00-000Z_${id}.jsonl`);
  const lines: object[] = [{ type: "session", version: 3, id, timestamp: at, cwd }];
  texts.forEach((text, n) => {
    const role = n % 2 === 0 ? "user" : "assistant";
    const content = role === "user" ? text : [{ type: "text", text }];
    lines.push({
      type: "message",
      id: `m${n}`,
      parentId: n === 0 ? null : `m${n - 1}`,
      timestamp: at,
      message: { role, content, timestamp: Date.parse(at) },
    });
  });
  writeFileSync(path, lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
  return path;
}

let agent: AgentDir;
let paths: Record<keyof typeof ID, string>;
beforeAll(() => {
  agent = makeAgentDir();
  paths = {
    flakyA: writeSession(agent, ID.flakyA, "/home/dev/web", [
      "The login spec is flaky on CI again",
      "It fails when the clock passes midnight: the spec should use fake timers",
      "Switched the spec to vitest fake timers; the flaky failure is gone",
    ]),
    flakyB: writeSession(agent, ID.flakyB, "/home/dev/app", [
      "Another flaky spec: the session expiry test fails at random",
      "Freeze the clock with vitest fake timers so the expiry spec stops being flaky",
    ]),
    deployA: writeSession(agent, ID.deployA, "/home/dev/web", [
      "The canary rollout of the payments worker stalls",
      "The canary weight never moves past ten percent because the rollout analysis fails",
    ]),
    deployB: writeSession(agent, ID.deployB, "/home/dev/app", [
      "Why does the canary rollout analysis fail for the worker?",
      "The analysis template queries a metric the worker no longer exports, so the canary stalls",
    ]),
    unique: writeSession(agent, ID.unique, "/home/dev/web", [
      "zorblaxian quintessorium",
      "the zorblaxian of it",
    ]),
    // flakyA's story in other words: no distinctive word of its own is another session's.
    clockA: writeSession(agent, ID.clockA, "/home/dev/api", [
      "Our nightly build breaks now and then around twelve at night",
      "A date comparison in that check depends on the wall time; mock the time source so it stays put",
    ]),
  };
});
afterAll(() => agent.cleanup());

const recall = (...args: string[]) => runRecall(args, { env: agent.env });

describe("recall related", () => {
  it("finds the other session on the session's topic first, with the words they share", async () => {
    const result = await recall("related", ID.flakyA.slice(0, 8));
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const blocks = result.stdout.trim().split("\n\n");
    expect(blocks[0]).toContain(ID.flakyB);
    expect(blocks[0]).toMatch(/shares [a-z, …]*\btimers\b/);
    expect(result.stdout).not.toContain(ID.flakyA);
    const canary = await recall("related", paths.deployB);
    expect(canary.stdout.trim().split("\n\n")[0]).toContain(ID.deployA);
  });

  it("prints JSON Lines: search hit records with the words each shares", async () => {
    const result = await recall("related", "--json", ID.flakyB);
    expect(result.code).toBe(0);
    const records = jsonLines<SearchHit & { shared: string[] }>(result.stdout);
    expect(records[0]).toMatchObject({
      id: ID.flakyA,
      path: paths.flakyA,
      cwd: "/home/dev/web",
      message: { kind: "conversation" },
    });
    expect(records[0]!.shared).toEqual(expect.arrayContaining(["flaky", "fake", "timers"]));
    expect(Object.keys(records[0]!)).toEqual([
      "id",
      "path",
      "cwd",
      "project",
      "name",
      "created",
      "modified",
      "messageCount",
      "firstMessage",
      "parent",
      "tags",
      "score",
      "message",
      "snippet",
      "spans",
      "shared",
    ]);
    expect(records.map((r) => r.id)).not.toContain(ID.flakyB);
    expect(records.map((r) => r.score)).toEqual(
      [...records.map((r) => r.score)].sort((a, b) => b - a),
    );
  });

  it("keeps the sessions of one folder with --cwd, and says what to drop when none is left", async () => {
    const here = await recall("related", "--json", "--cwd", "/home/dev/web", ID.flakyB);
    expect(jsonLines<SearchHit>(here.stdout).every((hit) => hit.cwd === "/home/dev/web")).toBe(
      true,
    );
    const none = await recall("related", "--cwd", "/home/dev/nowhere", ID.flakyB);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(
      /^recall: no session in \/home\/dev\/nowhere shares the distinctive words of .*; drop --here\/--cwd to look further\n$/,
    );
    const before = await recall("related", "--until", "2026-01-01", ID.flakyB);
    expect(before.code).toBe(1);
    expect(before.stderr).toMatch(
      /in that time shares .*; drop --since\/--until to look further\n$/,
    );
  });

  it("exits 1 with one line for a session whose words no other session holds", async () => {
    const result = await recall("related", ID.unique);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toEqual([
      `recall: ${ID.unique} has no distinctive words that another session holds: nothing is related to it`,
    ]);
  });

  it("exits 2 with one line for an unknown session, and for a missing one", async () => {
    const unknown = await recall("related", "ffffffff-not-a-session");
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe("");
    expect(unknown.stderr.trim().split("\n")).toHaveLength(1);
    expect(unknown.stderr).toMatch(/^recall: no session with id or id prefix/);
    const missing = await recall("related");
    expect(missing.code).toBe(2);
    expect(missing.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("Recall.related", () => {
  it("resolves the session as read does and gives its distinctive words with the hits", async () => {
    const library = Recall.open({ env: agent.env });
    try {
      const page = await library.related({ session: paths.deployA, limit: 2 });
      expect(page.session).toMatchObject({ id: ID.deployA, path: paths.deployA });
      expect(page.words).toEqual(expect.arrayContaining(["canary", "rollout"]));
      expect(page.hits[0]).toMatchObject({ id: ID.deployB });
      expect(page.hits[0]!.shared.every((word) => page.words.includes(word))).toBe(true);
      expect(page.hits.length).toBeLessThanOrEqual(2);
      await expect(library.related({ session: ID.deployA, limit: 0 })).rejects.toMatchObject({
        code: "BAD_INPUT",
        field: "limit",
      });
      await expect(library.related({ session: "nothing-like-it" })).rejects.toMatchObject({
        code: "NOT_FOUND",
      });
    } finally {
      library.close();
    }
  });
});

describe("pi_session_related", () => {
  it("answers through the official SDK client with references, shared words and the historical-data note", async () => {
    const bin = new URL("../bin/recall-mcp.cjs", import.meta.url).pathname;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, "--default-scope", "all"],
      env: agent.env as Record<string, string>,
      stderr: "pipe",
    });
    const client = new Client({ name: "recall-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.find((tool) => tool.name === "pi_session_related")?.annotations).toMatchObject({
        readOnlyHint: true,
      });
      const found = (
        await client.callTool({ name: "pi_session_find", arguments: { session_id: ID.flakyA } })
      ).structuredContent as { results: { session_ref: string }[] };
      const ref = found.results[0]!.session_ref;
      const related = await client.callTool({
        name: "pi_session_related",
        arguments: { session_ref: ref, limit: 3 },
      });
      expect(related.isError).toBeFalsy();
      const answer = related.structuredContent as {
        words: string[];
        results: { session_id: string; shared_words: string[]; session_ref: string }[];
      };
      expect(answer.results[0]).toMatchObject({
        session_id: ID.flakyB,
        shared_words: expect.arrayContaining(["timers"]),
      });
      expect(answer.results[0]!.session_ref).toMatch(/^sref_/);
      expect(answer.words).toEqual(expect.arrayContaining(["flaky"]));
      expect(JSON.stringify(related.content)).toContain("historical data");
      const forged = await client.callTool({
        name: "pi_session_related",
        arguments: { session_ref: "sref_forged" },
      });
      expect(forged.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe("the recall tool's related action and the picker's Ctrl+R", () => {
  it("lists the sessions related to a named session, or to the current one", async () => {
    const library = Recall.open({ env: agent.env });
    const ctx = (file: string | undefined) =>
      ({
        cwd: "/home/dev/web",
        sessionManager: {
          getSessionId: () => ID.deployA,
          getSessionFile: () => file,
          getCwd: () => "/home/dev/web",
        },
      }) as never;
    try {
      const named = await runRecallTool(
        library,
        { action: "related", session: ID.flakyA },
        ctx(paths.deployA),
      );
      expect(named.details).toMatchObject({ action: "related" });
      expect(named.content[0]!.text).toMatch(
        new RegExp(`1\\. .*\\n.*${ID.flakyB}[^]*shares: [a-z, ]*timers`),
      );
      const current = await runRecallTool(library, { action: "related" }, ctx(paths.deployA));
      expect(current.content[0]!.text).toContain(ID.deployB);
      const unsaved = await runRecallTool(library, { action: "related" }, ctx(undefined));
      expect(unsaved.isError).toBe(true);
    } finally {
      library.close();
    }
  });

  it("shows the selected session's related sessions with Ctrl+R, says so, and goes back to the search", () => {
    const hit: SearchHit = {
      ...{
        id: ID.flakyA,
        path: "/s/a.jsonl",
        cwd: "/home/dev/web",
        project: "/home/dev/web",
        name: "Flaky login spec",
        created: "2026-10-02T08:00:00.000Z",
        modified: "2026-10-02T08:00:00.000Z",
      },
      ...{
        messageCount: 3,
        firstMessage: "The login spec is flaky",
        parent: null,
        tags: [],
        score: 1,
        message: null,
        snippet: "",
        spans: [],
      },
    };
    const keys = { pageSize: 5, folderExists: () => true };
    const searching = withResults(
      initialState({ query: "flaky", scope: "all", cwd: "/home/dev/web", now: 0 }),
      [hit],
      { refresh: false, pageSize: 5 },
    );
    expect(renderPicker(searching, 160, 20, plainTheme).join("\n")).toContain("Ctrl+R related");
    const related = handleKey(searching, { type: "toggleRelated" }, keys);
    expect(related.effects).toEqual([{ type: "search", debounce: false }]);
    expect(searchRequest(related.state).related).toEqual({
      id: ID.flakyA,
      path: "/s/a.jsonl",
      cwd: "/home/dev/web",
    });
    const shown = withResults(related.state, [], { refresh: false, pageSize: 5 });
    const screen = renderPicker(shown, 160, 20, plainTheme).join("\n");
    expect(screen).toContain('No session shares the distinctive words of "Flaky login spec"');
    expect(screen).toContain("Ctrl+R search");
    expect(
      searchRequest(handleKey(shown, { type: "toggleRelated" }, keys).state).related,
    ).toBeUndefined();
    // Typing searches again.
    expect(
      searchRequest(handleKey(shown, { type: "text", text: "x" }, keys).state).related,
    ).toBeUndefined();
  });
});

describe.skipIf(!MODEL_PACKAGE)(`related sessions by meaning${MODEL_SKIP_REASON}`, () => {
  const withModel = () => ({ ...agent.env, RECALL_MODEL_DIR: MODEL_PACKAGE });
  const related = (...args: string[]) =>
    runRecall(["related", ...args], { env: withModel(), timeoutMs: 120_000 });
  type Record = {
    id: string;
    matchedBy?: string;
    shared: string[];
    snippet: string;
    meaningCoverage?: { embedded: number; messages: number };
  };

  it("says the meaning index holds none of the session's messages before it is built, and exits 1", async () => {
    const result = await related("--match", "meaning", ID.clockA);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toEqual([
      `recall: no session is related to ${ID.clockA} (the meaning index holds none of its messages until \`recall index --meaning\` embeds them)`,
    ]);
  }, 120_000);

  it("finds by meaning the session that shares no distinctive word, by default fused with the words", async () => {
    const built = await runRecall(["index", "--meaning"], { env: withModel(), timeoutMs: 120_000 });
    expect(built.code).toBe(0);
    // By words, the night-build session shares nothing distinctive with the flaky-spec sessions.
    const byWords = jsonLines<Record>(
      (await related("--match", "words", "--json", ID.clockA)).stdout,
    );
    expect(byWords.map((h) => h.id).slice(0, 2)).not.toContain(ID.flakyA);
    const byMeaning = await related("--match", "meaning", "--json", ID.clockA);
    expect(byMeaning.stderr).toBe("");
    const hits = jsonLines<Record>(byMeaning.stdout);
    expect([ID.flakyA, ID.flakyB]).toContain(hits[0]!.id);
    expect(hits[0]).toMatchObject({ matchedBy: "meaning", shared: [] });
    expect(hits[0]!.snippet.length).toBeGreaterThan(0);
    expect(hits.map((h) => h.id)).not.toContain(ID.clockA);
    // The default with the model: both; a session the words find too says so, and shows the words'
    // snippet.
    const byDefault = jsonLines<Record>((await related("--json", ID.flakyA)).stdout);
    expect(byDefault[0]).toMatchObject({ id: ID.flakyB, matchedBy: "both" });
    expect(byDefault[0]!.shared.length).toBeGreaterThan(0);
    const human = await related(ID.flakyA);
    expect(human.stdout.split("\n\n")[0]).toContain("related by words and meaning");
  }, 120_000);

  it("without the model package, --match meaning is one MODEL_UNAVAILABLE line and exit 2", async () => {
    const result = await runRecall(["related", "--match", "meaning", ID.flakyA], {
      env: agent.env,
    });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(
        /^recall: meaning search needs the model package recall-pi-model-minilm/,
      ),
    ]);
  });
});
