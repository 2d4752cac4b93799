/**
 * Kept session files against a real OpenSearch (scripts/opensearch.sh): a remote with
 * `keepFiles` keeps each pushed session file, redacted, in `<index>-files`; `recall pull` on
 * another machine (another agent folder) writes it where Pi keeps its folder's sessions, byte for
 * byte the redacted original, and recall there finds it, Pi reads it and `recall resume` runs it.
 */
import { spawnSync } from "node:child_process";
import {
  appendFileSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_KEPT_PARTS } from "../src/archive/kept-files.js";
import { redactSessionFile } from "../src/archive/redact-file.js";
import { Recall } from "../src/index.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { userMessage } from "./helpers/fixture-files.js";
import {
  engineApi,
  WORKING_REMOTE_CHECKS,
  needsOpenSearch,
  openSearchMissing,
  openSearchUrl,
} from "./helpers/opensearch.js";
import { PI_RUNTIME } from "./helpers/pi-env.js";
import { jsonLines, runRecall } from "./helpers/run-cli.js";

const INDEX = "recall-pull-test";
const FILES = `${INDEX}-files`;
const ID = "0f0f0f0f-1111-7222-8333-944445555666";
const TOKEN = `${"ghp_"}${"Zx7Qw3rTy9".repeat(4).slice(0, 36)}`;

let url = "";
let laptop: AgentDir;
let desktop: AgentDir;
let project = "";
let sessionFile = "";

const api = (path: string, init?: { method?: string; body?: unknown }) =>
  engineApi(url, path, init);

/** The kept files (after a refresh), by session id. */
async function keptFiles(): Promise<Map<string, any>> {
  await api(`/${FILES}/_refresh`, { method: "POST" });
  const found = await api(`/${FILES}/_search`, { body: { size: 1000, query: { match_all: {} } } });
  return new Map((found.hits?.hits ?? []).map((h: any) => [h._id, h._source]));
}

function assistantEntry(id: string, parentId: string, text: string, ms: number): string {
  const message = {
    role: "assistant",
    content: [
      { type: "text", text },
      {
        type: "toolCall",
        id: "call-1",
        name: "bash",
        arguments: { command: "export OPENAI_API_KEY=sk-live-9f8e7d6c5b4a3f2e1d0c\nnpm test" },
      },
    ],
    api: "faux",
    provider: "faux",
    model: "faux-large",
    usage: {
      input: 1,
      output: 1,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 2,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason: "toolUse",
    timestamp: ms,
  };
  return `${JSON.stringify({ type: "message", id, parentId, timestamp: new Date(ms).toISOString(), message })}\n`;
}

const onLaptop = (args: string[]) => runRecall(args, { env: laptop.env });
const onDesktop = (args: string[], cwd?: string) =>
  runRecall(args, { env: desktop.env, ...(cwd ? { cwd } : {}) });

/**
 * Pi's own reader of the file: its header's id and folder, and the messages it would continue with.
 */
function piReads(path: string): { id: string; cwd: string; messages: number } {
  const module = join(PI_RUNTIME!.cli, "..", "..", "index.js");
  const script = `import { SessionManager, buildSessionContext } from ${JSON.stringify(module)};
const m = SessionManager.open(${JSON.stringify(path)});
console.log(JSON.stringify({ id: m.getHeader().id, cwd: m.getHeader().cwd, messages: buildSessionContext(m.getEntries()).messages.length }));`;
  const run = spawnSync(PI_RUNTIME!.node, ["--input-type=module", "-e", script], {
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout);
}

describe.skipIf(openSearchMissing)(
  needsOpenSearch("pulling a kept session file from a real OpenSearch"),
  () => {
    beforeAll(async () => {
      url = await openSearchUrl();
      laptop = makeAgentDir();
      desktop = makeAgentDir({ withFixtures: false });
      // The session's folder, which both "machines" have (they share this file system).
      project = join(realpathSync(laptop.root), "work", "app");
      mkdirSync(project, { recursive: true });
      const folder = join(laptop.sessionsDir, `--${project.slice(1).replace(/\//g, "-")}--`);
      mkdirSync(folder, { recursive: true });
      sessionFile = join(folder, `2026-10-07T00-00-00-000Z_${ID}.jsonl`);
      const at = Date.parse("2026-10-07T00:00:00Z");
      writeFileSync(
        sessionFile,
        `${JSON.stringify({ type: "session", version: 3, id: ID, timestamp: new Date(at).toISOString(), cwd: project })}\n` +
          userMessage("a0000001", `The kittiwake deploy fails; my token is ${TOKEN}`, at + 1000) +
          assistantEntry("a0000002", "a0000001", "Let me run the kittiwake tests.", at + 2000),
      );
      for (const [agent, machine] of [
        [laptop, "laptop"],
        [desktop, "desktop"],
      ] as const) {
        const added = await runRecall(
          [
            "remote",
            "add",
            "team",
            url,
            "--index",
            INDEX,
            "--keep-files",
            "--machine",
            machine,
            "--user",
            "ada",
          ],
          { env: agent.env },
        );
        expect(added.stderr).toBe("");
      }
      await onDesktop(["remote", "add", "plain", url, "--index", INDEX]);
    }, 300_000);
    afterAll(() => {
      laptop?.cleanup();
      desktop?.cleanup();
    });

    it("remote test checks that a remote keeping files may keep them, and leaves no probe", async () => {
      const tested = await onLaptop(["remote", "test", "team", "--json"]);
      expect(tested.code).toBe(0);
      expect(jsonLines(tested.stdout).map((c) => [c.check, c.ok])).toEqual([
        ...WORKING_REMOTE_CHECKS,
        ["may keep files", true],
      ]);
      expect((await keptFiles()).size).toBe(0);
      const plain = jsonLines((await onDesktop(["remote", "test", "plain", "--json"])).stdout);
      expect(plain.map((c) => c.check)).not.toContain("may keep files");
    });

    it("--dry-run --json shows each session file that would be kept, redacted, and sends nothing", async () => {
      const dry = await onLaptop(["push", "--remote", "team", "--dry-run", "--json"]);
      expect(dry.stderr).toBe("");
      const lines = jsonLines(dry.stdout);
      const files = lines.filter((l) => l.type === "file");
      const file = files.find((f) => f.session_id === ID)!;
      expect(file).toMatchObject({
        file_name: `2026-10-07T00-00-00-000Z_${ID}.jsonl`,
        folder: project,
        machine: "laptop",
        redactions: 2,
      });
      expect(file.content).toBe((await redactSessionFile(readFileSync(sessionFile, "utf8"))).text);
      expect(file.content).not.toContain(TOKEN);
      expect(file.content).not.toContain("sk-live-");
      const last = lines.at(-1)!;
      expect(last).toMatchObject({
        type: "summary",
        dryRun: true,
        files: files.length,
        fileBytes: files.reduce((n, f) => n + (f.bytes as number), 0),
      });
      // The secrets taken out of the kept files are counted apart from the messages' ones.
      const inFiles = files.reduce((n, f) => n + (f.redactions as number), 0);
      expect(
        Object.values(last.fileRedactions as Record<string, number>).reduce((n, c) => n + c, 0),
      ).toBe(inFiles);
      const summary = await onLaptop(["push", "--remote", "team", "--dry-run"]);
      expect(summary.stdout).toMatch(
        new RegExp(
          `^would push \\d+ messages of \\d+ sessions and ${files.length} session files \\([\\d.]+ kB, ${inFiles} secrets? \\([^)]*\\) redacted in them\\)`,
        ),
      );
      expect((await keptFiles()).size).toBe(0);
    });

    it("push keeps every pushed session file, redacted; a second push sends nothing", async () => {
      const pushed = await onLaptop(["push", "--remote", "team", "--json"]);
      expect(pushed.stderr).toBe("");
      const report = jsonLines(pushed.stdout).at(-1)!;
      const kept = await keptFiles();
      expect(kept.size).toBe(report.files);
      expect(kept.get(ID)).toMatchObject({
        session_id: ID,
        folder: project,
        project,
        machine: "laptop",
        user: "ada",
        redactions: 2,
      });
      expect(kept.get(ID).content).toBe(
        (await redactSessionFile(readFileSync(sessionFile, "utf8"))).text,
      );
      expect(JSON.stringify([...kept.values()])).not.toContain(TOKEN);
      // The sessions' index holds messages only.
      await api(`/${INDEX}/_refresh`, { method: "POST" });
      const inSessions = await api(`/${INDEX}/_search`, {
        body: { size: 0, query: { exists: { field: "content" } } },
      });
      expect(inSessions.hits.total.value).toBe(0);
      const again = jsonLines((await onLaptop(["push", "--remote", "team", "--json"])).stdout).at(
        -1,
      )!;
      expect(again).toMatchObject({ messages: 0, files: 0, sessions: 0 });
    });

    it("pull writes the file into the desktop's Pi sessions, byte for byte the redacted original; search, Pi and resume take it", async () => {
      const pulled = await onDesktop(["pull", "--remote", "team", ID.slice(0, 8), "--json"]);
      expect(pulled.stderr).toBe("");
      expect(pulled.code).toBe(0);
      const record = jsonLines(pulled.stdout)[0]!;
      const expected = join(
        desktop.sessionsDir,
        `--${project.slice(1).replace(/\//g, "-")}--`,
        `2026-10-07T00-00-00-000Z_${ID}.jsonl`,
      );
      expect(record).toEqual({
        id: ID,
        path: expected,
        cwd: project,
        movedFrom: null,
        alreadyHere: false,
        origin: { remote: "team", machine: "laptop", user: "ada" },
      });
      expect(
        readFileSync(expected).equals(
          Buffer.from((await redactSessionFile(readFileSync(sessionFile, "utf8"))).text),
        ),
      ).toBe(true);

      const found = jsonLines((await onDesktop(["search", "kittiwake", "--json"])).stdout);
      expect(found.map((hit) => hit.id)).toEqual([ID]);
      expect(found[0]!.path).toBe(expected);
      const resume = jsonLines((await onDesktop(["resume", ID.slice(0, 8), "--json"])).stdout)[0];
      expect(resume).toEqual({ argv: ["pi", "--session", expected], cwd: project });
      if (PI_RUNTIME) expect(piReads(expected)).toEqual({ id: ID, cwd: project, messages: 2 });

      const human = await onDesktop(["pull", "--remote", "team", ID]);
      expect(human.stdout).toBe(`session ${ID} is already here: ${expected}\n`);
      expect(human.code).toBe(0);
    });

    it("never overwrites another version of the session; a remote without kept files is one line", async () => {
      const here = jsonLines(
        (await onDesktop(["pull", "--remote", "team", ID, "--json"])).stdout,
      )[0]!.path as string;
      appendFileSync(
        here,
        userMessage("d0000001", "written on the desktop", Date.parse("2026-10-08T00:00:00Z")),
      );
      const before = readFileSync(here);
      const refused = await onDesktop(["pull", "--remote", "team", ID]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toBe(
        `recall: session ${ID} is already here, as ${here}, and differs from the copy remote team keeps: not overwritten; resume the file that is here, or move it away to pull the archive's copy\n`,
      );
      expect(readFileSync(here).equals(before)).toBe(true);

      const plain = await onDesktop(["pull", "--remote", "plain", ID]);
      expect(plain.code).toBe(2);
      expect(plain.stderr.trim().split("\n")).toHaveLength(1);
      expect(plain.stderr).toContain(
        `remote plain keeps no session files to pull: its config does not set "keepFiles": true`,
      );
      const unknown = await onDesktop(["pull", "--remote", "team", "ffffffff"]);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toMatch(/^recall: remote team keeps no session file ffffffff/);
      rmSync(here);
    });

    it("an appended file sends only its new lines, as a part that pull joins to the rest; a rewritten file is kept whole again", async () => {
      const before = readFileSync(sessionFile, "utf8");
      const appended = userMessage(
        "a0000003",
        `one more kittiwake question, with ${TOKEN} again`,
        Date.parse("2026-10-07T01:00:00Z"),
      );
      appendFileSync(sessionFile, appended);
      const report = jsonLines((await onLaptop(["push", "--remote", "team", "--json"])).stdout).at(
        -1,
      )!;
      // The new message, and the one before it read again (an append may extend it); of the file,
      // its new line.
      const part = (await redactSessionFile(appended)).text;
      expect(part).not.toContain(TOKEN);
      expect(report).toMatchObject({
        messages: 2,
        files: 1,
        sessions: 1,
        fileBytes: Buffer.byteLength(part),
        fileRedactions: { "github-token": 1 },
      });
      let kept = await keptFiles();
      expect(kept.get(ID).content).toBe((await redactSessionFile(before)).text);
      const start = Buffer.byteLength(before);
      expect(kept.get(`${ID}:1`)).toMatchObject({
        session_id: ID,
        part: 1,
        from: start,
        end: start + Buffer.byteLength(appended),
        generation: kept.get(ID).generation,
        content: part,
      });

      // By a prefix of its id too, which its parts share.
      const pulled = jsonLines<{ path: string }>(
        (await onDesktop(["pull", "--remote", "team", ID.slice(0, 8), "--json"])).stdout,
      )[0]!;
      expect(readFileSync(pulled.path, "utf8")).toBe(
        (await redactSessionFile(readFileSync(sessionFile, "utf8"))).text,
      );
      rmSync(pulled.path);

      // Parts another version of the file left (a push killed before it was noted) are not joined.
      const whole = (await redactSessionFile(readFileSync(sessionFile, "utf8"))).text;
      const end = Buffer.byteLength(readFileSync(sessionFile));
      const stale = {
        ...kept.get(`${ID}:1`),
        part: 2,
        from: end,
        end: end + 10,
        content: "stale\n",
      };
      for (const left of [
        { ...stale, generation: "0000000000000000" },
        { ...stale, from: end - 1 },
      ]) {
        await api(`/${FILES}/_doc/${encodeURIComponent(`${ID}:2`)}?refresh=true`, {
          method: "PUT",
          body: left,
        });
        const again = jsonLines<{ path: string }>(
          (await onDesktop(["pull", "--remote", "team", ID, "--json"])).stdout,
        )[0]!;
        expect(readFileSync(again.path, "utf8")).toBe(whole);
        rmSync(again.path);
      }

      // Rewritten: kept whole again, its old parts taken out (the stale ones too).
      writeFileSync(
        sessionFile,
        before.replace("Let me run the kittiwake tests.", "Let me read the kittiwake logs."),
      );
      const rewritten = jsonLines(
        (await onLaptop(["push", "--remote", "team", "--json"])).stdout,
      ).at(-1)!;
      expect(rewritten).toMatchObject({ files: 1, sessions: 1 });
      kept = await keptFiles();
      expect([...kept.keys()].filter((id) => id.startsWith(ID))).toEqual([ID]);
      expect(kept.get(ID)).toMatchObject({
        part: 0,
        from: 0,
        content: (await redactSessionFile(readFileSync(sessionFile, "utf8"))).text,
      });
      const third = jsonLines<{ path: string }>(
        (await onDesktop(["pull", "--remote", "team", ID, "--json"])).stdout,
      )[0]!;
      expect(readFileSync(third.path, "utf8")).toBe(
        (await redactSessionFile(readFileSync(sessionFile, "utf8"))).text,
      );
      rmSync(third.path);
    });

    it(
      "a kept file of 100 parts is kept whole again when it next grows",
      { timeout: 120_000 },
      async () => {
        const archive = Recall.open({ env: laptop.env, showRemoteHosts: true }).archive;
        const line = (n: number) =>
          userMessage(
            `b${String(n).padStart(7, "0")}`,
            `kittiwake note ${n}`,
            Date.parse("2026-10-07T03:00:00Z") + n,
          );
        const grow = async (n: number) => {
          appendFileSync(sessionFile, line(n));
          return archive.push("team");
        };
        for (let n = 1; n < MAX_KEPT_PARTS; n++)
          expect(await grow(n)).toMatchObject({ files: 1, fileBytes: Buffer.byteLength(line(n)) });
        let kept = await keptFiles();
        expect([...kept.keys()].filter((id) => id.startsWith(ID))).toHaveLength(MAX_KEPT_PARTS);
        // Its 100 documents out, the whole file in.
        const whole = await grow(MAX_KEPT_PARTS);
        expect(whole).toMatchObject({
          files: 1,
          fileBytes: Buffer.byteLength(
            (await redactSessionFile(readFileSync(sessionFile, "utf8"))).text,
          ),
        });
        expect(whole.deleted).toBeGreaterThanOrEqual(MAX_KEPT_PARTS);
        kept = await keptFiles();
        expect([...kept.keys()].filter((id) => id.startsWith(ID))).toEqual([ID]);
        expect(kept.get(ID).content).toBe(
          (await redactSessionFile(readFileSync(sessionFile, "utf8"))).text,
        );
      },
    );

    it("a deleted file and a forgotten one are taken out, every part of them", async () => {
      appendFileSync(
        sessionFile,
        userMessage(
          "a0000004",
          "and a last kittiwake question",
          Date.parse("2026-10-07T02:00:00Z"),
        ),
      );
      await onLaptop(["push", "--remote", "team"]);
      expect((await keptFiles()).has(`${ID}:1`)).toBe(true);

      const s3 = "01a0f71f-0380-71ce-a5f6-9af2c7be0ad4";
      expect((await keptFiles()).has(s3)).toBe(true);
      rmSync(
        join(laptop.sessionsDir, "--home-dev-shop-api--", `2026-10-01T11-00-00-000Z_${s3}.jsonl`),
      );
      expect(
        jsonLines((await onLaptop(["push", "--remote", "team", "--json"])).stdout).at(-1),
      ).toMatchObject({ removed: 1 });
      expect((await keptFiles()).has(s3)).toBe(false);

      const forgot = await onLaptop(["push", "--remote", "team", "--forget", ID]);
      expect(forgot.stderr).toBe("");
      expect([...(await keptFiles()).keys()].filter((id) => id.startsWith(ID))).toEqual([]);
      const gone = await onDesktop(["pull", "--remote", "team", ID]);
      expect(gone.code).toBe(2);
    });

    it("a remote no longer told to keep files drops the files it kept", async () => {
      expect((await keptFiles()).size).toBeGreaterThan(0);
      const configFile = join(laptop.agentDir, "recall", "config.json");
      const config = JSON.parse(readFileSync(configFile, "utf8"));
      delete config.remotes.team.keepFiles;
      writeFileSync(configFile, JSON.stringify(config));
      const pushed = await onLaptop(["push", "--remote", "team", "--json"]);
      expect(pushed.stderr).toBe("");
      expect(jsonLines(pushed.stdout).at(-1)).toMatchObject({ files: 0, messages: 0 });
      expect((await keptFiles()).size).toBe(0);
      config.remotes.team.keepFiles = true;
      writeFileSync(configFile, JSON.stringify(config));
      // Kept again: every file, though none changed.
      const again = jsonLines((await onLaptop(["push", "--remote", "team", "--json"])).stdout).at(
        -1,
      )!;
      expect(again.files).toBeGreaterThan(5);
      expect((await keptFiles()).size).toBe(again.files);
    });

    it("a session whose folder is not on this machine continues in a local clone of its repository", async () => {
      const clone = (name: string, remote: string) => {
        const dir = join(realpathSync(laptop.root), name);
        mkdirSync(join(dir, ".git"), { recursive: true });
        writeFileSync(join(dir, ".git", "config"), `[remote "origin"]\n\turl = ${remote}\n`);
        return dir;
      };
      const id = "0a0a0a0a-1111-7222-8333-944445555666";
      const at = Date.parse("2026-10-09T00:00:00Z");
      const laptopClone = clone("tools-laptop", "git@github.com:acme/tools.git");
      const file = join(laptop.sessionsDir, "--tools--", `2026-10-09T00-00-00-000Z_${id}.jsonl`);
      mkdirSync(join(file, ".."), { recursive: true });
      const header = `${JSON.stringify({ type: "session", version: 3, id, timestamp: new Date(at).toISOString(), cwd: laptopClone })}\n`;
      const body = userMessage("t0000001", "the puffin release checklist", at + 1000);
      writeFileSync(file, header + body);
      expect((await onLaptop(["push", "--remote", "team"])).code).toBe(0);
      rmSync(laptopClone, { recursive: true });

      // The desktop has its own clone of acme/tools, known from a session started there.
      const desktopClone = clone("tools-desktop", "https://github.com/acme/tools");
      const localId = "0b0b0b0b-1111-7222-8333-944445555666";
      const localFolder = join(desktop.sessionsDir, "--tools-desktop--");
      mkdirSync(localFolder, { recursive: true });
      writeFileSync(
        join(localFolder, `2026-10-09T00-00-00-000Z_${localId}.jsonl`),
        `${JSON.stringify({ type: "session", version: 3, id: localId, timestamp: new Date(at).toISOString(), cwd: desktopClone })}\n`,
      );

      const pulled = await onDesktop(["pull", "--remote", "team", id]);
      expect(pulled.stderr).toBe("");
      const path = join(
        desktop.sessionsDir,
        `--${desktopClone.slice(1).replace(/\//g, "-")}--`,
        `2026-10-09T00-00-00-000Z_${id}.jsonl`,
      );
      expect(pulled.stdout).toBe(
        `pulled session ${id} (pushed by ada on laptop) from team to ${path}\n` +
          `its folder ${laptopClone} is not on this machine: it continues in ${desktopClone}, a clone of the same repository\n` +
          `resume it with: recall resume ${id}\n`,
      );
      expect(readFileSync(path, "utf8")).toBe(
        `${JSON.stringify({ type: "session", version: 3, id, timestamp: new Date(at).toISOString(), cwd: desktopClone })}\n${body}`,
      );
      expect(jsonLines((await onDesktop(["resume", id, "--json"])).stdout)[0]).toEqual({
        argv: ["pi", "--session", path],
        cwd: desktopClone,
      });
    });
  },
);
