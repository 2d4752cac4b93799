/**
 * Small things people saw: help wrote an option's value as `#0` and `--no-sync` as `[--sync]`;
 * `pick` with no (or too old an) fzf; the picker's preview showing an error while nothing
 * matches; snippets that dropped the punctuation after their last word.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "../helpers/agent-dir.js";
import { jsonLines, RECALL_BIN, runRecall } from "../helpers/run-cli.js";
import { tmuxDriver } from "../helpers/tmux.js";
import { skipWithout } from "../helpers/tools.js";

const WITHOUT_TMUX_FZF = skipWithout("tmux", "fzf");
const WITHOUT_SCRIPT = skipWithout("script");

let dir: AgentDir;
beforeAll(() => {
  dir = makeAgentDir();
});
afterAll(() => dir.cleanup());

describe("help", () => {
  it.each(["search", "list", "read", "context", "index", "tag"])(
    "%s --help names option values <value>, never #0",
    async (command) => {
      const result = await runRecall([command, "--help"], { env: dir.env });
      expect(result.code).toBe(0);
      expect(result.stdout).not.toContain("#0");
    },
  );

  it("search --help shows --limit N and --no-sync, not --sync", async () => {
    const { stdout } = await runRecall(["search", "--help"], { env: dir.env });
    expect(stdout).toMatch(/^ {2}-n, --limit N +Show at most N sessions \(default 20\)$/m);
    expect(stdout).toMatch(/^ {2}--no-sync +Answer from the index as it is/m);
    expect(stdout).not.toMatch(/^ {2}--sync\b/m);
  });

  it("--no-sync still works", async () => {
    await runRecall(["index"], { env: dir.env });
    const result = await runRecall(["search", "--no-sync", "--json", "database"], { env: dir.env });
    expect(result.code).toBe(0);
  });
});

describe("pick and its fzf", () => {
  it.skipIf(WITHOUT_SCRIPT !== "")(
    `an fzf older than 0.38 is named with its version, in one line${WITHOUT_SCRIPT}`,
    async () => {
      const bin = join(dir.root, "old-fzf");
      mkdirSync(bin);
      writeFileSync(join(bin, "fzf"), "#!/bin/sh\necho '0.29.0 (debian)'\n");
      chmodSync(join(bin, "fzf"), 0o755);
      await runRecall(["index"], { env: dir.env });
      // On a terminal of its own (util-linux `script`), as pick needs one before it looks for fzf.
      const run = spawnSync(
        "script",
        [
          "-qec",
          `PATH=${bin}:${process.env.PATH} ${process.execPath} ${RECALL_BIN} pick`,
          "/dev/null",
        ],
        { env: dir.env, encoding: "utf8" },
      );
      expect(run.status).toBe(2);
      expect(run.stdout.replace(/\r/g, "")).toMatch(
        /^recall: pick needs fzf 0\.38 or later, and the fzf on PATH is 0\.29: install it \(.*\)\n$/,
      );
    },
  );

  describe.skipIf(WITHOUT_TMUX_FZF !== "")(
    `the preview in tmux with fzf${WITHOUT_TMUX_FZF}`,
    () => {
      const socket = `recall-tidy-${process.pid}`;
      const { tmux, screen, waitFor } = tmuxDriver(socket);
      afterAll(async () => {
        spawnSync("tmux", ["-L", socket, "kill-server"]);
        await new Promise((resolve) => setTimeout(resolve, 300));
      });

      it("shows nothing, not an error, while no session matches", async () => {
        const env = Object.entries({ ...dir.env, TERM: "xterm-256color" })
          .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
          .join(" ");
        tmux(
          "new-session",
          "-d",
          "-s",
          "pick",
          "-x",
          "160",
          "-y",
          "40",
          `env -i ${env} ${JSON.stringify(process.execPath)} ${JSON.stringify(RECALL_BIN)} pick; sleep 60`,
        );
        await waitFor(() => screen().includes("recall>"), "the picker");
        tmux("send-keys", "-t", "pick", "zzqqnomatchqqzz");
        await waitFor(() => /0\/0/.test(screen()), "no match");
        // Long enough for a preview command to start, fail and print.
        await new Promise((r) => setTimeout(r, 1500));
        expect(screen()).not.toMatch(/recall:|no session/);
      });
    },
  );
});

describe("snippets", () => {
  it("keep the punctuation after their last word", async () => {
    const result = await runRecall(["search", "--json", "rollout restart thanks"], {
      env: dir.env,
    });
    const snippets = jsonLines<{ snippet: string }>(result.stdout).map((hit) => hit.snippet);
    expect(snippets).toContain(
      "Done, the staging deploy is green again after the kubectl rollout restart. Thanks!",
    );
  });
});
