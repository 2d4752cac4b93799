/**
 * `recall doctor` finds what is wrong, says which command fixes it, and exits 2 until it is fixed;
 * every line it prints is true (a machine where Pi never ran passes, with no index made), and every
 * fix is one that works there (run here as the user would run it, with `sh`).
 */
import { execFileSync, spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "../helpers/agent-dir.js";
import { damageFile, segmentFiles } from "../helpers/damage.js";
import { jsonLines, RECALL_BIN, runRecall } from "../helpers/run-cli.js";
import { isRoot, makeTmpfsCache } from "../helpers/tmpfs-cache.js";
import { MODEL_PACKAGE, MODEL_SKIP_REASON } from "../helpers/model-package.js";

/**
 * Whether user nobody can reach this checkout's recall (a checkout under a private folder cannot
 * be).
 */
const nobodyRunsRecall =
  isRoot &&
  spawnSync(
    "setpriv",
    ["--reuid=65534", "--regid=65534", "--clear-groups", "test", "-r", RECALL_BIN],
    { stdio: "ignore" },
  ).status === 0;

let agent: AgentDir;
afterEach(() => agent?.cleanup());

interface Check {
  type: string;
  name: string;
  ok: boolean;
  message: string;
  fix: string | null;
}

async function doctor(
  args: string[] = [],
  env: NodeJS.ProcessEnv = agent.env,
): Promise<{ code: number | null; checks: Check[]; summary: Record<string, unknown> }> {
  const result = await runRecall(["doctor", "--json", ...args], { env });
  const lines = jsonLines<Check>(result.stdout);
  return {
    code: result.code,
    checks: lines.filter((l) => l.type === "check"),
    summary: lines.at(-1) as unknown as Record<string, unknown>,
  };
}

const failing = (checks: Check[]) => checks.filter((c) => !c.ok).map((c) => [c.name, c.fix]);
const check = (checks: Check[], name: string) => checks.find((c) => c.name === name)!;

/** Runs a fix as a user would paste it. */
const runFix = (fix: string) => execFileSync("sh", ["-c", fix], { stdio: "pipe" });

describe("recall doctor", () => {
  it("a healthy setup: every check passes, exit 0", async () => {
    agent = makeAgentDir();
    expect((await runRecall(["index"], { env: agent.env })).code).toBe(0);
    expect((await runRecall(["tag", "01a0f6b1", "checked"], { env: agent.env })).code).toBe(0);
    const { code, checks, summary } = await doctor();
    expect(checks.map((c) => c.name)).toEqual([
      "sessions",
      "index",
      "meaning",
      "tags",
      "config",
      "watcher",
    ]);
    expect(check(checks, "meaning").message).toMatch(
      /no meaning model \(recall-pi-model-minilm is not installed\): searches are by words/,
    );
    expect(failing(checks)).toEqual([]);
    expect(summary).toEqual({ type: "summary", ok: true, checks: 6, failed: 0 });
    expect(code).toBe(0);
    const human = await runRecall(["doctor"], { env: agent.env });
    expect(human.stdout).toMatch(/^ok {4}sessions: /);
    expect(human.code).toBe(0);
  });

  it("no index yet is no failure (the first search builds it); an index behind the session files: `recall index`; a damaged index file: `recall index --rebuild`", async () => {
    agent = makeAgentDir();
    const fresh = await doctor();
    expect(failing(fresh.checks)).toEqual([]);
    expect(fresh.code).toBe(0);
    expect(check(fresh.checks, "index").message).toMatch(
      /^no index yet at .*: the first search builds it from the \d+ session files$/,
    );
    await runRecall(["index"], { env: agent.env });
    const project = join(agent.sessionsDir, readdirSync(agent.sessionsDir)[0]!);
    const first = readdirSync(project).find((name) => name.endsWith(".jsonl"))!;
    copyFileSync(join(project, first), join(project, `2026-12-01T00-00-00-000Z_copy.jsonl`));
    expect(failing((await doctor()).checks)).toEqual([["index", "recall index"]]);
    await runRecall(["index"], { env: agent.env });
    // Damage no write made (the file's time kept): only a check of every file finds it.
    damageFile(segmentFiles(join(agent.agentDir, "cache", "recall", "index"), "pos")[0]!, 5, {
      keepTime: true,
    });
    const damaged = await doctor();
    expect(damaged.code).toBe(2);
    expect(failing(damaged.checks)).toEqual([["index", "recall index --rebuild"]]);
    // Found by the check of every file, or already when opening (a file changed within the last
    // commit's second is checked then): either way the damaged file is named.
    expect(damaged.checks[1]!.message).toMatch(
      /^1 file of .* is missing, empty or fails its checksum \(.*\.pos\)|failed their checksum: .*\.pos/,
    );
    expect((await runRecall(["index", "--rebuild"], { env: agent.env })).code).toBe(0);
    expect((await doctor()).code).toBe(0);
  });

  it("a garbage tag database, a config that does not parse, a sessions folder that is not there", async () => {
    agent = makeAgentDir();
    await runRecall(["index"], { env: agent.env });
    mkdirSync(join(agent.agentDir, "recall"), { recursive: true });
    writeFileSync(
      join(agent.agentDir, "recall", "tags.db"),
      "this is not a database, it only has its name\n".repeat(100),
    );
    writeFileSync(join(agent.agentDir, "recall", "config.json"), "{ picker: ");
    const { code, checks, summary } = await doctor();
    expect(code).toBe(2);
    expect(failing(checks).map(([name]) => name)).toEqual(["tags", "config"]);
    expect(checks.find((c) => c.name === "tags")!.message).toMatch(
      /cannot be read as a tag database/,
    );
    expect(summary).toMatchObject({ ok: false, failed: 2 });

    const missing = await doctor(["--sessions-dir", join(agent.root, "no-such-folder")]);
    expect(missing.code).toBe(2);
    expect(missing.checks[0]).toMatchObject({
      name: "sessions",
      ok: false,
      message: expect.stringContaining("no-such-folder"),
    });
    const human = await runRecall(["doctor"], { env: agent.env });
    expect(human.stdout).toMatch(/^FAIL {2}tags: .*\n {6}fix: /m);
    expect(human.stderr).toBe("recall: 2 of 6 checks failed\n");
  });
});

describe("recall doctor says what is true", () => {
  it("a machine where Pi never ran: every check passes, and no index is made", async () => {
    agent = makeAgentDir({ withFixtures: false });
    // Pi's own default folders, chosen by no setting: HOME alone.
    const env = { PATH: process.env.PATH, HOME: agent.root };
    const { code, checks } = await doctor([], env);
    expect(failing(checks)).toEqual([]);
    expect(code).toBe(0);
    expect(check(checks, "sessions").message).toBe(
      `no Pi sessions yet at ${join(agent.root, ".pi", "agent", "sessions")} (Pi writes them there)`,
    );
    expect(check(checks, "index").message).toMatch(
      /^no index yet at .*, and no session files to index$/,
    );
    expect(existsSync(join(agent.root, ".pi", "agent", "cache", "recall", "index"))).toBe(false);
  });

  it("counts files and sessions apart: a file without messages is read, not a session", async () => {
    agent = makeAgentDir();
    await runRecall(["index"], { env: agent.env });
    const message = check((await doctor()).checks, "index").message;
    const [, files, sessions, empty] =
      /all (\d+) readable session files indexed: (\d+) sessions, (\d+) files? without messages$/.exec(
        message,
      ) ?? [];
    expect(Number(files)).toBe(Number(sessions) + Number(empty));
    expect(Number(empty)).toBeGreaterThan(0);
  });

  it("a session file that cannot be read: named under sessions with a fix other than `recall index`, and the index is not called behind", async () => {
    agent = makeAgentDir();
    const project = join(agent.sessionsDir, readdirSync(agent.sessionsDir)[0]!);
    const loop = join(project, "2026-10-02T00-00-00-000Z_loop.jsonl");
    symlinkSync(loop, loop);
    await runRecall(["index"], { env: agent.env });
    const { code, checks } = await doctor();
    expect(code).toBe(2);
    expect(failing(checks).map(([name]) => name)).toEqual(["sessions"]);
    expect(check(checks, "sessions").message).toMatch(
      new RegExp(
        `^1 of the \\d+ session files cannot be read, and are skipped: ${loop} \\(ELOOP \\(stat\\)\\)$`,
      ),
    );
    expect(check(checks, "sessions").fix).toBe(
      `move ${loop} out of ${agent.sessionsDir}: recall cannot read them`,
    );
  });

  it.skipIf(!nobodyRunsRecall)(
    `a session file the user may not read (another user's): the fix gives them read permission${nobodyRunsRecall ? "" : " (skipped: needs root, and a checkout user nobody can read)"}`,
    async () => {
      agent = makeAgentDir();
      await runRecall(["index"], { env: agent.env });
      const project = join(agent.sessionsDir, readdirSync(agent.sessionsDir)[0]!);
      const secret = join(project, readdirSync(project)[0]!);
      chmodSync(secret, 0o600);
      chmodSync(agent.root, 0o755);
      // Doctor run by another user (nobody), for whom root's 0600 file cannot be read.
      const run = spawnSync(
        "setpriv",
        [
          "--reuid=65534",
          "--regid=65534",
          "--clear-groups",
          process.execPath,
          RECALL_BIN,
          "doctor",
          "--json",
        ],
        { env: agent.env, encoding: "utf8" },
      );
      const checks = jsonLines<Check>(run.stdout).filter((l) => l.type === "check");
      expect(check(checks, "sessions").message).toMatch(
        new RegExp(`cannot be read, and are skipped: ${secret} \\(EACCES\\)$`),
      );
      expect(check(checks, "sessions").fix).toBe(
        `sudo chown "$(id -u)" ${secret} && chmod u+rX ${secret}`,
      );
    },
  );

  it("a sessions folder a setting names that is not there: the fix names that setting", async () => {
    agent = makeAgentDir();
    const missing = await doctor(["--sessions-dir", join(agent.root, "no-such-folder")]);
    expect(check(missing.checks, "sessions")).toMatchObject({
      ok: false,
      message: `there is no sessions folder at ${join(agent.root, "no-such-folder")}`,
      fix: "give --sessions-dir the folder Pi writes its sessions to",
    });
    const byEnv = await doctor([], {
      ...agent.env,
      PI_CODING_AGENT_SESSION_DIR: join(agent.root, "gone"),
    });
    expect(check(byEnv.checks, "sessions").fix).toBe(
      "set PI_CODING_AGENT_SESSION_DIR to the folder Pi writes its sessions to, or unset it",
    );
  });

  it("paths in fixes are quoted for the shell: the fix for a damaged tag database in a folder with a space works", async () => {
    agent = makeAgentDir();
    const data = join(agent.root, "my data");
    const env = { ...agent.env, RECALL_DATA_DIR: data };
    expect((await runRecall(["tag", "01a0f6b1", "kept"], { env })).code).toBe(0);
    writeFileSync(
      join(data, "tags.db"),
      "this is not a database, it only has its name\n".repeat(100),
    );
    const tags = check((await doctor([], env)).checks, "tags");
    expect(tags.fix).toBe(
      `mv '${data}/tags.db' '${data}/tags.db.damaged' && touch '${data}/tags.db'  # the next search takes back the tags the index holds`,
    );
    runFix(tags.fix!);
    const found = await runRecall(["search", "--json", "#kept"], { env });
    expect(jsonLines<{ id: string }>(found.stdout).map((h) => h.id)).toEqual([
      "01a0f6b1-2680-79e3-a1fa-30b6f0582ef5",
    ]);
    expect((await doctor([], env)).code).toBe(0);
  });

  it.skipIf(!isRoot)(
    `a read-only cache: the fix is a writable cache folder, not \`recall index\` (which cannot write there)${isRoot ? "" : " (skipped: needs root to mount a tmpfs)"}`,
    async () => {
      const cache = makeTmpfsCache("16m");
      try {
        agent = cache.agent;
        const env = { ...agent.env, RECALL_CACHE_DIR: cache.cacheDir };
        expect((await runRecall(["index"], { env })).code).toBe(0);
        writeFileSync(
          join(
            agent.sessionsDir,
            readdirSync(agent.sessionsDir)[0]!,
            "2026-10-05T00-00-00-000Z_ro.jsonl",
          ),
          "",
        );
        execFileSync("mount", ["-o", "remount,ro", cache.mountPoint]);
        const index = check((await doctor([], env)).checks, "index");
        expect(index.ok).toBe(false);
        expect(index.fix).toBe(
          `make ${cache.cacheDir} writable, or set RECALL_CACHE_DIR to a folder that is; then recall index`,
        );
      } finally {
        cache.cleanup();
        agent = undefined!;
      }
    },
  );

  it.skipIf(!MODEL_PACKAGE)(
    `the meaning model and index: a model that does not load, a meaning index behind the conversation, one that cannot be kept${MODEL_SKIP_REASON}`,
    async () => {
      agent = makeAgentDir();
      const env = { ...agent.env, RECALL_MODEL_DIR: MODEL_PACKAGE };
      expect((await runRecall(["index"], { env })).code).toBe(0);
      const behind = await doctor([], env);
      expect(check(behind.checks, "meaning").message).toMatch(
        /loads \((int8|float32)\); the meaning index holds 0 of \d+ messages$/,
      );
      expect(failing(behind.checks)).toEqual([["meaning", "recall index --meaning"]]);
      expect(behind.code).toBe(2);
      expect(
        (await runRecall(["index", "--meaning", "-q"], { env, timeoutMs: 120_000 })).code,
      ).toBe(0);
      const built = await doctor([], env);
      expect(failing(built.checks)).toEqual([]);
      expect(check(built.checks, "meaning").message).toMatch(
        /the meaning index holds (\d+) of \1 messages$/,
      );
      // A damaged model: its file cut short.
      const damaged = join(agent.root, "model");
      mkdirSync(damaged);
      symlinkSync(join(MODEL_PACKAGE!, "tokenizer.json"), join(damaged, "tokenizer.json"));
      writeFileSync(join(damaged, "model.onnx"), "not a model");
      const broken = await doctor([], { ...env, RECALL_MODEL_DIR: damaged });
      expect(check(broken.checks, "meaning").message).toMatch(
        /the meaning model's .*model\.onnx is damaged/,
      );
      expect(failing(broken.checks)).toEqual([
        [
          "meaning",
          "set RECALL_MODEL_DIR to a folder holding the model package (model.onnx, tokenizer.json), or unset it",
        ],
      ]);
      // RECALL_MEANING=off: as without the model.
      expect(
        check((await doctor([], { ...env, RECALL_MEANING: "off" })).checks, "meaning"),
      ).toMatchObject({ ok: true, message: expect.stringMatching(/turned off/) });
    },
    180_000,
  );
});
