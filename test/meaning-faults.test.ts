/**
 * Meaning search under faults: a model file that is a device or a FIFO, the model pre-packed in
 * the cache garbled or cut short, the meaning folder or its files replaced by what they are not,
 * the cache folder deleted under a build, a second build while another process builds, pages of a
 * `both` search while the index grows, and the few messages a sync adds embedded by the next
 * search. Each is one line and an exit code, never a hang, a stack or a loop. Skipped, visibly,
 * without the model package.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  closeSync,
  copyFileSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Recall } from "../src/index.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { writeGeneratedSessions } from "./helpers/generated-sessions.js";
import { MODEL_PACKAGE, MODEL_SKIP_REASON } from "./helpers/model-package.js";
import { jsonLines, RECALL_BIN, runRecall } from "./helpers/run-cli.js";
import { shellQuote } from "../src/output/shell.js";

const hasScript = spawnSync("script", ["--version"], { stdio: "ignore" }).status === 0;
const SCRIPT_SKIP_REASON = hasScript
  ? ""
  : " (skipped: no script(1) from util-linux to give it a terminal)";

let agent: AgentDir;
beforeEach(() => {
  agent = makeAgentDir();
});
afterEach(() => agent.cleanup());

const withModel = (dir = MODEL_PACKAGE!) => ({ ...agent.env, RECALL_MODEL_DIR: dir });
const meaningDir = () => join(agent.agentDir, "cache", "recall", "meaning");

/** A model folder with the real tokenizer and `model.onnx` made by `make`. */
function modelFolder(make: (path: string) => void): string {
  const dir = join(agent.root, "model");
  mkdirSync(dir, { recursive: true });
  symlinkSync(join(MODEL_PACKAGE!, "tokenizer.json"), join(dir, "tokenizer.json"));
  make(join(dir, "model.onnx"));
  return dir;
}

/** Exactly one line on stderr, that matches `pattern`. */
function oneLine(stderr: string, pattern: RegExp): void {
  expect(stderr.trim().split("\n")).toHaveLength(1);
  expect(stderr).toMatch(pattern);
}

describe.skipIf(!MODEL_PACKAGE)(`meaning search under faults${MODEL_SKIP_REASON}`, () => {
  it.each([
    ["/dev/zero", (path: string) => symlinkSync("/dev/zero", path)],
    ["a FIFO", (path: string) => execFileSync("mkfifo", [path])],
  ])(
    "a model.onnx that is %s: searches by words with one line; meaning and the build are one line, exit 2",
    async (_name, make) => {
      const env = withModel(modelFolder(make));
      const found = await runRecall(["search", "-n", "1", "deploy"], { env, timeoutMs: 30_000 });
      expect(found.code).toBe(0);
      oneLine(
        found.stderr,
        /^recall: the meaning model's .*model\.onnx is damaged: it is not a regular file; searching by words/,
      );
      for (const args of [
        ["search", "--match", "meaning", "deploy"],
        ["index", "--meaning", "-q"],
      ]) {
        const refused = await runRecall(args, { env, timeoutMs: 30_000 });
        expect(refused.code).toBe(2);
        oneLine(refused.stderr, /model\.onnx is damaged: it is not a regular file/);
      }
    },
    120_000,
  );

  it("a model.onnx whose bytes are not those its package records (size and sha256): one line; searches by words", async () => {
    const dir = join(agent.root, "recorded");
    mkdirSync(dir);
    const model = join(dir, "model.onnx");
    copyFileSync(join(MODEL_PACKAGE!, "model.onnx"), model);
    symlinkSync(join(MODEL_PACKAGE!, "tokenizer.json"), join(dir, "tokenizer.json"));
    const record = (path: string) => ({
      bytes: statSync(path).size,
      sha256: createHash("sha256").update(readFileSync(path)).digest("hex"),
    });
    const files = {
      "model.onnx": record(model),
      "tokenizer.json": record(join(dir, "tokenizer.json")),
    };
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({ name: "recall-pi-model-minilm", version: "0.1.0", recall: { files } }),
    );
    const env = withModel(dir);
    expect((await runRecall(["index", "--meaning", "-q"], { env })).code).toBe(0);
    // One byte of the weights changed, the size kept: a model that would load and embed wrongly.
    const fd = openSync(model, "r+");
    const byte = Buffer.alloc(1);
    const middle = Math.floor(files["model.onnx"].bytes / 2);
    readSync(fd, byte, 0, 1, middle);
    writeSync(fd, Buffer.from([byte[0]! ^ 0xff]), 0, 1, middle);
    closeSync(fd);
    const refused = await runRecall(["search", "--match", "meaning", "deploy"], { env });
    expect(refused.code).toBe(2);
    oneLine(
      refused.stderr,
      /model\.onnx is damaged: its sha256 is [0-9a-f]{64}, not the [0-9a-f]{64} its package records/,
    );
    const byWords = await runRecall(["search", "-n", "1", "deploy"], { env });
    expect(byWords.code).toBe(0);
    oneLine(byWords.stderr, /its package records; searching by words/);
    // Cut short: the size says so, without reading it.
    writeFileSync(model, "short");
    oneLine(
      (await runRecall(["index", "--meaning", "-q"], { env })).stderr,
      /model\.onnx is damaged: it holds 5 bytes, not the \d+ its package records/,
    );
  }, 120_000);

  it("a pre-packed model garbled or cut short is made again from the model files, never read as it is", async () => {
    const env = withModel();
    expect((await runRecall(["index", "--meaning", "-q"], { env })).code).toBe(0);
    const packed = join(agent.agentDir, "cache", "recall", "model-packed");
    const { size } = statSync(packed);
    const search = async () => {
      const found = await runRecall(
        ["search", "--match", "meaning", "--json", "-n", "3", "why does the deploy fail"],
        { env },
      );
      expect(found.code).toBe(0);
      expect(found.stderr).toBe("");
      return jsonLines<{ path: string; score: number }>(found.stdout).map((hit) => hit.path);
    };
    const made = statSync(packed).ino;
    const expected = await search();
    expect(statSync(packed).ino, "a whole file is read, not made again").toBe(made);
    // One byte of the weights changed in place: the checksum finds it; the file is made again.
    const garbled = made;
    const fd = openSync(packed, "r+");
    const byte = Buffer.alloc(1);
    readSync(fd, byte, 0, 1, Math.floor(size / 2));
    writeSync(fd, Buffer.from([byte[0]! ^ 0x40]), 0, 1, Math.floor(size / 2));
    closeSync(fd);
    expect(await search()).toEqual(expected);
    expect(statSync(packed).ino).not.toBe(garbled);
    // Cut short: made again, whole.
    const whole = statSync(packed).ino;
    truncateSync(packed, Math.floor(size / 3));
    expect(await search()).toEqual(expected);
    expect(statSync(packed).ino).not.toBe(whole);
    expect(statSync(packed).size).toBe(size);
  }, 120_000);

  it("a meaning folder that is a file: searches answer by words; recall index --meaning puts a folder in its place", async () => {
    expect((await runRecall(["index", "-q"], { env: withModel() })).code).toBe(0);
    writeFileSync(meaningDir(), "not a folder");
    const found = await runRecall(["search", "-n", "1", "--json", "deploy"], { env: withModel() });
    expect(found.code).toBe(0);
    expect(jsonLines(found.stdout)).toHaveLength(1);
    // By meaning alone, an index with no vectors finds nothing, and says why.
    const meaning = await runRecall(["search", "--match", "meaning", "-n", "1", "deploy"], {
      env: withModel(),
    });
    expect(meaning.code).toBe(1);
    expect(meaning.stderr).toMatch(/^recall: the meaning index covers 0 of \d+ messages searched/);
    expect((await runRecall(["index", "--meaning", "-q"], { env: withModel() })).code).toBe(0);
    expect(statSync(meaningDir()).isDirectory()).toBe(true);
    const after = await runRecall(["search", "--match", "meaning", "-n", "1", "deploy"], {
      env: withModel(),
    });
    expect(after.code).toBe(0);
    expect(after.stderr).toBe("");
  }, 120_000);

  it("vectors or writer.lock that are folders: recall index --meaning puts files in their place", async () => {
    expect((await runRecall(["index", "--meaning", "-q"], { env: withModel() })).code).toBe(0);
    for (const name of ["vectors", "writer.lock"]) {
      rmSync(join(meaningDir(), name));
      mkdirSync(join(meaningDir(), name, "inside"), { recursive: true });
    }
    const built = await runRecall(["index", "--meaning", "--json"], { env: withModel() });
    expect(built.code).toBe(0);
    const [summary] = jsonLines<{ embedded: number; messages: number }>(built.stdout);
    expect(summary!.embedded).toBe(summary!.messages);
    for (const name of ["vectors", "writer.lock"])
      expect(statSync(join(meaningDir(), name)).isFile()).toBe(true);
  }, 120_000);

  it("a build whose cache folder is deleted stops, with one line", async () => {
    writeGeneratedSessions(agent, 12, 24);
    const recall = Recall.open({ env: withModel() });
    try {
      await recall.sync();
      let deleted = false;
      const build = recall.meaning.build({
        onProgress: ({ embedded }) => {
          if (embedded > 0 && !deleted) {
            deleted = true;
            rmSync(join(agent.agentDir, "cache"), { recursive: true, force: true });
          }
        },
      });
      await expect(build).rejects.toThrow(
        /^.*meaning was deleted while the meaning index was being built; it stopped$/,
      );
      expect(deleted).toBe(true);
    } finally {
      recall.close();
    }
  }, 120_000);

  it("a second build while another process builds says which process and waits for it", async () => {
    expect((await runRecall(["index", "-q"], { env: withModel() })).code).toBe(0);
    mkdirSync(meaningDir(), { recursive: true });
    writeFileSync(join(meaningDir(), "writer.lock"), "pid 4242\n");
    const holder = spawn("flock", [join(meaningDir(), "writer.lock"), "-c", "echo held; cat"], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    await new Promise<void>((resolve) => holder.stdout.once("data", () => resolve()));
    const second = spawn(
      process.execPath,
      [new URL("../bin/recall.cjs", import.meta.url).pathname, "index", "--meaning", "--json"],
      { env: withModel(), stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    let stdout = "";
    second.stdout.on("data", (data: Buffer) => (stdout += data.toString()));
    await new Promise<void>((resolve) =>
      second.stderr.on("data", (data: Buffer) => {
        stderr += data.toString();
        if (stderr.includes("\n")) resolve();
      }),
    );
    expect(stderr).toBe(
      "recall: the meaning index is being built by process 4242: waiting for it to end (searches meanwhile use what it has embedded; Ctrl-C stops waiting)\n",
    );
    holder.stdin.end();
    const code = await new Promise((resolve) => second.on("close", resolve));
    expect(code).toBe(0);
    const [summary] = jsonLines<{ embedded: number; messages: number }>(stdout);
    expect(summary!.embedded).toBe(summary!.messages);
  }, 120_000);

  it.skipIf(!hasScript)(
    `recall index --meaning on a terminal says after its first batch how long it will take, and its bar shows the rate and the time left${SCRIPT_SKIP_REASON}`,
    async () => {
      writeGeneratedSessions(agent, 12, 24);
      expect((await runRecall(["index", "-q"], { env: withModel() })).code).toBe(0);
      const command = [process.execPath, RECALL_BIN, "index", "--meaning"]
        .map(shellQuote)
        .join(" ");
      const shown = spawnSync("script", ["-qec", command, "/dev/null"], {
        env: withModel(),
        encoding: "utf8",
      }).stdout;
      expect(shown).toMatch(
        /recall: embedding [\d,]+ messages: about \d+ (s|min) at \d+ messages\/s\r?\n/,
      );
      expect(shown).toMatch(/\] meaning: \d+\/\d+ messages, \d+\/s, \d+ (s|min) left/);
      expect(shown).toMatch(/meaning index: (\d+) of \1 messages/);
    },
    180_000,
  );

  it("pages of a `both` search read the meaning index as their first page did, while a build grows it", async () => {
    const recall = Recall.open({ env: withModel() });
    try {
      await recall.sync();
      const query = "the rollout to the pre-production cluster never finished";
      const options = { query, match: "both" as const, snapshot: true, sync: false };
      // Before the build: the words alone rank; the first page pins that.
      const whole = await recall.search({ ...options, limit: 4 });
      const first = await recall.search({ ...options, limit: 2 });
      await recall.meaning.build();
      const built = await recall.search({ ...options, limit: 4 });
      expect(built.hits.slice(0, 2).map((h) => h.id)).not.toEqual(first.hits.map((h) => h.id));
      const second = await recall.search({ ...options, limit: 2, cursor: first.nextCursor! });
      expect([...first.hits, ...second.hits].map((h) => h.id)).toEqual(whole.hits.map((h) => h.id));
    } finally {
      recall.close();
    }
  }, 120_000);

  it("a search embeds the few messages a sync added after it answers, so the next one covers them", async () => {
    expect((await runRecall(["index", "--meaning", "-q"], { env: withModel() })).code).toBe(0);
    const folder = join(agent.sessionsDir, "--tmp-new--");
    mkdirSync(folder);
    const entries = [
      {
        type: "session",
        version: 3,
        id: "0190cccc-0000-7000-8000-000000000001",
        timestamp: "2026-10-02T10:00:00.000Z",
        cwd: "/tmp/new",
      },
      {
        type: "message",
        id: "e0",
        parentId: null,
        timestamp: "2026-10-02T10:00:01.000Z",
        message: {
          role: "user",
          content: [{ type: "text", text: "why does the spec fail only at midnight?" }],
        },
      },
    ];
    writeFileSync(
      join(folder, "2026-10-02T10-00-00-000Z_0190cccc-0000-7000-8000-000000000001.jsonl"),
      entries.map((e) => JSON.stringify(e)).join("\n") + "\n",
    );
    const [gap] = jsonLines<{ meaningCoverage?: { embedded: number; messages: number } }>(
      (
        await runRecall(["search", "--match", "meaning", "--json", "-n", "1", "clock"], {
          env: withModel(),
        })
      ).stdout,
    );
    expect(gap!.meaningCoverage!.messages - gap!.meaningCoverage!.embedded).toBe(1);
    const [next] = jsonLines<Record<string, unknown>>(
      (
        await runRecall(["search", "--match", "meaning", "--json", "-n", "1", "clock"], {
          env: withModel(),
        })
      ).stdout,
    );
    expect(next).not.toHaveProperty("meaningCoverage");
  }, 120_000);
});
