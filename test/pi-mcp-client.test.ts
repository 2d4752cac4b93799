/**
 * Pi 1.6.0 as a third-party MCP client of the built server: `pi mcp add` writes the server into
 * the agent folder's mcp.json, `pi mcp list` connects to it, and in a print-mode run Pi's scripted
 * faux model calls `mcp__recall__pi_session_search`; the result reaches the model, its answer and
 * the session Pi writes. The recall extension is not loaded: Pi reaches recall only over MCP.
 * Skipped, visibly, when the Pi runtime is not installed (scripts/pi-runtime.sh).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

const BIN = new URL("../bin/recall-mcp.cjs", import.meta.url).pathname;

describe.skipIf(!PI_RUNTIME)(`recall mcp as a server of Pi 1.6.0${PI_SKIP_REASON}`, () => {
  const runtime = PI_RUNTIME as PiRuntime;
  let home: PiHome;
  let cwd: string;

  beforeAll(async () => {
    home = makePiHome();
    cwd = home.projects["shop-api"];
    // The server runs on this (Node 20) runtime, as a user's MCP configuration would start it.
    const added = await runPi(
      runtime,
      [
        "mcp",
        "add",
        "recall",
        "--exposure",
        "direct",
        "--",
        process.execPath,
        BIN,
        "--agent-dir",
        home.agentDir,
        "--project-dir",
        cwd,
      ],
      { env: home.env, cwd },
    );
    expect(added.code, added.stderr).toBe(0);
  });
  afterAll(() => home?.cleanup());

  it("is stored in mcp.json and connects, with its tools", async () => {
    const config = JSON.parse(readFileSync(join(home.agentDir, "mcp.json"), "utf8"));
    expect(config.mcpServers.recall).toMatchObject({
      command: process.execPath,
      args: [BIN, "--agent-dir", home.agentDir, "--project-dir", cwd],
    });
    const listed = await runPi(runtime, ["mcp", "list", "--json"], { env: home.env, cwd });
    expect(listed.code, listed.stderr).toBe(0);
    const text = listed.stdout;
    expect(text).toContain('"connected"');
    for (const tool of [
      "pi_session_search",
      "pi_session_find",
      "pi_session_context",
      "pi_session_read",
      "pi_session_list",
    ])
      expect(text).toContain(tool);
  });

  it("lets the model search through the server; the answer reaches the transcript", async () => {
    const before = sessionFiles(projectSessionDir(home.sessionsDir, cwd));
    const script = [
      {
        tool: {
          name: "mcp__recall__pi_session_search",
          arguments: { query: "staging deploy", limit: 3 },
        },
      },
      { text: "ANSWER<<{{lastToolResult}}>>" },
    ];
    const run = await runPi(
      runtime,
      [
        "-e",
        FAUX_EXTENSION,
        "--model",
        "recall-faux/scripted",
        "--api-key",
        "faux",
        "-p",
        "find the staging deploy session",
      ],
      {
        env: { ...home.env, RECALL_FAUX_SCRIPT: JSON.stringify(script) },
        cwd,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    // The project scope is the server's default: the shop-api session is found, as the text result
    // says.
    expect(run.stdout).toContain("Fix staging deploy: readiness probe and nginx ingress");
    expect(run.stdout).toMatch(/scope: project/);
    expect(run.stdout).toMatch(/session_ref: sref_[0-9a-f]+/);
    expect(run.stdout).not.toContain(home.sessionsDir);

    const created = sessionFiles(projectSessionDir(home.sessionsDir, cwd)).filter(
      (f) => !before.includes(f),
    );
    expect(created).toHaveLength(1);
    const messages = readEntries(created[0]!)
      .filter((e) => e.type === "message")
      .map(
        (e) =>
          e.message as {
            role: string;
            toolName?: string;
            isError?: boolean;
            content: { type: string; text?: string; name?: string }[];
          },
      );
    const call = messages.find(
      (m) => m.role === "assistant" && m.content.some((c) => c.type === "toolCall"),
    );
    expect(call!.content.find((c) => c.type === "toolCall")!.name).toBe(
      "mcp__recall__pi_session_search",
    );
    const result = messages.find((m) => m.role === "toolResult")!;
    expect(result.toolName).toBe("mcp__recall__pi_session_search");
    expect(result.isError).toBe(false);
    const resultText = result.content.map((c) => c.text ?? "").join("");
    expect(resultText).toContain("Fix staging deploy");
    expect(resultText).toContain("untrusted historical data");
    const answer = messages.filter((m) => m.role === "assistant").at(-1)!;
    expect(answer.content.map((c) => c.text ?? "").join("")).toContain("ANSWER<<");
    expect(answer.content.map((c) => c.text ?? "").join("")).toContain("Fix staging deploy");
  });
});
