/**
 * The picker's archive scope in the real `pi` terminal UI, driven through tmux, against a real
 * OpenSearch (scripts/opensearch.sh): Tab goes this folder → all projects → the remote of
 * recall's config.json, whose hits say the machine and user they live on; Enter pulls one from a
 * remote that keeps session files and continues it here (a remote that keeps none says so);
 * a remote that never answers (a real proxy) is one line, and this machine's scopes still answer.
 * Skipped, visibly, without Java, the Pi runtime or tmux.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { startArchiveProxy, type ArchiveProxy } from "./helpers/archive-proxy.js";
import { userMessage } from "./helpers/fixture-files.js";
import { needsOpenSearch, openSearchMissing, openSearchUrl } from "./helpers/opensearch.js";
import {
  FAUX_EXTENSION,
  PI_RUNTIME,
  PI_SKIP_REASON,
  makePiHome,
  type PiHome,
  type PiRuntime,
} from "./helpers/pi-env.js";
import { runRecall } from "./helpers/run-cli.js";
import { piTmux } from "./helpers/tmux.js";
import { skipWithout } from "./helpers/tools.js";

const SKIP = PI_SKIP_REASON || skipWithout("tmux");
const INDEX = "recall-picker-test";
const BOB_SESSION = "0b0b0b0b-3333-7222-8333-944445555666";

describe.skipIf(SKIP !== "" || openSearchMissing)(
  needsOpenSearch(`/recall's archive scope in Pi's terminal UI${SKIP}`),
  () => {
    const runtime = PI_RUNTIME as PiRuntime;
    const socket = `recall-remote-test-${process.pid}`;
    let env: PiHome;
    let bob: AgentDir;
    let url = "";
    let hanging: ArchiveProxy;
    let tmuxEnv: NodeJS.ProcessEnv;

    const { tmux, waitFor, submit, stop } = piTmux(socket, () => tmuxEnv);

    /** recall's config.json in the Pi home: the picker reads it each time it opens. */
    function configure(team: Record<string, unknown>): void {
      mkdirSync(join(env.agentDir, "recall"), { recursive: true });
      writeFileSync(
        join(env.agentDir, "recall", "config.json"),
        JSON.stringify({ picker: { scope: "current" }, remotes: { team } }),
      );
    }

    beforeAll(async () => {
      url = await openSearchUrl();
      // Bob's session, pushed from his desktop: this machine has no file of it.
      bob = makeAgentDir({ withFixtures: false });
      const folder = join(bob.sessionsDir, "--home-bob-shop-api--");
      mkdirSync(folder, { recursive: true });
      const ms = Date.parse("2026-10-05T08:00:00Z");
      const header = JSON.stringify({
        type: "session",
        version: 3,
        id: BOB_SESSION,
        timestamp: new Date(ms).toISOString(),
        cwd: "/home/bob/shop-api",
      });
      writeFileSync(
        join(folder, `2026-10-05T08-00-00-000Z_${BOB_SESSION}.jsonl`),
        `${header}\n${userMessage("b0000001", "The numbat rollout on the staging cluster", ms)}`,
      );
      expect(
        (
          await runRecall(
            [
              "remote",
              "add",
              "team",
              url,
              "--index",
              INDEX,
              "--machine",
              "desktop",
              "--user",
              "bob",
            ],
            { env: bob.env },
          )
        ).stderr,
      ).toBe("");
      expect((await runRecall(["push", "--remote", "team"], { env: bob.env })).stderr).toBe("");
      await fetch(`${url}/${INDEX}/_refresh`, { method: "POST" });
      hanging = await startArchiveProxy(url, { hang: true });

      env = makePiHome();
      configure({ url, index: INDEX });
      tmuxEnv = { ...env.env, TERM: "xterm-256color", RECALL_FAUX_SCRIPT: "[]" };
      const command = [
        runtime.node,
        runtime.cli,
        "-e",
        env.pkg,
        "-e",
        FAUX_EXTENSION,
        "--model",
        "recall-faux/scripted",
        "--api-key",
        "faux",
      ]
        .map((a) => `'${a.replace(/'/g, "'\\''")}'`)
        .join(" ");
      tmux(
        "new-session",
        "-d",
        "-s",
        "pi",
        "-x",
        "120",
        "-y",
        "40",
        "-c",
        env.projects["shop-api"],
        command,
      );
      await waitFor("Pi to start", (s) => s.includes("scripted"));
    }, 300_000);

    afterAll(async () => {
      // Pi may still be writing the index: it is gone before its folder is deleted.
      await stop();
      await hanging?.close();
      env?.cleanup();
      bob?.cleanup();
    });

    it("Tab reaches the remote after all projects; its hits say where they live, and Enter on a remote keeping no files says so instead of resuming", async () => {
      await submit("/recall numbat");
      await waitFor(
        "the picker on this folder",
        (s) => s.includes("╭─ recall") && s.includes("this folder: shop-api"),
      );
      tmux("send-keys", "-t", "pi", "Tab");
      await waitFor(
        "all projects",
        (s) => s.includes("all projects ─") && s.includes("Tab team (archive)"),
      );
      tmux("send-keys", "-t", "pi", "Tab");
      const team = await waitFor(
        "the archive's hit",
        (s) =>
          s.includes("team (archive) ─") &&
          s.includes("on desktop (bob)") &&
          s.includes("1 session in remote team (every machine)"),
      );
      expect(team).toContain("The numbat rollout on the staging cluster");
      expect(team).toContain("1 session in remote team (every machine)");
      expect(team).toContain("Enter pull and resume · Tab this folder");
      expect(team).not.toContain(url);
      tmux("send-keys", "-t", "pi", "Enter");
      await waitFor(
        "where it lives",
        (s) =>
          s.includes(
            "That session lives on desktop (bob, in remote team), not on this machine: remote team keeps no",
          ) && s.includes("╭─ recall"),
      );
      tmux("send-keys", "-t", "pi", "Tab");
      await waitFor(
        "this folder again",
        (s) => s.includes("this folder: shop-api") && !s.includes("on desktop (bob)"),
      );
      tmux("send-keys", "-t", "pi", "Escape");
      await waitFor("the picker to close", (s) => !s.includes("╭─ recall"));
    });

    it("Enter on an archived session of a remote keeping files pulls it and continues it here (its folder is not here: a fork)", async () => {
      expect(
        (
          await runRecall(
            [
              "remote",
              "add",
              "team",
              url,
              "--index",
              INDEX,
              "--keep-files",
              "--machine",
              "desktop",
              "--user",
              "bob",
            ],
            { env: bob.env },
          )
        ).stderr,
      ).toBe("");
      expect((await runRecall(["push", "--remote", "team"], { env: bob.env })).stderr).toBe("");
      configure({ url, index: INDEX, keepFiles: true });
      await submit("/recall numbat");
      await waitFor("the picker", (s) => s.includes("╭─ recall"));
      tmux("send-keys", "-t", "pi", "Tab");
      tmux("send-keys", "-t", "pi", "Tab");
      await waitFor(
        "the archive's hit",
        (s) => s.includes("team (archive) ─") && s.includes("on desktop (bob)"),
      );
      tmux("send-keys", "-t", "pi", "Enter");
      await waitFor(
        "the fork offer for the pulled session",
        (s) => s.includes("/home/bob/shop-api no longer exists") && s.includes("Enter fork here"),
      );
      const pulled = join(
        env.agentDir,
        "sessions",
        "--home-bob-shop-api--",
        `2026-10-05T08-00-00-000Z_${BOB_SESSION}.jsonl`,
      );
      expect(existsSync(pulled)).toBe(true);
      tmux("send-keys", "-t", "pi", "Enter");
      // Pi continues the pulled conversation: its message is on screen, outside the picker.
      await waitFor(
        "the fork of the pulled session",
        (s) => !s.includes("╭─ recall") && s.includes("The numbat rollout on the staging cluster"),
      );
    });

    it("a remote that never answers is one line in the picker; this machine's scopes answer as before", async () => {
      configure({ url: hanging.url, index: INDEX, timeout: 1 });
      await submit("/recall staging deploy");
      await waitFor(
        "this folder's results",
        (s) => s.includes("this folder: shop-api") && s.includes("▶ Fix staging deploy"),
      );
      tmux("send-keys", "-t", "pi", "Tab");
      tmux("send-keys", "-t", "pi", "Tab");
      const failed = await waitFor("the remote's one line", (s) =>
        s.includes("remote team did not answer within 1 s while searching"),
      );
      expect(failed).toContain("Remote team could not be searched");
      expect(failed).not.toContain(hanging.url);
      expect(failed).not.toContain(new URL(hanging.url).host);
      tmux("send-keys", "-t", "pi", "Tab");
      await waitFor(
        "this folder's results again",
        (s) =>
          s.includes("this folder: shop-api") &&
          s.includes("▶ Fix staging deploy") &&
          !s.includes("did not answer"),
      );
      tmux("send-keys", "-t", "pi", "Escape");
      await waitFor("the picker to close", (s) => !s.includes("╭─ recall"));
    });
  },
);
