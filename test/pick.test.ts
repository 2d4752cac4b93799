/**
 * `recall pick` in a real terminal: real fzf inside real tmux, driven with send-keys and read
 * with capture-pane. Skipped (visibly) where fzf or tmux is not installed; CI installs both.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { RECALL_BIN } from "./helpers/run-cli.js";
import { tmuxDriver } from "./helpers/tmux.js";
import { onPath, skipWithout } from "./helpers/tools.js";

const WITHOUT_TMUX_FZF = skipWithout("tmux", "fzf");
const FORK_PATH_END = "2026-10-01T11-00-00-000Z_01a0f71f-0380-71ce-a5f6-9af2c7be0ad4.jsonl";

/**
 * `recall pick` on a terminal of its own (util-linux `script`): its exit status and what it showed.
 */
function pickOnPty(
  env: NodeJS.ProcessEnv,
  path = env.PATH,
): { status: number | null; seen: string } {
  const run = spawnSync(
    "script",
    ["-qec", `PATH=${path} ${process.execPath} ${RECALL_BIN} pick`, "/dev/null"],
    { env, encoding: "utf8" },
  );
  return { status: run.status, seen: run.stdout };
}

describe("recall pick where it cannot pick", () => {
  it.skipIf(!onPath("setsid"))(
    `without a terminal says so in one line, not fzf's ioctl error${skipWithout("setsid")}`,
    () => {
      const agent = makeAgentDir();
      try {
        // A session of its own: no controlling terminal, whatever runs the tests.
        const result = spawnSync("setsid", ["-w", process.execPath, RECALL_BIN, "pick"], {
          env: agent.env,
          encoding: "utf8",
          stdio: ["ignore", "pipe", "pipe"],
        });
        expect(result.status).toBe(2);
        expect(result.stdout).toBe("");
        expect(result.stderr).toBe(
          "recall: pick is interactive and needs a terminal, but this process has no terminal; `recall search --format tsv` gives the same lines to a script\n",
        );
      } finally {
        agent.cleanup();
      }
    },
  );

  it.skipIf(!onPath("script"))(
    `without fzf says in one line that fzf is needed and how to get it${skipWithout("script")}`,
    () => {
      const agent = makeAgentDir();
      try {
        const { status, seen } = pickOnPty(agent.env, mkdtempSync(join(tmpdir(), "empty-path-")));
        expect(status).toBe(2);
        expect(seen).toMatch(
          /^recall: pick needs fzf 0\.38 or later, and none is on PATH: install it \(apt install fzf/,
        );
        expect(seen.trim().split("\n")).toHaveLength(1);
      } finally {
        agent.cleanup();
      }
    },
  );

  it.skipIf(!onPath("script"))(
    `with no sessions says there are none, and exits 1 without opening fzf${skipWithout("script")}`,
    () => {
      const agent = makeAgentDir({ withFixtures: false });
      try {
        const { status, seen } = pickOnPty(agent.env);
        expect(status).toBe(1);
        expect(seen.trim()).toBe("recall: there are no sessions to pick from yet");
      } finally {
        agent.cleanup();
      }
    },
  );
});

describe.skipIf(WITHOUT_TMUX_FZF !== "")(`recall pick in tmux with fzf${WITHOUT_TMUX_FZF}`, () => {
  let agent: AgentDir;
  const socket = `recall-test-${process.pid}`;
  const { tmux, screen, waitFor } = tmuxDriver(socket);

  beforeAll(() => {
    agent = makeAgentDir();
  });
  afterAll(async () => {
    spawnSync("tmux", ["-L", socket, "kill-server"]);
    // Let the picker's processes, killed with the server, finish exiting before the folder goes.
    await new Promise((resolve) => setTimeout(resolve, 300));
    agent.cleanup();
  });

  it("lists and previews matches as you type, toggles the folder scope, and prints the path", async () => {
    const out = join(agent.root, "picked.txt");
    const env = Object.entries({ ...agent.env, TERM: "xterm-256color" })
      .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
      .join(" ");
    const command = `cd ${JSON.stringify(agent.root)} && env -i ${env} ${JSON.stringify(process.execPath)} ${JSON.stringify(RECALL_BIN)} pick > ${JSON.stringify(out)}; sleep 60`;
    tmux("new-session", "-d", "-s", "pick", "-x", "160", "-y", "40", command);
    await waitFor(() => screen().includes("recall>"), "the picker");
    expect(screen()).toContain("scope: all projects (ctrl-t: this folder only)");
    tmux("send-keys", "-t", "pick", "forkonly");
    // The fork is listed, and the preview shows its own message with the typed word.
    await waitFor(
      () => /1\/1/.test(screen()) && screen().includes("forkonlyword"),
      "the fork in the list and its preview",
    );
    expect(screen()).toContain("Fix staging deploy");
    // ctrl-t: only sessions of this folder (the temp dir has none); ctrl-t again: all projects.
    tmux("send-keys", "-t", "pick", "C-t");
    await waitFor(() => /0\/0/.test(screen()), "the folder scope");
    expect(screen()).toContain(`scope: this folder, ${agent.root} (ctrl-t: all projects)`);
    tmux("send-keys", "-t", "pick", "C-t");
    await waitFor(
      () => /1\/1/.test(screen()) && screen().includes("scope: all projects"),
      "all projects again",
    );
    tmux("send-keys", "-t", "pick", "C-o");
    await waitFor(
      () => existsSync(out) && readFileSync(out, "utf8").includes(".jsonl"),
      "the printed path",
    );
    expect(readFileSync(out, "utf8").trim()).toBe(
      join(agent.sessionsDir, "--home-dev-shop-api--", FORK_PATH_END),
    );
  });
});
