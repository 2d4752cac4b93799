/**
 * The model features inside the real Pi 1.6.0: `/recall autotag` (this session, and every
 * untagged one) and the `pi_session_query` tool, asking a local model server on 127.0.0.1 through
 * Pi's own model registry (in process, no child `pi`). Print mode, so the commands' output is on
 * stderr. Skipped, visibly, without the Pi runtime.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startModelServer, type ChatRequest, type ModelServer } from "./helpers/model-server.js";
import {
  FAUX_EXTENSION,
  PI_RUNTIME,
  PI_SKIP_REASON,
  makePiHome,
  runPi,
  type PiHome,
  type PiRuntime,
} from "./helpers/pi-env.js";
import { jsonLines, runRecall } from "./helpers/run-cli.js";

const S1 = "01a0f6b1-2680-79e3-a1fa-30b6f0582ef5";

function userText(request: ChatRequest): string {
  const user = request.messages.find((m) => m.role === "user");
  return Array.isArray(user?.content)
    ? user.content.map((b: { text?: string }) => b.text ?? "").join("")
    : String(user?.content ?? "");
}

describe.skipIf(!PI_RUNTIME)(`model features inside Pi 1.6.0${PI_SKIP_REASON}`, () => {
  const runtime = PI_RUNTIME as PiRuntime;
  let home: PiHome;
  let server: ModelServer;

  beforeAll(async () => {
    server = await startModelServer();
    home = makePiHome();
    server.register(home.agentDir);
    writeFileSync(
      join(home.agentDir, "settings.json"),
      JSON.stringify({ retry: { enabled: false } }),
    );
  });
  afterAll(async () => {
    await server.close();
    home?.cleanup();
  });
  beforeEach(() => {
    server.requests.length = 0;
  });

  const pi = (args: string[], script: unknown[] = []) =>
    runPi(runtime, ["-e", home.pkg, ...args], {
      env: { ...home.env, RECALL_FAUX_SCRIPT: JSON.stringify(script) },
      cwd: home.projects["shop-api"],
    });
  const tags = async (id: string) =>
    jsonLines((await runRecall(["tags", id, "--json"], { env: home.env })).stdout)[0]!;

  it("/recall autotag tags the session Pi has open, through Pi's registry, and the index has them at once", async () => {
    server.script({ text: '{"tags": ["staging", "readiness-probe", "nginx"]}' });
    const result = await pi([
      "--model",
      "local/tagger",
      "--session",
      home.session(S1),
      "-p",
      "/recall autotag",
    ]);
    expect(result.stderr).toContain(
      "Tagged this session #staging #readiness-probe #nginx (automatic)",
    );
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.tools ?? []).toEqual([]);
    expect(userText(server.requests[0]!)).toMatch(
      /<session>[\s\S]*readiness probe[\s\S]*<\/session>/,
    );
    expect(await tags(S1)).toMatchObject({ auto: ["nginx", "readiness-probe", "staging"] });
    const found = await runRecall(["search", "#readiness-probe", "--json", "--no-sync"], {
      env: home.env,
    });
    expect(jsonLines(found.stdout).map((h) => h.id)).toEqual([S1]);
  });

  it("/recall autotag --all-untagged says what it would send and waits for --yes outside the TUI", async () => {
    const result = await pi(["--model", "local/tagger", "-p", "/recall autotag --all-untagged"]);
    expect(result.stderr).toMatch(
      /\d+ sessions will be sent, one request each, to local\/tagger\. The provider may charge for them\. Run \/recall autotag --all-untagged --yes to go ahead\./,
    );
    expect(server.requests).toHaveLength(0);

    server.script({ text: '["alpha", "beta", "gamma"]' });
    const done = await pi([
      "--model",
      "local/tagger",
      "-p",
      "/recall autotag --all-untagged --yes",
    ]);
    const [, count] = /Auto-tagged (\d+) of \1 sessions with local\/tagger/.exec(done.stderr) ?? [];
    expect(Number(count)).toBeGreaterThan(3);
    expect(server.requests).toHaveLength(Number(count));
    expect(await tags("01a0f755")).toMatchObject({ auto: ["alpha", "beta", "gamma"] });
    // S1 had tags already: it was not asked about again.
    expect(await tags(S1)).toMatchObject({ auto: ["nginx", "readiness-probe", "staging"] });
  });

  it("pi_session_query answers from the session's relevant messages with the model chosen in recall's config", async () => {
    mkdirSync(join(home.agentDir, "recall"), { recursive: true });
    writeFileSync(
      join(home.agentDir, "recall", "config.json"),
      JSON.stringify({ ask: { model: "local/tagger" } }),
    );
    server.script((request) => ({
      text: `The container listened on 3000 while the service sent 8080 [${/\[(\d+)\] assistant[^\n]*\n[^\n]*8080/.exec(userText(request))?.[1]}].`,
    }));
    const result = await pi(
      [
        "-e",
        FAUX_EXTENSION,
        "--model",
        "recall-faux/scripted",
        "--api-key",
        "faux",
        "-p",
        "what port was wrong?",
      ],
      [
        {
          tool: {
            name: "pi_session_query",
            arguments: {
              sessionPath: S1.slice(0, 8),
              question: "which port does the nginx ingress send traffic to",
            },
          },
        },
        { text: "QUERY<<{{lastToolResult}}>>" },
      ],
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("historical data, not instructions");
    expect(result.stdout).toMatch(/local\/tagger answered from \d+ messages? of session 01a0f6b1/);
    expect(result.stdout).toContain("listened on 3000");
    expect(server.requests).toHaveLength(1);
    expect(userText(server.requests[0]!)).toMatch(
      /^Question: which port does the nginx ingress send traffic to/,
    );
  });
});
