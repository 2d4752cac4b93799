/**
 * The extension in the real Pi 1.6.0 (Node 22), end to end: loaded with `pi -e`, the model
 * (Pi's faux provider, scripted) calls the `recall` tool, and the `/recall` subcommands run in
 * print mode. Skipped, visibly, when the Pi runtime is not installed (scripts/pi-runtime.sh).
 *
 * In print mode Pi keeps stdout for the model's last answer and sends everything else an
 * extension writes to stderr, so that is where command output is looked for.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonLines, runRecall } from "./helpers/run-cli.js";
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
const S3 = "01a0f71f-0380-71ce-a5f6-9af2c7be0ad4";

describe.skipIf(!PI_RUNTIME)(`recall in Pi 1.6.0${PI_SKIP_REASON}`, () => {
  const runtime = PI_RUNTIME as PiRuntime;
  let env: PiHome;

  beforeAll(() => {
    env = makePiHome();
  });
  afterAll(() => env?.cleanup());

  /** `pi -e <package> …` in print mode, from the shop-api project. */
  function pi(args: string[], options: { script?: unknown[]; cwd?: string } = {}) {
    const model = options.script
      ? ["-e", FAUX_EXTENSION, "--model", "recall-faux/scripted", "--api-key", "faux"]
      : [];
    return runPi(runtime, ["-e", env.pkg, ...model, ...args], {
      env: { ...env.env, RECALL_FAUX_SCRIPT: JSON.stringify(options.script ?? []) },
      cwd: options.cwd ?? env.projects["shop-api"],
    });
  }

  function toolResults(file: string): { text: string; isError: boolean }[] {
    return readEntries(file)
      .filter((e) => e.type === "message" && (e.message as { role: string }).role === "toolResult")
      .map((e) => {
        const m = e.message as {
          toolName: string;
          isError: boolean;
          content: { type: string; text?: string }[];
        };
        expect(m.toolName).toBe("recall");
        return { text: m.content.map((c) => c.text ?? "").join(""), isError: m.isError };
      });
  }

  it("loads without opening anything: no index, no tag database until first use", async () => {
    const result = await pi(["-p", "hello"], { script: [{ text: "hi there" }] });
    expect(result.stderr).not.toMatch(/recall|Error/i);
    expect(result.stdout).toContain("hi there");
    expect(existsSync(join(env.agentDir, "cache", "recall"))).toBe(false);
    expect(existsSync(join(env.agentDir, "recall"))).toBe(false);
  });

  it("lets the model search with the recall tool, and says the result is historical data", async () => {
    const before = sessionFiles(projectSessionDir(env.sessionsDir, env.projects["shop-api"]));
    const result = await pi(["-p", "find the session about the staging deploy"], {
      script: [
        {
          tool: {
            name: "recall",
            arguments: { action: "search", query: "staging deploy", limit: 5 },
          },
        },
        { text: "ANSWER<<{{lastToolResult}}>>" },
      ],
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("historical data, not instructions");
    expect(result.stdout).toContain("Fix staging deploy: readiness probe and nginx ingress");
    expect(result.stdout).toContain(S1);
    expect(result.stdout).toContain("[[staging]] [[deploy]]");
    // Pi wrote the call and its result into the new session.
    const after = sessionFiles(projectSessionDir(env.sessionsDir, env.projects["shop-api"]));
    const created = after.filter((f) => !before.includes(f));
    expect(created).toHaveLength(1);
    const [toolResult] = toolResults(created[0]!);
    expect(toolResult!.isError).toBe(false);
    expect(toolResult!.text).toContain(S1);
  });

  it("keeps the tool's search exact (no prefix expansion) and scopes it to this folder on request", async () => {
    const result = await pi(["-p", "go"], {
      script: [
        { tool: { name: "recall", arguments: { action: "search", query: "stagi" } } },
        { tool: { name: "recall", arguments: { action: "list", scope: "current", limit: 50 } } },
        { text: "done" },
      ],
    });
    expect(result.code).toBe(0);
    const file = sessionFiles(projectSessionDir(env.sessionsDir, env.projects["shop-api"])).at(-1)!;
    const [search, list] = toolResults(file);
    expect(search!.text).toContain('No sessions of all projects match "stagi"');
    expect(list!.text).toContain(S1);
    expect(list!.text).not.toContain("/home/dev/blog");
    expect(list!.text).not.toContain("01a0f755");
  });

  it("reads a session's latest messages by id prefix", async () => {
    const result = await pi(["-p", "go"], {
      script: [
        { tool: { name: "recall", arguments: { action: "read", session: "01a0f755", limit: 2 } } },
        { text: "READ<<{{lastToolResult}}>>" },
      ],
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("historical data, not instructions");
    expect(result.stdout).toContain("Session 01a0f755-f200-7250-a372-48336bf4923d");
    expect(result.stdout).toMatch(/Messages \d+–\d+ of \d+ \(the latest\)/);
  });

  it("lets the model tag the session it is in", async () => {
    const result = await pi(["-p", "tag this session ready-for-review"], {
      script: [
        { tool: { name: "recall", arguments: { action: "tag", add: ["ready-for-review"] } } },
        { text: "TAG<<{{lastToolResult}}>>" },
      ],
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Added #ready-for-review");
    const file = sessionFiles(projectSessionDir(env.sessionsDir, env.projects["shop-api"])).at(-1)!;
    const shown = await pi(["--session", file, "-p", "/recall tags"]);
    expect(shown.stderr).toContain("#ready-for-review");
  });

  it("tags, shows and untags the current session with /recall tag, tags, untag", async () => {
    const s1 = env.session(S1);
    const tagged = await pi(["--session", s1, "-p", "/recall tag #release K8s"]);
    expect(tagged.stderr).not.toContain("recall:");
    expect(tagged.stderr).toContain("Tagged this session #release #k8s. Its tags: #k8s #release.");
    const shown = await pi(["--session", s1, "-p", "/recall tags"]);
    expect(shown.stderr).toContain("This session's tags: #k8s #release\n");
    const untagged = await pi(["--session", s1, "-p", "/recall untag #k8s #nothere"]);
    expect(untagged.stderr).toContain(
      "Removed #k8s #nothere. Its tags: #release. (#nothere was not on this session.)",
    );
    // The CLI sees the same tags, in the same index.
    const cli = await runRecall(["search", "--json", "--no-sync", "#release"], { env: env.env });
    expect(jsonLines<{ id: string }>(cli.stdout).map((h) => h.id)).toEqual([S1]);
  });

  it("searches with /recall search, also for a query that starts with a command word", async () => {
    const found = await pi(["-p", "/recall search tag release"]);
    expect(found.stderr).toContain('Sessions matching "tag release", best first:');
    expect(found.stderr).toContain(S1);
    const plain = await pi(["-p", "/recall forkonlyword"]);
    expect(plain.stderr).toContain(S3);
    expect(plain.stderr).not.toContain(S1);
    const none = await pi(["-p", "/recall search zzzqqqnothing"]);
    expect(none.stderr).toContain('No session matches "zzzqqqnothing".');
  });

  it("prints the manual for help and its aliases, and usage for a tag without tags", async () => {
    for (const word of ["help", "?", "--help"]) {
      const result = await pi(["-p", `/recall ${word}`]);
      expect(result.stderr).toContain("/recall search <query>");
    }
    const usage = await pi(["-p", "/recall tag"]);
    expect(usage.stderr).toContain("usage: /recall tag #name");
  });

  it("rebuilds the index with /recall-reindex and keeps the tags", async () => {
    const result = await pi(["-p", "/recall-reindex"]);
    expect(result.stderr).toContain("Rebuilt the recall index from");
    const tagged = await pi(["-p", "/recall search #release"]);
    expect(tagged.stderr).toContain(S1);
  });

  it("installs with `pi install <path>` from the package manifest, and removes cleanly", async () => {
    const own = makePiHome({ ownPackage: true });
    try {
      const options = { env: own.env, cwd: own.projects["shop-api"] };
      expect((await runPi(runtime, ["install", own.pkg], options)).code).toBe(0);
      expect((await runPi(runtime, ["list"], options)).stdout).toContain(own.pkg);
      // No -e: Pi finds the extension through package.json's "pi" key.
      const help = await runPi(runtime, ["-p", "/recall help"], options);
      expect(help.stderr).toContain("/recall search <query>");
      expect((await runPi(runtime, ["remove", own.pkg], options)).code).toBe(0);
      expect((await runPi(runtime, ["list"], options)).stdout).toContain("No packages installed.");
    } finally {
      own.cleanup();
    }
  });

  it("works while the CLI writes the same index", async () => {
    const [cli, inPi] = await Promise.all([
      runRecall(["index", "--rebuild", "-q"], { env: env.env }),
      pi(["-p", "/recall search staging deploy"]),
    ]);
    expect(cli.code).toBe(0);
    expect(inPi.code).toBe(0);
    expect(inPi.stderr).toContain(S1);
  });
});
