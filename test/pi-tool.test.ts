/**
 * The `recall` tool's answers, the commands' words, and the output cap, against a real index of
 * the fixture sessions, without Pi (the library runs its jobs on this thread).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completeRecallArgs, parseRecallArgs } from "../src/pi/commands.js";
import { RememberedList } from "../src/pi/tag-lists.js";
import {
  capOutput,
  HISTORICAL_DATA_NOTE,
  MAX_OUTPUT_BYTES,
  MAX_OUTPUT_LINES,
} from "../src/pi/format.js";
import { recallOptionsFor } from "../src/pi/pi-locations.js";
import { runRecallTool } from "../src/pi/tool.js";
import { WorkerJobs, workerFiles, type JobRunner } from "../src/api/background-jobs.js";
import { Recall } from "../src/index.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const S1 = "01a0f6b1-2680-79e3-a1fa-30b6f0582ef5";

describe("the recall tool", () => {
  let dir: AgentDir;
  let service: Recall;
  const ctx = (id = "01ffffff-0000-7000-8000-000000000001") =>
    ({
      cwd: "/home/dev/shop-api",
      sessionManager: {
        getSessionId: () => id,
        getSessionFile: () => `/tmp/none/${id}.jsonl`,
        getCwd: () => "/home/dev/shop-api",
      },
    }) as never;

  beforeAll(() => {
    dir = makeAgentDir();
    service = Recall.open({ cwd: "/home/dev/shop-api", env: dir.env });
  });
  afterAll(() => {
    service.close();
    dir.cleanup();
  });

  it("searches exactly, marks matches, and starts with the historical-data note", async () => {
    const result = await runRecallTool(
      service,
      { action: "search", query: "staging deploy" },
      ctx(),
    );
    const text = result.content[0]!.text;
    expect(text.startsWith(HISTORICAL_DATA_NOTE)).toBe(true);
    expect(text).toContain(S1);
    expect(text).toContain("[[staging]] [[deploy]]");
    expect(result.details).toMatchObject({ action: "search", truncated: false });
    const prefix = await runRecallTool(service, { action: "search", query: "stagi" }, ctx());
    expect(prefix.details.count).toBe(0);
    const typo = await runRecallTool(service, { action: "search", query: "stagign deploy" }, ctx());
    expect(typo.content[0]!.text).toContain(
      'No session holds "stagign": read as "staging", one typo away.',
    );
    expect(typo.content[0]!.text).toContain(S1);
    expect(text).not.toContain("one typo away");
  });

  it("searches tool calls, output and thinking only when content asks for them, and sessions that touched a file", async () => {
    const byDefault = await runRecallTool(
      service,
      { action: "search", query: "quuxtooloutput" },
      ctx(),
    );
    expect(byDefault.details.count).toBe(0);
    const wide = await runRecallTool(
      service,
      { action: "search", query: "quuxtooloutput", content: ["outputs"] },
      ctx(),
    );
    expect(wide.details.count).toBe(1);
    expect(wide.content[0]!.text).toContain("[read output, entry 53422857] ");
    // Relative to the folder Pi runs in (/home/dev/shop-api).
    const touched = await runRecallTool(
      service,
      { action: "search", file: "deploy/staging.log" },
      ctx(),
    );
    expect(touched.details.count).toBe(1);
    expect(touched.content[0]!.text).toContain(S1);
    expect(touched.content[0]!.text).toContain("touched by: read (entry 8eb91481)");
  });

  it("lists this folder's sessions or everyone's", async () => {
    const here = await runRecallTool(
      service,
      { action: "list", scope: "current", limit: 50 },
      ctx(),
    );
    expect(here.content[0]!.text).toContain(S1);
    expect(here.content[0]!.text).not.toContain("/home/dev/blog");
    const all = await runRecallTool(service, { action: "list", limit: 50 }, ctx());
    expect(all.content[0]!.text).toContain("/home/dev/blog");
  });

  it("reads the latest messages of a session named by id prefix, and says when none matches", async () => {
    const result = await runRecallTool(
      service,
      { action: "read", session: S1.slice(0, 8), limit: 3 },
      ctx(),
    );
    const text = result.content[0]!.text;
    expect(text).toContain(`Session ${S1}`);
    expect(result.details.count).toBe(3);
    const missing = await runRecallTool(service, { action: "read", session: "ffffffff" }, ctx());
    expect(missing.isError).toBe(true);
    expect(missing.content[0]!.text).toContain('no session with id or id prefix "ffffffff"');
  });

  it("tags and untags the current session", async () => {
    const added = await runRecallTool(
      service,
      { action: "tag", add: ["Ready for review", "#k8s"] },
      ctx(S1),
    );
    expect(added.content[0]!.text).toContain("Added #ready-for-review #k8s.");
    expect(added.content[0]!.text).toContain(
      `This session (${S1}) is now tagged #k8s #ready-for-review.`,
    );
    const found = await runRecallTool(
      service,
      { action: "search", query: "#ready-for-review" },
      ctx(),
    );
    expect(found.content[0]!.text).toContain(S1);
    const removed = await runRecallTool(service, { action: "tag", remove: ["k8s"] }, ctx(S1));
    expect(removed.content[0]!.text).toContain("is now tagged #ready-for-review.");
    const empty = await runRecallTool(service, { action: "tag" }, ctx(S1));
    expect(empty.isError).toBe(true);
  });

  it("asks for what an action needs", async () => {
    expect((await runRecallTool(service, { action: "search" }, ctx())).isError).toBe(true);
    expect((await runRecallTool(service, { action: "read" }, ctx())).isError).toBe(true);
  });
});

describe("tool output cap", () => {
  it("cuts at 800 lines with a note saying so", () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `line ${i}`);
    const capped = capOutput(lines, "Lower `limit`.");
    const out = capped.text.split("\n");
    expect(capped.truncated).toBe(true);
    expect(out).toHaveLength(MAX_OUTPUT_LINES);
    expect(out.at(-1)).toMatch(
      /^\[Output truncated: 799 of 2000 lines shown, limit 800 lines \/ 40 KB\. Lower `limit`\.\]$/,
    );
  });

  it("cuts at 40 KB, inside a long line if need be, on a character boundary", () => {
    const capped = capOutput(["start", "日本語".repeat(20_000)], "hint");
    expect(capped.truncated).toBe(true);
    expect(Buffer.byteLength(capped.text, "utf8")).toBeLessThanOrEqual(MAX_OUTPUT_BYTES);
    expect(capped.text).not.toContain("\uFFFD");
    expect(capped.text).toContain("[Output truncated");
  });

  it("leaves short output alone", () => {
    expect(capOutput(["a", "b"], "hint")).toEqual({ text: "a\nb", truncated: false });
  });
});

describe("/recall arguments", () => {
  it("parses subcommands, help aliases, and queries that start with a command word", () => {
    expect(parseRecallArgs("")).toEqual({ type: "pick", query: "" });
    expect(parseRecallArgs("  staging deploy ")).toEqual({ type: "pick", query: "staging deploy" });
    expect(parseRecallArgs("search tag cloud")).toEqual({ type: "pick", query: "tag cloud" });
    for (const word of ["help", "?", "manual", "-h", "--help"])
      expect(parseRecallArgs(word)).toEqual({ type: "help" });
    expect(parseRecallArgs("tag #a #b")).toEqual({ type: "tag", tags: ["#a", "#b"] });
    expect(parseRecallArgs("untag #a")).toEqual({ type: "untag", tags: ["#a"] });
    expect(parseRecallArgs("tags")).toEqual({ type: "tags" });
    expect(parseRecallArgs("tag")).toMatchObject({ type: "usage" });
    expect(parseRecallArgs("tags cloud")).toMatchObject({ type: "usage" });
  });

  it("completes subcommands and known tags, reading tags only to complete one", () => {
    const known = () => ["k8s", "kubernetes", "review"];
    const mine = () => ["review"];
    const values = (prefix: string) =>
      completeRecallArgs(prefix, known, mine)?.map((i) => i.value) ?? null;
    expect(values("ta")).toEqual(["tag ", "tags "]);
    expect(values("tag #k")).toEqual(["tag #k8s ", "tag #kubernetes "]);
    expect(values("tag #k8s #")).toEqual(["tag #k8s #kubernetes ", "tag #k8s #review "]);
    expect(values("untag ")).toEqual(["untag #review "]);
    expect(values("deploy -#re")).toEqual(["deploy -#review "]);
    expect(values("#ku")).toEqual(["#kubernetes "]);
    expect(values("deploy stag")).toBeNull();
    const unread = (): string[] => {
      throw new Error("tags read");
    };
    for (const prefix of ["model ", "deploy stag", "autotag --all"])
      expect(completeRecallArgs(prefix, unread, unread)).toBeNull();
    expect(completeRecallArgs("mo", unread, unread)?.map((i) => i.value)).toEqual(["model "]);
  });

  it("answers completions from the tags last read, reading once at a time", async () => {
    let reads = 0;
    let answer: ((tags: string[]) => void) | undefined;
    let fail: ((error: Error) => void) | undefined;
    const tags = new RememberedList(
      () =>
        new Promise<string[]>((resolve, reject) => {
          reads++;
          answer = resolve;
          fail = reject;
        }),
    );
    tags.refresh();
    tags.refresh();
    expect(reads).toBe(1);
    expect(tags.list).toEqual([]);
    // A read's promise chain settles before the next macrotask.
    const settled = () => new Promise((resolve) => setImmediate(resolve));
    answer!(["k8s", "review"]);
    await settled();
    expect(tags.list).toEqual(["k8s", "review"]);
    tags.refresh();
    expect(reads).toBe(2);
    // Still the last list while the next read runs; none once a read fails.
    expect(tags.list).toEqual(["k8s", "review"]);
    fail!(new Error("locked"));
    await settled();
    expect(tags.list).toEqual([]);
    tags.refresh();
    expect(reads).toBe(3);
  });
});

describe("configuration and locations", () => {
  it("opens the picker on all projects unless configured", () => {
    const dir = makeAgentDir({ withFixtures: false });
    try {
      const data = join(dir.agentDir, "recall");
      const loadConfig = () => Recall.open({ env: dir.env }).config();
      expect(loadConfig().config.picker.scope).toBe("all");
      mkdirSync(data, { recursive: true });
      writeFileSync(join(data, "config.json"), JSON.stringify({ picker: { scope: "current" } }));
      expect(loadConfig().config.picker.scope).toBe("current");
      writeFileSync(join(data, "config.json"), JSON.stringify({ picker: { scope: "here" } }));
      expect(loadConfig()).toMatchObject({
        config: { picker: { scope: "all" } },
        problems: [expect.stringContaining('"here"')],
      });
      writeFileSync(join(data, "config.json"), "{");
      expect(loadConfig().problems[0]).toContain("not valid JSON");
    } finally {
      dir.cleanup();
    }
  });

  it("follows pi --session-dir, and nothing else Pi already tells the library", () => {
    const env = { PI_CODING_AGENT_DIR: "/a/agent" };
    expect(
      recallOptionsFor({ cwd: "/w", env, piSessionDir: "/a/agent/sessions/--w--" }).sessionsDir,
    ).toBeUndefined();
    expect(recallOptionsFor({ cwd: "/w", env, piSessionDir: "/elsewhere" }).sessionsDir).toBe(
      "/elsewhere",
    );
  });
});

describe("the background thread", () => {
  it("finds its worker and library from the sources, the compiled library and every bundle (serve, the MCP server)", () => {
    const root = join(import.meta.dirname, "..");
    const at = (...path: string[]) => pathToFileURL(join(root, ...path)).href;
    const sources = workerFiles(at("src", "api", "background-jobs.ts"));
    expect(sources.workerFile).toBe(join(root, "src", "api", "background-worker.mjs"));
    expect(sources.libraryTs).toBe(join(root, "src", "api", "background-library.ts"));
    for (const module of [
      at("dist", "api", "background-jobs.js"),
      at("dist", "bundle", "serve.cjs"),
      at("dist", "bundle", "mcp.cjs"),
    ]) {
      const files = workerFiles(module);
      expect(files).toEqual({
        workerFile: join(root, "dist", "api", "background-worker.mjs"),
        libraryTs: undefined,
        libraryJs: join(root, "dist", "api", "background-library.js"),
      });
    }
    for (const file of [
      sources.workerFile,
      sources.libraryTs!,
      join(root, "dist", "api", "background-worker.mjs"),
      join(root, "dist", "api", "background-library.js"),
    ])
      expect(existsSync(file), file).toBe(true);
  });

  it("syncs the index, reads sessions, finds a question's context and counts the work off the JS thread", async () => {
    const dir = makeAgentDir();
    const refuse = async () => {
      throw new Error("ran inline");
    };
    const inline: JobRunner = {
      sync: refuse,
      read: refuse,
      context: refuse,
      stats: refuse,
      dispose: () => {},
    };
    const jobs = new WorkerJobs(inline);
    try {
      const progress: number[] = [];
      const report = await jobs.sync({ env: { ...dir.env }, cwd: dir.root }, {}, (p) =>
        progress.push(p.filesDone),
      );
      expect(jobs.threaded).toBe(true);
      expect(report.indexed).toBeGreaterThan(5);
      expect(progress.at(-1)).toBe(report.indexed);
      // The main thread sees what the worker committed once it reloads.
      const service = Recall.open({ cwd: dir.root, env: dir.env });
      await service.reload();
      const { hits } = await service.search({ query: "staging deploy", limit: 5, sync: false });
      const s1 = hits.find((h) => h.id === S1)!;
      expect(s1).toBeDefined();
      const ref = { id: S1, path: s1.path, cwd: s1.cwd };
      const read = await jobs.read(ref, { limit: 2 });
      expect(read.messages).toHaveLength(2);
      const context = await jobs.context(ref, "staging deploy", {});
      expect(context.summary.matched).toBeGreaterThan(0);
      expect(context.messages.map((m) => m.text).join(" ")).toMatch(/staging/i);
      // The work counted there too, as the main thread counts it.
      const stats = await jobs.stats({ env: { ...dir.env }, cwd: dir.root }, {});
      expect(stats).toEqual(await service.stats({ sync: false }));
      expect(stats.totals.sessions).toBeGreaterThan(5);
      service.close();
    } finally {
      jobs.dispose();
      dir.cleanup();
    }
  });

  it("keeps the index when its cache folder is deleted while it runs: both threads open a new one", async () => {
    const dir = makeAgentDir();
    const service = Recall.open({ cwd: dir.root, env: dir.env, background: true });
    try {
      const first = await service.sync();
      expect(first.indexed).toBeGreaterThan(5);
      rmSync(join(dir.agentDir, "cache", "recall"), { recursive: true });
      // The next sync rebuilds the index in a new folder; searches read that one.
      const again = await service.sync();
      expect(again.indexed).toBe(first.indexed);
      expect(existsSync(join(dir.agentDir, "cache", "recall", "index", "meta.json"))).toBe(true);
      const { hits } = await service.search({ query: "staging deploy", limit: 5, sync: false });
      expect(hits.map((h) => h.id)).toContain(S1);
      // And the sync after that finds nothing to do: the worker's store is the new index too.
      expect((await service.sync()).indexed).toBe(0);
    } finally {
      service.close();
      dir.cleanup();
    }
  });
});
