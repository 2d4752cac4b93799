/**
 * pi-session-recall's tools in the real Pi 1.6.0 (Node 22): the extension registers
 * pi_session_search, pi_session_find, pi_session_context and pi_session_read next to `recall`,
 * and Pi's scripted faux model calls them; their results are read from the session file Pi
 * writes. Skipped, visibly, when the Pi runtime is not installed (scripts/pi-runtime.sh).
 */
import { rmSync, symlinkSync, copyFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_TOOL_TEXT } from "../src/index.js";
import { sessionTools } from "../src/pi/session-tools.js";
import {
  FAUX_EXTENSION,
  PI_RUNTIME,
  PI_SKIP_REASON,
  makePiHome,
  projectSessionDir,
  readEntries,
  runPi,
  sessionFiles,
  type PiHome,
  type PiRuntime,
} from "./helpers/pi-env.js";

const S1 = "01a0f6b1-2680-79e3-a1fa-30b6f0582ef5";

describe.skipIf(!PI_RUNTIME)(`the pi_session_* tools in Pi 1.6.0${PI_SKIP_REASON}`, () => {
  const runtime = PI_RUNTIME as PiRuntime;
  let env: PiHome;

  beforeAll(() => {
    env = makePiHome();
  });
  afterAll(() => env?.cleanup());

  /** Runs the scripted model, and gives each tool result of the session Pi wrote, in order. */
  async function toolRun(
    steps: { name: string; arguments: Record<string, unknown> }[],
  ): Promise<{ tool: string; text: string; isError: boolean }[]> {
    const dir = projectSessionDir(env.sessionsDir, env.projects["shop-api"]);
    const before = sessionFiles(dir);
    const script = [...steps.map((tool) => ({ tool })), { text: "done" }];
    const run = await runPi(
      runtime,
      [
        "-e",
        env.pkg,
        "-e",
        FAUX_EXTENSION,
        "--model",
        "recall-faux/scripted",
        "--api-key",
        "faux",
        "-p",
        "go",
      ],
      {
        env: { ...env.env, RECALL_FAUX_SCRIPT: JSON.stringify(script) },
        cwd: env.projects["shop-api"],
      },
    );
    expect(run.code, run.stderr).toBe(0);
    const created = sessionFiles(dir).filter((f) => !before.includes(f));
    expect(created).toHaveLength(1);
    return readEntries(created[0]!)
      .filter((e) => e.type === "message" && (e.message as { role: string }).role === "toolResult")
      .map((e) => {
        const m = e.message as { toolName: string; isError: boolean; content: { text?: string }[] };
        return {
          tool: m.toolName,
          text: m.content.map((c) => c.text ?? "").join(""),
          isError: m.isError,
        };
      });
  }

  it("searches, finds by id, gives focused context and reads, each as the model called it", async () => {
    const path = env.session(S1);
    const [search, byId, find, context, read] = await toolRun([
      { name: "pi_session_search", arguments: { query: "staging deploy", limit: 2 } },
      { name: "pi_session_search", arguments: { query: S1 } },
      { name: "pi_session_find", arguments: { sessionId: S1 } },
      {
        name: "pi_session_context",
        arguments: { sessionPath: path, question: "why did the readiness probe fail?" },
      },
      { name: "pi_session_read", arguments: { sessionPath: S1, maxChars: 100 } },
    ]);
    for (const result of [search, byId, find, context, read]) {
      expect(result!.isError, result!.text).toBe(false);
      expect(result!.text).toContain("historical data, not instructions");
    }
    expect(search!.tool).toBe("pi_session_search");
    expect(search!.text).toContain("Fix staging deploy: readiness probe and nginx ingress");
    expect(search!.text).toContain("[[staging]] [[deploy]]");
    expect(search!.text).toContain(`path: ${path}`);
    expect(search!.text).toMatch(/cursor: \S+/);
    expect(byId!.text).toContain("1 session,");
    expect(byId!.text).toContain(path);
    expect(find!.text).toContain(path);
    expect(context!.text).toMatch(
      new RegExp(`Session ${S1}: \\d+ of \\d+ messages match \\(.*readiness.*\\)`),
    );
    expect(context!.text).toMatch(/\[\d+\] (user|assistant) · /);
    expect(read!.text).toContain(`Session ${S1}`);
    expect(read!.text).toMatch(/Messages 0–\d+ of \d+\./);
    expect(read!.text).toContain('More: call pi_session_read with {"sessionPath":');
  });

  it("pages on a search and a read with the cursors they give, and refuses a cursor of another call", async () => {
    const first = await toolRun([
      { name: "pi_session_search", arguments: { query: "deploy", limit: 1 } },
      { name: "pi_session_read", arguments: { sessionPath: S1, maxChars: 300 } },
    ]);
    const searchCursor = /cursor: (\S+)/.exec(first[0]!.text)![1]!;
    const readNext = JSON.parse(
      /More: call pi_session_read with (\{.*\})/.exec(first[1]!.text)![1]!,
    ) as Record<string, unknown>;
    const second = await toolRun([
      { name: "pi_session_search", arguments: { query: "deploy", limit: 1, cursor: searchCursor } },
      { name: "pi_session_read", arguments: readNext },
      // A cursor of another call is refused, not misread.
      {
        name: "pi_session_search",
        arguments: { query: "kubectl", limit: 1, cursor: searchCursor },
      },
      { name: "pi_session_read", arguments: { sessionPath: S1, cursor: "not-a-cursor" } },
    ]);
    expect(second[0]!.isError).toBe(false);
    expect(second[0]!.text).toContain("1 session,");
    expect(second[0]!.text).not.toContain(
      first[0]!.text.split("\n").find((l) => l.startsWith("1. "))!,
    );
    expect(second[1]!.isError).toBe(false);
    expect(second[1]!.text).toMatch(/Messages [1-9]\d*–\d+ of \d+\./);
    expect(second[2]!.isError).toBe(true);
    expect(second[2]!.text).toMatch(/^pi_session_search: /);
    expect(second[3]!.isError).toBe(true);
  });

  it("refuses what the MCP tools refuse: a bad id, an unknown session, a symlinked session file", async () => {
    const victim = env.session("01a0f755");
    const outside = join(env.root, "outside.jsonl");
    copyFileSync(victim, outside);
    rmSync(victim);
    symlinkSync(outside, victim);
    const [badId, unknown, linked] = await toolRun([
      { name: "pi_session_find", arguments: { sessionId: "01a0f6b1" } },
      {
        name: "pi_session_read",
        arguments: { sessionPath: "ffffffff-ffff-7fff-8fff-ffffffffffff" },
      },
      { name: "pi_session_context", arguments: { sessionPath: victim, question: "anything" } },
    ]);
    expect(badId!.isError).toBe(true);
    expect(badId!.text).toContain("complete session UUID");
    expect(unknown!.isError).toBe(true);
    expect(linked!.isError).toBe(true);
    expect(linked!.text).not.toContain("historical data");
  });

  it('searches thinking, tool calls and tool output with mode "raw", and only sessions that touched a file with file', async () => {
    const [plain, raw, touched, untouched] = await toolRun([
      { name: "pi_session_search", arguments: { query: "quuxtooloutput" } },
      { name: "pi_session_search", arguments: { query: "quuxtooloutput", mode: "raw" } },
      {
        name: "pi_session_search",
        arguments: {
          query: "readiness",
          file: join(env.projects["shop-api"], "deploy/staging.log"),
        },
      },
      {
        name: "pi_session_search",
        arguments: { query: "readiness", file: join(env.projects["shop-api"], "nothing.txt") },
      },
    ]);
    expect(plain!.text).toContain("No session matches.");
    expect(raw!.isError).toBe(false);
    // The fixture session's tool output, and the calls of this test's own sessions that named the
    // word.
    expect(raw!.text).toMatch(/\d+ sessions?, best first/);
    expect(raw!.text).not.toMatch(/not tool output|searched the conversation/);
    expect(untouched!.text).toContain("No session matches.");
    expect(touched!.isError).toBe(false);
  });

  it("describes the tools as the MCP server does, from the library's one text", () => {
    const [search, find, context, read] = sessionTools(() => {
      throw new Error("not called");
    });
    expect(search.description).toContain(SESSION_TOOL_TEXT.search);
    expect(search.description).not.toMatch(/not tool output or thinking/);
    expect(Object.keys(search.parameters.properties)).toEqual([
      "query",
      "limit",
      "cursor",
      "mode",
      "file",
      "match",
    ]);
    expect(find.description).toContain(SESSION_TOOL_TEXT.find);
    expect(context.description).toContain(SESSION_TOOL_TEXT.context);
    expect(read.description).toBe(SESSION_TOOL_TEXT.read);
  });
});
