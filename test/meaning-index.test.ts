/**
 * The meaning index (native/src/meaning/store.rs, search/by_meaning.rs; api/meaning.ts) through the
 * CLI, with the real model: `recall index --meaning` embeds each text once, resumes after kill -9
 * with nothing embedded twice, and an index kept up to date through appends, forks, rewrites and
 * deletions answers exactly as one built from the same files; a paraphrase finds its session by
 * meaning. Without the model package: `--match meaning` is one MODEL_UNAVAILABLE line, and the
 * default search prints what it printed before. Model tests skip, visibly, without the package.
 */
import { spawn, spawnSync } from "node:child_process";
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { shellQuote } from "../src/output/shell.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { MODEL_PACKAGE, MODEL_SKIP_REASON } from "./helpers/model-package.js";
import { jsonLines, RECALL_BIN, runRecall } from "./helpers/run-cli.js";

/**
 * The store's header and record sizes (store.rs): magic, width, identity; key, scale, 384 codes,
 * checksum.
 */
const HEADER = 8 + 4 + 8;
const RECORD = 8 + 4 + 384 + 4;

const hasScript = spawnSync("script", ["--version"], { stdio: "ignore" }).status === 0;

let dir: AgentDir;
beforeEach(() => {
  dir = makeAgentDir();
});
afterEach(() => dir.cleanup());

const withModel = () => ({ ...dir.env, RECALL_MODEL_DIR: MODEL_PACKAGE });
const vectorsFile = (env: NodeJS.ProcessEnv = dir.env) =>
  join(env.RECALL_CACHE_DIR ?? join(dir.agentDir, "cache", "recall"), "meaning", "vectors");
const recordsIn = (file: string) => (statSync(file).size - HEADER) / RECORD;
/** Output without scores: recency is measured from the time each search ran. */
const unscored = (stdout: string) => stdout.replace(/"score":[-0-9.e]+,/g, "");

interface MeaningRecord {
  type: "meaning";
  embedded: number;
  messages: number;
  added: number;
}

async function indexMeaning(env: NodeJS.ProcessEnv): Promise<MeaningRecord> {
  const result = await runRecall(["index", "--meaning", "--json"], { env, timeoutMs: 120_000 });
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return jsonLines<MeaningRecord>(result.stdout).find((r) => r.type === "meaning")!;
}

/** A session file of `count` user/assistant messages, each text its own. */
function writeSession(folder: string, id: string, texts: string[]): string {
  mkdirSync(folder, { recursive: true });
  const entries: object[] = [
    { type: "session", version: 3, id, timestamp: "2026-10-02T10:00:00.000Z", cwd: "/tmp/meaning" },
  ];
  texts.forEach((text, m) => {
    entries.push({
      type: "message",
      id: `e${m}`,
      parentId: m ? `e${m - 1}` : null,
      timestamp: `2026-10-02T10:${String(m % 60).padStart(2, "0")}:01.000Z`,
      message: { role: m % 2 ? "assistant" : "user", content: [{ type: "text", text }] },
    });
  });
  const path = join(folder, `2026-10-02T10-00-00-000Z_${id}.jsonl`);
  writeFileSync(path, entries.map((e) => JSON.stringify(e)).join("\n") + "\n");
  return path;
}

describe("meaning search without the model package", () => {
  it("is one MODEL_UNAVAILABLE line and exit 2; recall index --meaning too", async () => {
    for (const args of [
      ["search", "--match", "meaning", "deploy"],
      ["search", "--match", "both", "deploy"],
      ["index", "--meaning", "-q"],
    ]) {
      const result = await runRecall(args, { env: dir.env });
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr.trim().split("\n")).toEqual([
        expect.stringMatching(
          /^recall: meaning search needs the model package recall-pi-model-minilm, which is not installed; install recall-pi-model-minilm@\S+ beside recall$/,
        ),
      ]);
    }
  });

  it.skipIf(!hasScript)(
    `recall index on a terminal says once, when it first builds the index, how to add it${hasScript ? "" : " (skipped: script is not installed)"}`,
    () => {
      const command = [process.execPath, RECALL_BIN, "index"].map(shellQuote).join(" ");
      const onTerminal = () =>
        spawnSync("script", ["-qec", command, "/dev/null"], { env: dir.env, encoding: "utf8" })
          .stdout;
      const hint =
        "search by meaning too: install recall-pi-model-minilm beside recall, then run `recall index --meaning`";
      expect(onTerminal()).toContain(hint);
      expect(onTerminal()).not.toContain(hint);
    },
  );

  it("refuses an unknown match", async () => {
    const result = await runRecall(["search", "--match", "vibes", "deploy"], { env: dir.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--match/);
  });

  it.skipIf(!MODEL_PACKAGE)(
    `leaves the words' search as it was, by default without the model package and with --match words with it, whether or not a meaning index exists${MODEL_SKIP_REASON}`,
    async () => {
      const searches = [
        ["search", "--json", "deploy"],
        ["search", "staging deploy"],
        ["search", "--format", "tsv", "-n", "50", "the"],
      ];
      const before = [];
      for (const args of searches) before.push(await runRecall(args, { env: dir.env }));
      await indexMeaning(withModel());
      for (const [i, args] of searches.entries()) {
        for (const [env, asked] of [
          [dir.env, args],
          [withModel(), [...args, "--match", "words"]],
        ] as const) {
          const after = await runRecall([...asked], { env });
          expect({ code: after.code, stdout: unscored(after.stdout) }, asked.join(" ")).toEqual({
            code: before[i]!.code,
            stdout: unscored(before[i]!.stdout),
          });
        }
        // With the model package, the default is both.
        const byDefault = await runRecall(args, { env: withModel() });
        const both = await runRecall([...args, "--match", "both"], { env: withModel() });
        expect(unscored(byDefault.stdout), args.join(" ")).toBe(unscored(both.stdout));
      }
      // What no session holds or is about finds nothing: a session only somewhat near in meaning is
      // no hit.
      for (const query of ["quokka", "banana bread recipe"])
        expect((await runRecall(["search", query], { env: withModel() })).code, query).toBe(1);
    },
    120_000,
  );
});

describe.skipIf(!MODEL_PACKAGE)(`the meaning index${MODEL_SKIP_REASON}`, () => {
  it("gives a script what it asked for: one word is the words' alone, words no session holds get no meaning-only hits, --exact is the words as typed", async () => {
    await indexMeaning(withModel());
    for (const args of [
      ["--json", "repakc"],
      ["--exact", "repakc"],
      ["--json", "zzqqxxyy"],
      ["--json", "xyzzy"],
      ["--json", "zzqqxxyy wqpz"],
    ]) {
      const result = await runRecall(["search", ...args], { env: withModel() });
      expect({ code: result.code, stdout: result.stdout }, args.join(" ")).toEqual({
        code: 1,
        stdout: "",
      });
    }
    // One word the index holds is the words' alone: their sessions in their order, none by meaning.
    const hits = async (args: string[]) => {
      const result = await runRecall(["search", "--json", ...args], { env: withModel() });
      expect(result.code, args.join(" ")).toBe(0);
      return jsonLines<{ path: string; matchedBy?: string }>(result.stdout);
    };
    const oneWord = await hits(["deploy"]);
    expect(oneWord.length).toBeGreaterThan(1);
    expect(oneWord.map((hit) => hit.matchedBy)).toEqual(oneWord.map(() => "words"));
    expect(oneWord.map((hit) => hit.path)).toEqual(
      (await hits(["--match", "words", "deploy"])).map((hit) => hit.path),
    );
    // Asked for by name, meaning alone lists the nearest sessions whatever the query.
    const nearest = await runRecall(
      ["search", "--match", "meaning", "--json", "-n", "3", "xyzzy"],
      { env: withModel() },
    );
    expect(nearest.code).toBe(0);
    expect(jsonLines<{ matchedBy: string }>(nearest.stdout).map((h) => h.matchedBy)).toEqual([
      "meaning",
      "meaning",
      "meaning",
    ]);
    // --exact searches by the words alone: what --match words --typos off finds.
    const exact = await runRecall(["search", "--exact", "--json", "staging deploy"], {
      env: withModel(),
    });
    const words = await runRecall(
      ["search", "--match", "words", "--typos", "off", "--json", "staging deploy"],
      { env: withModel() },
    );
    expect(exact.code).toBe(0);
    expect(unscored(exact.stdout)).toBe(unscored(words.stdout));
    const contradiction = await runRecall(["search", "--exact", "--match", "both", "deploy"], {
      env: withModel(),
    });
    expect({ code: contradiction.code, stderr: contradiction.stderr.trim() }).toEqual({
      code: 2,
      stderr: "recall: --exact and --match both contradict each other",
    });
  }, 120_000);

  it("finds a session by a paraphrase that shares none of its words, and says it matched by meaning", async () => {
    await indexMeaning(withModel());
    const query = "the rollout to the pre-production cluster never finished";
    const result = await runRecall(["search", "--match", "meaning", "--json", "-n", "3", query], {
      env: withModel(),
    });
    expect(result.code).toBe(0);
    const [first] = jsonLines<{
      name: string;
      matchedBy: string;
      snippet: string;
      spans: unknown[];
    }>(result.stdout);
    expect(first).toMatchObject({
      name: "Fix staging deploy: readiness probe and nginx ingress",
      matchedBy: "meaning",
      spans: [],
    });
    expect(first!.snippet.length).toBeGreaterThan(0);
    const both = jsonLines<{ name: string; matchedBy: string }>(
      (
        await runRecall(["search", "--match", "both", "--json", "-n", "5", query], {
          env: withModel(),
        })
      ).stdout,
    );
    expect(both.map((h) => h.name)).toContain(
      "Fix staging deploy: readiness probe and nginx ingress",
    );
  }, 120_000);

  it("searches by words by default when the installed model cannot be loaded, saying so once; asked for, it is an error", async () => {
    const damaged = join(dir.root, "damaged-model");
    cpSync(MODEL_PACKAGE!, damaged, { recursive: true });
    truncateSync(join(damaged, "model.onnx"), 1000);
    const env = { ...dir.env, RECALL_MODEL_DIR: damaged };
    const words = await runRecall(["search", "--json", "--match", "words", "deploy"], { env });
    const byDefault = await runRecall(["search", "--json", "deploy"], { env });
    expect(byDefault.code).toBe(0);
    expect(unscored(byDefault.stdout)).toBe(unscored(words.stdout));
    expect(byDefault.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(
        /^recall: the meaning model's .*model\.onnx is damaged: .*; searching by words/,
      ),
    ]);
    const asked = await runRecall(["search", "--match", "both", "deploy"], { env });
    expect(asked.code).toBe(2);
    expect(asked.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("ranks the sessions of a scope (a folder, a time window) as the whole search ranks them", async () => {
    await indexMeaning(withModel());
    type Hit = { id: string; cwd: string; modified: string };
    const search = async (...args: string[]) =>
      jsonLines<Hit>(
        (
          await runRecall(
            [
              "search",
              "--match",
              "meaning",
              "--json",
              "-n",
              "50",
              ...args,
              "a deploy that never finished",
            ],
            { env: withModel() },
          )
        ).stdout,
      );
    const all = await search();
    expect(all.length).toBeGreaterThan(3);
    const folder = all.map((h) => h.cwd).find((cwd) => cwd !== "")!;
    const inFolder = await search("--cwd", folder);
    expect(inFolder.length).toBeGreaterThan(0);
    expect(inFolder.map((h) => h.id)).toEqual(all.filter((h) => h.cwd === folder).map((h) => h.id));
    const since = await search("--since", "2026-09-20");
    expect(since.length).toBeGreaterThan(0);
    expect(since.length).toBeLessThan(all.length);
    expect(all.map((h) => h.id)).toEqual(expect.arrayContaining(since.map((h) => h.id)));
  }, 120_000);

  it("says how much it covers while incomplete: a field in JSON, one line on stderr past 1 in 100; a search embeds a sync's few new messages", async () => {
    await indexMeaning(withModel());
    // Two new messages of some fifty: past 1 in 100. The search says so, then embeds them.
    writeSession(join(dir.sessionsDir, "--tmp-meaning--"), "0190bbbb-0000-7000-8000-000000000001", [
      "a brand new question about flaky timers",
      "an answer about fake clocks",
    ]);
    const human = await runRecall(["search", "--match", "meaning", "-n", "1", "timers"], {
      env: withModel(),
    });
    expect(human.stderr).toMatch(
      /^recall: the meaning index covers \d+ of \d+ messages searched; `recall index --meaning` embeds the rest\n$/,
    );
    const complete = jsonLines<Record<string, unknown>>(
      (
        await runRecall(["search", "--match", "meaning", "--json", "-n", "1", "timers"], {
          env: withModel(),
        })
      ).stdout,
    );
    expect(complete[0]).not.toHaveProperty("meaningCoverage");
    writeSession(join(dir.sessionsDir, "--tmp-meaning--"), "0190bbbb-0000-7000-8000-000000000002", [
      "another question about flaky timers",
      "another answer",
    ]);
    const json = await runRecall(["search", "--match", "meaning", "--json", "-n", "1", "timers"], {
      env: withModel(),
    });
    const [hit] = jsonLines<{ meaningCoverage: { embedded: number; messages: number } }>(
      json.stdout,
    );
    expect(hit!.meaningCoverage.messages - hit!.meaningCoverage.embedded).toBe(2);
  }, 120_000);

  it("kept up to date through appends, forks, rewrites and deletions, answers as one built from the same files", async () => {
    const first = await indexMeaning(withModel());
    expect(first.embedded).toBe(first.messages);
    expect(recordsIn(vectorsFile())).toBe(first.added);

    const shop = join(dir.sessionsDir, "--home-dev-shop-api--");
    const infra = join(dir.sessionsDir, "--home-dev-infra--");
    // Appended: one new exchange.
    appendFileSync(
      join(shop, "2026-10-01T09-00-00-000Z_01a0f6b1-2680-79e3-a1fa-30b6f0582ef5.jsonl"),
      JSON.stringify({
        type: "message",
        id: "zz000001",
        parentId: null,
        timestamp: "2026-10-01T09:30:00.000Z",
        message: {
          role: "user",
          content: [
            { type: "text", text: "Could the pods be starved of memory on the new nodes?" },
          ],
        },
      }) + "\n",
    );
    // A copy of a session under another id: every text is one the store has.
    const copied = readFileSync(
      join(shop, "2026-10-01T10-00-00-000Z_01a0f6e8-1500-7a6b-ad20-694247f75ec3.jsonl"),
      "utf8",
    ).replace("01a0f6e8-1500-7a6b-ad20-694247f75ec3", "01a0f6e8-1500-7a6b-ad20-000000000002");
    writeFileSync(
      join(shop, "2026-10-01T10-00-00-000Z_01a0f6e8-1500-7a6b-ad20-000000000002.jsonl"),
      copied,
    );
    // Deleted.
    rmSync(join(infra, "2026-10-01T17-00-00-000Z_01a0f868-9a80-781f-b021-c1b2df97e78b.jsonl"));
    // Rewritten: the same session, one text changed.
    writeSession(join(dir.sessionsDir, "--tmp-meaning--"), "0190bbbb-0000-7000-8000-000000000003", [
      "how do I rotate the database password",
      "use the secrets manager rotation",
    ]);
    const rewritten = await indexMeaning(withModel());
    writeSession(join(dir.sessionsDir, "--tmp-meaning--"), "0190bbbb-0000-7000-8000-000000000003", [
      "how do I rotate the database password",
      "use the vault rotation job, not the secrets manager",
    ]);
    const updated = await indexMeaning(withModel());
    // Only new texts were embedded: the appended one and its session's longer opening, the new
    // session's two and its opening, then its changed one and opening. The copy's are all known.
    expect([rewritten.added, updated.added]).toEqual([5, 2]);
    expect(updated.embedded).toBe(updated.messages);

    // Tagged: its session document is written again, its opening with it, so its score by meaning
    // stays (recency moves it by the milliseconds between the two searches).
    const scored = async () =>
      jsonLines<{ id: string; score: number }>(
        (
          await runRecall(
            [
              "search",
              "--no-sync",
              "--match",
              "meaning",
              "--json",
              "-n",
              "1",
              "rotate a credential",
            ],
            { env: withModel() },
          )
        ).stdout,
      )[0]!;
    const untagged = await scored();
    expect(untagged.id).toBe("0190bbbb-0000-7000-8000-000000000003");
    expect((await runRecall(["tag", untagged.id, "credentials"], { env: withModel() })).code).toBe(
      0,
    );
    const tagged = await scored();
    expect(tagged.id).toBe(untagged.id);
    expect(tagged.score).toBeCloseTo(untagged.score, 4);

    const fresh = { ...withModel(), RECALL_CACHE_DIR: join(dir.root, "fresh-cache") };
    const rebuilt = await indexMeaning(fresh);
    expect(rebuilt.messages).toBe(updated.messages);
    for (const match of ["meaning", "both"]) {
      for (const query of [
        "pods out of memory",
        "rotate a credential",
        "terraform state lock",
        "deploy",
      ]) {
        const args = ["search", "--no-sync", "--match", match, "--json", "-n", "20", query];
        const kept = await runRecall(args, { env: withModel() });
        const anew = await runRecall(args, { env: fresh });
        expect(unscored(kept.stdout), `${match}: ${query}`).toBe(unscored(anew.stdout));
        expect(kept.code).toBe(0);
      }
    }
  }, 240_000);

  it("follows appended messages under recall watch --meaning", async () => {
    const env = withModel();
    const watcher = spawn(process.execPath, [RECALL_BIN, "watch", "--meaning", "--quiet"], {
      env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    watcher.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const exited = new Promise((resolve) => watcher.on("exit", resolve));
    const nearest = async (query: string) =>
      jsonLines<{ snippet: string; meaningCoverage?: unknown }>(
        (
          await runRecall(
            ["search", "--no-sync", "--match", "meaning", "--json", "-n", "1", query],
            { env },
          )
        ).stdout,
      )[0];
    try {
      // The catch-up: the fixtures embedded.
      while (!(await nearest("deploy")) || (await nearest("deploy"))!.meaningCoverage)
        await new Promise((resolve) => setTimeout(resolve, 100));
      const text = "The espresso machine in the office leaks water onto the floor every morning";
      appendFileSync(
        join(
          dir.sessionsDir,
          "--home-dev-blog--",
          "2026-10-01T12-00-00-000Z_01a0f755-f200-7250-a372-48336bf4923d.jsonl",
        ),
        JSON.stringify({
          type: "message",
          id: "zz000009",
          parentId: null,
          timestamp: "2026-10-01T12:30:00.000Z",
          message: { role: "user", content: [{ type: "text", text }] },
        }) + "\n",
      );
      while ((await nearest("coffee maker dripping in the workplace"))?.snippet !== text)
        await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      watcher.kill("SIGTERM");
      await exited;
    }
    expect(stderr).toBe("");
  }, 120_000);

  it("resumes after kill -9 with nothing embedded twice", async () => {
    const folder = join(dir.sessionsDir, "--tmp-many--");
    for (let n = 0; n < 24; n++) {
      const id = `0190cccc-0000-7000-8000-${String(n).padStart(12, "0")}`;
      writeSession(
        folder,
        id,
        Array.from(
          { length: 20 },
          (_, m) =>
            `session ${n} message ${m}: notes on topic number ${n * 20 + m} of the meaning test`,
        ),
      );
    }
    expect((await runRecall(["index", "-q"], { env: withModel() })).code).toBe(0);
    const file = vectorsFile();
    const child = spawn(process.execPath, [RECALL_BIN, "index", "--meaning", "-q"], {
      env: withModel(),
      stdio: "ignore",
    });
    const exited = new Promise((resolve) => child.on("exit", resolve));
    // Killed once a batch or more is on disk, while later ones are being embedded.
    while (!existsSync(file) || recordsIn(file) < 64)
      await new Promise((resolve) => setTimeout(resolve, 20));
    child.kill("SIGKILL");
    await exited;
    const kept = Math.floor(recordsIn(file));
    expect(kept).toBeGreaterThanOrEqual(64);

    const resumed = await indexMeaning(withModel());
    expect(resumed.added, "the kill came before the end").toBeGreaterThan(0);
    expect(resumed.embedded).toBe(resumed.messages);
    // Every text once: what the killed run kept, plus what the next one added, and no record twice.
    expect(kept + resumed.added).toBe(recordsIn(file));
    const distinct = new Set<string>();
    const bytes = readFileSync(file);
    for (let at = HEADER; at < bytes.length; at += RECORD)
      distinct.add(bytes.subarray(at, at + 8).toString("hex"));
    expect(distinct.size).toBe(recordsIn(file));
    // A text at most for each message and each session's opening.
    const sessions = (
      await runRecall(["list", "--no-sync", "--json", "-n", "1000"], { env: withModel() })
    ).stdout
      .trim()
      .split("\n").length;
    expect(resumed.messages + sessions).toBeGreaterThanOrEqual(distinct.size);
  }, 240_000);
});
