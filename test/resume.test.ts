import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { runRecall } from "./helpers/run-cli.js";

let agent: AgentDir;
/** A session whose folder exists; its name needs shell quoting. */
let project: string;
let sessionPath: string;
/** A folder holding a fake `pi` that prints its arguments and folder, and exits 7. */
let fakeBin: string;

const SESSION_ID = "01b00000-0000-7000-8000-00000000abcd";
const S2_ID = "01a0f6e8-1500-7a6b-ad20-694247f75ec3";
const S2_FILE =
  "--home-dev-shop-api--/2026-10-01T10-00-00-000Z_01a0f6e8-1500-7a6b-ad20-694247f75ec3.jsonl";
const NO_HEADER_ID = "01a0f868-9a80-781f-b021-c1b2df97e78b";

beforeAll(() => {
  agent = makeAgentDir();
  project = join(agent.root, "it's my project");
  mkdirSync(project);
  // S2 moved to a folder that exists: same entries, another id and cwd.
  const lines = readFileSync(join(agent.sessionsDir, S2_FILE), "utf8").split("\n");
  lines[0] = JSON.stringify({
    type: "session",
    version: 3,
    id: SESSION_ID,
    timestamp: "2026-10-05T10:00:00.000Z",
    cwd: project,
  });
  mkdirSync(join(agent.sessionsDir, "--project--"));
  sessionPath = join(
    agent.sessionsDir,
    "--project--",
    `2026-10-05T10-00-00-000Z_${SESSION_ID}.jsonl`,
  );
  writeFileSync(sessionPath, lines.join("\n"));
  fakeBin = join(agent.root, "bin");
  mkdirSync(fakeBin);
  writeFileSync(
    join(fakeBin, "pi"),
    '#!/bin/sh\nfor a in "$@"; do printf "arg:%s\\n" "$a"; done\nprintf "cwd:%s\\n" "$(pwd -P)"\nexit 7\n',
  );
  chmodSync(join(fakeBin, "pi"), 0o755);
});
afterAll(() => agent.cleanup());

const recall = (args: string[], options: { input?: string; path?: string } = {}) =>
  runRecall(args, {
    env: { ...agent.env, PATH: options.path ?? agent.env.PATH },
    input: options.input,
  });

describe("recall resume --print and --json", () => {
  it("gives the argv and folder as JSON", async () => {
    const result = await recall(["resume", "01b00000", "--json"]);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(result.stdout)).toEqual({
      argv: ["pi", "--session", sessionPath],
      cwd: project,
    });
  });

  it("prints a shell line that a shell runs as intended", async () => {
    const result = await recall(["resume", SESSION_ID, "--print"]);
    expect(result.code).toBe(0);
    const line = result.stdout.trim();
    expect(line).toBe(`cd '${project.replace("'", "'\\''")}' && pi --session ${sessionPath}`);
    const shell = spawnSync("/bin/sh", ["-c", line], {
      env: { PATH: `${fakeBin}:${process.env.PATH}` },
      encoding: "utf8",
    });
    expect(shell.stdout).toBe(`arg:--session\narg:${sessionPath}\ncwd:${realpathSync(project)}\n`);
    expect(shell.status).toBe(7);
  });

  it("takes the session from stdin with -, and wants exactly one", async () => {
    const one = await recall(["resume", "-", "--json"], { input: `${SESSION_ID}\n` });
    expect(one.code).toBe(0);
    expect(JSON.parse(one.stdout).cwd).toBe(project);
    const two = await recall(["resume", "-", "--json"], { input: `${SESSION_ID}\n${S2_ID}\n` });
    expect(two).toMatchObject({ code: 2, stdout: "" });
    expect(two.stderr).toMatch(/resume takes one session, but stdin held 2/);
  });

  it("refuses --print with --json", async () => {
    const result = await recall(["resume", SESSION_ID, "--print", "--json"]);
    expect(result).toMatchObject({ code: 2, stdout: "" });
  });
});

describe("a session whose folder is gone", () => {
  it("is an error saying to fork it from another folder, whatever the output", async () => {
    for (const extra of [[], ["--print"], ["--json"]]) {
      const result = await recall(["resume", S2_ID, ...extra], {
        path: `${fakeBin}:${agent.env.PATH}`,
      });
      expect(result).toMatchObject({ code: 2, stdout: "" });
      expect(result.stderr).toBe(
        `recall: the folder of session ${S2_ID}, /home/dev/shop-api, no longer exists; to continue the session elsewhere, run \`pi --fork ${join(agent.sessionsDir, S2_FILE)}\` from another folder\n`,
      );
    }
  });

  it("is an error too when the file never recorded its folder", async () => {
    const result = await recall(["resume", NO_HEADER_ID, "--print"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /does not record its folder .* run `pi --fork \/.*01a0f868-9a80-781f-b021-c1b2df97e78b\.jsonl` from the folder you want/,
    );
  });
});

describe("running pi", () => {
  it("starts pi --session <path> in the session's folder and exits with pi's status", async () => {
    const result = await recall(["resume", "01b00000"], { path: `${fakeBin}:${agent.env.PATH}` });
    expect(result.stdout).toBe(`arg:--session\narg:${sessionPath}\ncwd:${realpathSync(project)}\n`);
    expect(result.code).toBe(7);
    expect(result.stderr).toBe("");
  });

  it("says what to do when pi is not installed", async () => {
    const empty = join(agent.root, "empty-bin");
    mkdirSync(empty, { recursive: true });
    const result = await recall(["resume", SESSION_ID], { path: empty });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /cannot start pi: it is not on PATH; install Pi, or run: cd '.*' && pi --session \//,
    );
  });
});
