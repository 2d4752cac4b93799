/**
 * A sessions folder that does not exist is reported, naming the folder and the setting that
 * named it, instead of "no session matches" (a typo in --sessions-dir looked like an empty
 * history). Pi's default folder missing is someone who has not run Pi yet: said, not an error.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "../helpers/agent-dir.js";
import { runRecall } from "../helpers/run-cli.js";

let dir: AgentDir;
beforeEach(() => {
  dir = makeAgentDir();
});
afterEach(() => dir.cleanup());

const COMMANDS = [["search", "deploy"], ["list"], ["index"]];

describe("a sessions folder that a setting names and that does not exist", () => {
  const cases: [
    string,
    () => { args: string[]; env: NodeJS.ProcessEnv; folder: string; from: string },
  ][] = [
    [
      "--sessions-dir",
      () => ({
        args: ["--sessions-dir", join(dir.root, "typo")],
        env: dir.env,
        folder: join(dir.root, "typo"),
        from: "--sessions-dir",
      }),
    ],
    [
      "PI_CODING_AGENT_SESSION_DIR",
      () => ({
        args: [],
        env: { ...dir.env, PI_CODING_AGENT_SESSION_DIR: join(dir.root, "typo") },
        folder: join(dir.root, "typo"),
        from: "PI_CODING_AGENT_SESSION_DIR",
      }),
    ],
    [
      "PI_CODING_AGENT_DIR",
      () => ({
        args: [],
        env: { ...dir.env, PI_CODING_AGENT_DIR: join(dir.root, "typo") },
        folder: join(dir.root, "typo", "sessions"),
        from: "PI_CODING_AGENT_DIR",
      }),
    ],
    [
      "sessionDir in settings.json",
      () => {
        writeFileSync(
          join(dir.agentDir, "settings.json"),
          JSON.stringify({ sessionDir: join(dir.root, "typo") }),
        );
        return {
          args: [],
          env: dir.env,
          folder: join(dir.root, "typo"),
          from: `sessionDir in ${join(dir.agentDir, "settings.json")}`,
        };
      },
    ],
  ];

  for (const [name, setUp] of cases) {
    for (const command of COMMANDS) {
      it(`${command[0]} with ${name}: exit 2 and one line naming folder and setting`, async () => {
        const { args, env, folder, from } = setUp();
        const result = await runRecall([...command, ...args], { env });
        expect(result.code).toBe(2);
        expect(result.stdout).toBe("");
        expect(result.stderr).toBe(
          `recall: there is no sessions folder at ${folder} (set by ${from})\n`,
        );
      });
    }
  }

  it("a file where the sessions folder should be says so", async () => {
    const file = join(dir.root, "file");
    writeFileSync(file, "");
    const result = await runRecall(["list", "--sessions-dir", file], { env: dir.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `recall: the sessions folder ${file} (set by --sessions-dir) is a file, not a folder\n`,
    );
  });
});

describe("Pi's default sessions folder, not there yet", () => {
  const neverRanPi = () => {
    const home = join(dir.root, "new-user");
    mkdirSync(home);
    return {
      env: { PATH: process.env.PATH, HOME: home },
      folder: join(home, ".pi", "agent", "sessions"),
    };
  };

  for (const command of [["search", "deploy"], ["list"]]) {
    it(`${command[0]}: "no Pi sessions yet", nothing found (exit 1)`, async () => {
      const { env, folder } = neverRanPi();
      const result = await runRecall(command, { env });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr).toBe(
        `recall: no Pi sessions yet at ${folder} (Pi writes them there)\n`,
      );
    });
  }

  it("index: says so, and indexes nothing (exit 0)", async () => {
    const { env, folder } = neverRanPi();
    const result = await runRecall(["index"], { env });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`recall: no Pi sessions yet at ${folder} (Pi writes them there)\n`);
    expect(result.stdout).toMatch(/^0 session files: /);
  });
});
