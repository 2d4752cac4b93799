/**
 * The picker in the real `pi` terminal UI, driven through tmux: type `/recall <query>`, read the
 * overlay off the screen with `capture-pane`, press Enter, and check that Pi switched to the
 * session that was picked. Needs tmux and the Pi runtime (scripts/pi-runtime.sh); skipped,
 * visibly, without them.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonLines, runRecall } from "./helpers/run-cli.js";
import {
  FAUX_EXTENSION,
  PI_RUNTIME,
  PI_SKIP_REASON,
  makePiHome,
  projectSessionDir,
  type PiHome,
  type PiRuntime,
} from "./helpers/pi-env.js";
import { startModelServer, type ModelServer } from "./helpers/model-server.js";
import { piTmux } from "./helpers/tmux.js";
import { skipWithout } from "./helpers/tools.js";

const SKIP = PI_SKIP_REASON || skipWithout("tmux");

const S3 = "01a0f71f-0380-71ce-a5f6-9af2c7be0ad4";
const D5 = "01a0f89f-8900-7c35-8cbf-ea1052d39058";

describe.skipIf(SKIP !== "")(`/recall in Pi's terminal UI${SKIP}`, () => {
  const runtime = PI_RUNTIME as PiRuntime;
  const socket = `recall-test-${process.pid}`;
  let env: PiHome;
  let tmuxEnv: NodeJS.ProcessEnv;
  let model: ModelServer;

  const { tmux, waitFor, submit, stop } = piTmux(socket, () => tmuxEnv);

  beforeAll(async () => {
    env = makePiHome();
    // Auto-tagging asks a local model server, chosen in recall's config.
    model = await startModelServer();
    model.register(env.agentDir);
    mkdirSync(join(env.agentDir, "recall"), { recursive: true });
    writeFileSync(
      join(env.agentDir, "recall", "config.json"),
      JSON.stringify({ autoTags: { model: "local/tagger" } }),
    );
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
    // Pi is ready when its footer names the model.
    await waitFor("Pi to start", (s) => s.includes("scripted"));
  });

  afterAll(async () => {
    // Pi may still be writing the index: it is gone before its folder is deleted.
    await stop();
    await model?.close();
    env?.cleanup();
  });

  it("opens the picker on /recall <query>, and Enter resumes the chosen session", async () => {
    await submit("/recall staging forkonlyword");
    const picker = await waitFor(
      "the picker with results",
      (s) => s.includes("╭─ recall") && s.includes("▶ Fix staging deploy"),
    );
    expect(picker).toContain("> staging forkonlyword");
    expect(picker).toContain("all projects");
    expect(picker).toMatch(/shop-api · \d+mo ago/);
    expect(picker).toMatch(/ 1\/\d+ │/);
    // Every line of the box is as wide as its top border.
    const box = picker.split("\n").filter((l) => /[│╭╰├]/.test(l));
    const left = box[0]!.indexOf("╭");
    const right = box[0]!.indexOf("╮");
    for (const line of box) {
      expect([...line][left] ?? "", line).toMatch(/[│╭╰├]/);
    }
    expect(right).toBeGreaterThan(left);

    tmux("send-keys", "-t", "pi", "Enter");
    const resumed = await waitFor(
      "the resumed session",
      (s) => !s.includes("╭─ recall") && s.includes("• Fix staging deploy"),
    );
    // The fork's own last turn is on screen: Pi opened that session, not its parent.
    expect(resumed).toContain("forkonlyword");

    // Name the session Pi now has open, and check it from outside with the CLI.
    await submit("/recall tag #picked");
    await waitFor("the tag confirmation", (s) => s.includes("Tagged this session #picked"));
    const found = await runRecall(["search", "--json", "--no-sync", "#picked"], { env: env.env });
    expect(jsonLines<{ id: string }>(found.stdout).map((h) => h.id)).toEqual([S3]);
  });

  it("refuses to resume the session it is in, and forks a session whose folder is gone", async () => {
    await submit("/recall forkonlyword");
    await waitFor(
      "the picker",
      (s) => s.includes("▶ Fix staging deploy") && s.includes("· current"),
    );
    tmux("send-keys", "-t", "pi", "Enter");
    await waitFor("the refusal", (s) => s.includes("That is the session you are in already."));
    tmux("send-keys", "-t", "pi", "Escape");
    await waitFor("the picker to close", (s) => !s.includes("╭─ recall"));

    await submit("/recall aftermodechangeword");
    await waitFor("the picker", (s) => s.includes("▶ beforemodechangeword"));
    tmux("send-keys", "-t", "pi", "Enter");
    await waitFor(
      "the missing folder notice",
      (s) => s.includes("no longer exists") && s.includes("Enter fork here"),
    );
    tmux("send-keys", "-t", "pi", "Enter");
    // Pi says so once the switch is done: keys typed before it can be lost with the old editor.
    await waitFor(
      "the fork",
      (s) =>
        !s.includes("╭─ recall") &&
        s.includes("Rollback: drop the index") &&
        s.includes("Resumed session"),
    );

    const dir = projectSessionDir(env.sessionsDir, env.projects["shop-api"]);
    const forksOfD5 = () =>
      readdirSync(dir)
        .map((f) => readFileSync(join(dir, f), "utf8").split("\n")[0]!)
        .filter((line) => line.trim())
        .map((line) => JSON.parse(line) as { cwd: string; parentSession?: string })
        .filter((h) => h.parentSession?.includes(D5));
    // The screen can show the fork before Pi has written its file.
    const deadline = Date.now() + 10_000;
    while (forksOfD5().length === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    const forks = forksOfD5();
    expect(forks).toHaveLength(1);
    expect(forks[0]!.cwd).toBe(env.projects["shop-api"]);
  });

  it("/recall model picks among Pi's models and saves the choice in recall's config", async () => {
    // A space after the word closes the completion menu, whose Enter would only complete the word.
    tmux("send-keys", "-t", "pi", "-l", "/recall model");
    await waitFor(
      "the command and its completion",
      (s) => s.includes("/recall model") && s.includes("choose the model autotag"),
    );
    tmux("send-keys", "-t", "pi", "-l", " ");
    await waitFor("the completion menu to close", (s) => !s.includes("choose the model autotag"));
    tmux("send-keys", "-t", "pi", "Enter");
    const dialog = await waitFor(
      "the model picker",
      (s) => s.includes("Model for auto-tagging and asking") && s.includes("local/tagger"),
    );
    const rows = dialog
      .split("\n")
      .filter((l) => /^\s*(→\s+)?(local\/tagger|recall-faux\/scripted)\s*$/.test(l));
    // Down to local/tagger from the first row, then Enter.
    const target = rows.findIndex((l) => l.includes("local/tagger"));
    for (let i = 0; i < target; i++) tmux("send-keys", "-t", "pi", "Down");
    tmux("send-keys", "-t", "pi", "Enter");
    await waitFor("the confirmation", (s) =>
      s.includes("Auto-tagging and asking now use local/tagger"),
    );
    const config = JSON.parse(readFileSync(join(env.agentDir, "recall", "config.json"), "utf8"));
    expect(config).toEqual({ autoTags: { model: "local/tagger" }, ask: { model: "local/tagger" } });
  });

  it("/recall autotag --all-untagged asks first, shows its progress, and Esc stops it keeping what was tagged", async () => {
    model.script({ text: '{"tags": ["alpha", "beta", "gamma"]}', delayMs: 1500 });
    await submit("/recall autotag --all-untagged");
    const asked = await waitFor("the confirmation", (s) =>
      /Auto-tag \d+ untagged sessions\?/.test(s),
    );
    expect(asked).toMatch(
      /one request each, to local\/tagger\. The provider may charge for them\./,
    );
    expect(model.requests).toHaveLength(0);
    tmux("send-keys", "-t", "pi", "Enter");
    await waitFor(
      "the progress overlay",
      (s) =>
        s.includes("Auto-tagging") && s.includes("with local/tagger") && s.includes("Esc stops"),
    );
    await waitFor("the first session tagged", (s) => /\[#+-*\] 1\/\d+/.test(s));
    tmux("send-keys", "-t", "pi", "Escape");
    const stopped = await waitFor("the summary", (s) =>
      /Auto-tagged \d+ of \d+ sessions with local\/tagger.*stopped/.test(s),
    );
    const [, tagged, total] = /Auto-tagged (\d+) of (\d+) sessions/.exec(stopped)!;
    expect(Number(tagged)).toBeGreaterThanOrEqual(1);
    expect(Number(tagged)).toBeLessThan(Number(total));
    const all = await runRecall(["list", "--json", "--no-sync", "-n", "100"], { env: env.env });
    const autoTagged = jsonLines<{ tags: string[] }>(all.stdout).filter((s) =>
      s.tags.includes("alpha"),
    );
    expect(autoTagged).toHaveLength(Number(tagged));
  });
});
