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
import { RECALL_BIN, runRecall } from "./helpers/run-cli.js";
import { tmuxDriver } from "./helpers/tmux.js";
import { skipWithout } from "./helpers/tools.js";

const WITHOUT_TMUX_FZF = skipWithout("tmux", "fzf");
const FORK_PATH_END = "2026-10-01T11-00-00-000Z_01a0f71f-0380-71ce-a5f6-9af2c7be0ad4.jsonl";

describe("recall pick without fzf", () => {
  it("says in one line that fzf is needed and how to get it", async () => {
    const agent = makeAgentDir();
    try {
      const result = await runRecall(["pick"], { env: { ...agent.env, PATH: mkdtempSync(join(tmpdir(), "empty-path-")) } });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(/^recall: pick needs fzf 0\.38 or later, and none is on PATH: install it \(apt install fzf/);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
    } finally {
      agent.cleanup();
    }
  });
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
    tmux("send-keys", "-t", "pick", "forkonly");
    // The fork is listed, and the preview shows its own message with the typed word.
    await waitFor(() => /1\/1/.test(screen()) && screen().includes("forkonlyword"), "the fork in the list and its preview");
    expect(screen()).toContain("Fix staging deploy");
    // ctrl-t: only sessions of this folder (the temp dir has none); ctrl-t again: all projects.
    tmux("send-keys", "-t", "pick", "C-t");
    await waitFor(() => /0\/0/.test(screen()), "the folder scope");
    tmux("send-keys", "-t", "pick", "C-t");
    await waitFor(() => /1\/1/.test(screen()), "all projects again");
    tmux("send-keys", "-t", "pick", "C-o");
    await waitFor(() => existsSync(out) && readFileSync(out, "utf8").includes(".jsonl"), "the printed path");
    expect(readFileSync(out, "utf8").trim()).toBe(join(agent.sessionsDir, "--home-dev-shop-api--", FORK_PATH_END));
  });
});
