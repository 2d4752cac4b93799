import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURES, makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { holdWriterLock } from "./helpers/lock-holder.js";
import { jsonLines, RECALL_BIN, runRecall } from "./helpers/run-cli.js";
import { skipWithout } from "./helpers/tools.js";

let agent: AgentDir;
beforeAll(() => {
  agent = makeAgentDir();
});
afterAll(() => agent.cleanup());

const recall = (...args: string[]) => runRecall(args, { env: agent.env });
const S1_ID = "01a0f6b1-2680-79e3-a1fa-30b6f0582ef5";

describe("recall index", () => {
  it("reports what it read, as text and as JSON Lines", async () => {
    const first = await recall("index");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /11 session files: 11 indexed, 0 appended, 0 removed, 0 unchanged, 0 failed/,
    );
    expect(first.stderr).toMatch(/skipped 2 malformed lines/);
    const again = await recall("index", "--json");
    const [summary] = jsonLines(again.stdout);
    expect(summary).toMatchObject({
      type: "summary",
      discovered: 11,
      indexed: 0,
      unchanged: 11,
      failed: 0,
    });
    const rebuilt = jsonLines((await recall("index", "--rebuild", "--json")).stdout);
    expect(rebuilt.at(-1)).toMatchObject({ type: "summary", indexed: 11, rebuilt: true });
  });

  it("lists files it cannot read in its JSON output", async () => {
    const other = makeAgentDir();
    try {
      const broken = join(
        other.sessionsDir,
        "--home-dev-x--",
        "2026-01-01T00-00-00-000Z_broken.jsonl",
      );
      mkdirSync(join(other.sessionsDir, "--home-dev-x--"));
      symlinkSync(join(other.root, "missing"), broken);
      const result = await runRecall(["index", "--json"], { env: other.env });
      expect(result.code).toBe(0);
      const lines = jsonLines(result.stdout);
      expect(lines[0]).toEqual({
        type: "failed",
        path: broken,
        reason: expect.stringMatching(/ENOENT/),
      });
      expect(lines.at(-1)).toMatchObject({ type: "summary", failed: 1, indexed: 11 });
      const human = await runRecall(["index"], { env: other.env });
      expect(human.stderr).toContain(`cannot read ${broken}`);
    } finally {
      other.cleanup();
    }
  });
});

describe("recall search", () => {
  it("prints one block per session on a terminal-less stdout, without colors", async () => {
    const result = await recall("search", "staging", "deploy");
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/\x1b\[/);
    expect(result.stdout).toContain("Fix staging deploy: readiness probe and nginx ingress");
    expect(result.stdout).toContain("shop-api · ");
    expect(result.stdout).toContain(S1_ID);
    expect(result.stderr).toBe("");
  });

  it.skipIf(skipWithout("script") !== "")(
    `colors its output on a terminal${skipWithout("script")}`,
    () => {
      // `script` runs the command with a pseudo-terminal for its stdout.
      const terminal = spawnSync(
        "script",
        ["-qec", `${process.execPath} ${RECALL_BIN} search staging deploy`, "/dev/null"],
        { env: agent.env, encoding: "utf8" },
      );
      expect(terminal.stdout).toContain("Fix staging deploy");
      expect(terminal.stdout).toMatch(/\x1b\[[0-9;]*m/);
    },
  );

  it("colors matches with --color always, and NO_COLOR does not override an explicit flag", async () => {
    const colored = await runRecall(["search", "--color", "always", "forkonlyword"], {
      env: { ...agent.env, NO_COLOR: "1" },
    });
    expect(colored.stdout).toMatch(/\x1b\[1m\x1b\[31mforkonlyword\x1b\[39m\x1b\[22m/);
  });

  it("emits JSON Lines with the documented fields; the path opens in pi --session", async () => {
    const result = await recall("search", "--json", "staging deploy");
    const hits = jsonLines(result.stdout);
    expect(hits.length).toBeGreaterThanOrEqual(2);
    const first = hits[0]!;
    expect(Object.keys(first).sort()).toEqual(
      [
        "id",
        "path",
        "cwd",
        "project",
        "name",
        "created",
        "modified",
        "messageCount",
        "firstMessage",
        "parent",
        "tags",
        "score",
        "message",
        "snippet",
        "spans",
      ].sort(),
    );
    expect(first.path).toMatch(/^\/.*\.jsonl$/);
    expect(first.message).toMatchObject({
      role: expect.any(String),
      index: expect.any(Number),
      entryId: expect.any(String),
      timestamp: expect.stringMatching(/Z$/),
    });
    const [start, end] = (first.spans as number[][])[0]!;
    expect(
      Buffer.from(first.snippet as string)
        .subarray(start, end)
        .toString()
        .toLowerCase(),
    ).toMatch(/staging|deploy/);
  });

  it("exits 1 with nothing on stdout when nothing matches", async () => {
    const result = await recall("search", "xylophonezzz");
    expect(result).toMatchObject({ code: 1, stdout: "" });
    expect(result.stderr).toMatch(/no session matches/);
    expect((await recall("search", "--json", "xylophonezzz")).stderr).toBe("");
  });

  it("accepts any query: quotes, colons, parentheses, stars, unicode", async () => {
    for (const query of [
      '"',
      ":",
      "(",
      "*",
      "foo:bar (baz",
      '"unbalanced',
      "日本語",
      "-",
      "AND OR",
    ]) {
      const result = await recall("search", "--json", "--", query);
      expect([0, 1], `query ${query}: ${result.stderr}`).toContain(result.code);
      expect(result.stderr).not.toMatch(/at .*\.js:\d+/); // never a stack trace
    }
    const literal = jsonLines((await recall("search", "--json", "foo:bar (baz)")).stdout);
    expect(literal[0]!.id).toBe("01a0f755-f200-7250-a372-48336bf4923d");
    expect(jsonLines((await recall("search", "--json", "naïve")).stdout)[0]!.id).toBe(
      "01a0f755-f200-7250-a372-48336bf4923d",
    );
  });

  it("limits to a folder with --cwd and --here, inside the index", async () => {
    const blog = jsonLines(
      (await recall("search", "--json", "--cwd", "/home/dev/blog", "the")).stdout,
    );
    expect(blog.length).toBeGreaterThan(0);
    expect(blog.every((h) => h.cwd === "/home/dev/blog")).toBe(true);
    const here = await runRecall(["search", "--here", "staging"], {
      env: agent.env,
      cwd: agent.root,
    });
    expect(here.code).toBe(1);
    expect(here.stderr).toMatch(/no session in .* matches "staging"; drop --here/);
  });

  it("finds a session appended to since the last search without a manual index; --no-sync does not", async () => {
    const path = join(
      agent.sessionsDir,
      "--home-dev-infra--/2026-10-01T13-00-00-000Z_01a0f78c-e080-7f28-af10-ffa76e6bae4c.jsonl",
    );
    const ms = Date.parse("2026-11-03T00:00:00Z");
    appendFileSync(
      path,
      `${JSON.stringify({ type: "message", id: "dddd0001", parentId: null, timestamp: new Date(ms).toISOString(), message: { role: "user", content: "lateappendword", timestamp: ms } })}\n`,
    );
    expect((await recall("search", "--no-sync", "lateappendword")).code).toBe(1);
    expect((await recall("search", "lateappendword")).code).toBe(0);
  });

  it("usage mistakes are one line on stderr and exit 2", async () => {
    for (const args of [
      ["search"],
      ["search", "--limit", "zero", "x"],
      ["search", "--color", "bogus", "x"],
      ["frobnicate"],
      ["search", "--since", "last tuesday", "x"],
    ]) {
      const result = await recall(...args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stdout, args.join(" ")).toBe("");
      expect(result.stderr, args.join(" ")).toMatch(/^recall: /);
    }
  });

  it("a limit past the most a search returns is one line on stderr and exit 2, not an abort", async () => {
    // Tried, it asked for memory for a billion results and the process aborted (SIGABRT).
    for (const args of [
      ["search", "-n", "100000000", "x"],
      ["list", "-n", "100000000"],
    ]) {
      const result = await recall(...args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stdout, args.join(" ")).toBe("");
      expect(result.stderr.trim().split("\n"), args.join(" ")).toEqual([
        expect.stringMatching(
          /^recall: --limit must be a whole number from 1 to 10000, not 100000000/,
        ),
      ]);
    }
  });

  it("exits 0 quietly when the reader closes the pipe early", async () => {
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(
        `"${process.execPath}" "${RECALL_BIN}" search --json the | head -c 1 > /dev/null; echo "\${PIPESTATUS[0]}"`,
        {
          shell: "/bin/bash",
          env: agent.env,
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let out = "";
      let err = "";
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (err += d));
      child.on("close", () => {
        expect(err).toBe("");
        resolve(Number(out.trim()));
      });
    });
    expect(code).toBe(0);
  });

  it("answers from the index as it is while another process holds the writer lock, and says so", async () => {
    const path = join(
      agent.sessionsDir,
      "--home-dev-blog--/2026-10-01T12-00-00-000Z_01a0f755-f200-7250-a372-48336bf4923d.jsonl",
    );
    const ms = Date.parse("2026-11-04T00:00:00Z");
    appendFileSync(
      path,
      `${JSON.stringify({ type: "message", id: "dddd0002", parentId: null, timestamp: new Date(ms).toISOString(), message: { role: "user", content: "lockedoutword", timestamp: ms } })}\n`,
    );
    const holder = await holdWriterLock(agent.agentDir);
    try {
      const result = await recall("search", "--json", "naive");
      expect(result.code).toBe(0);
      expect(jsonLines(result.stdout)[0]!.id).toBe("01a0f755-f200-7250-a372-48336bf4923d");
      expect(result.stderr).toMatch(
        /another recall process is updating the index; results may miss the newest sessions/,
      );
      expect((await recall("search", "lockedoutword")).code).toBe(1);
    } finally {
      await holder.release();
    }
    expect((await recall("search", "lockedoutword")).code).toBe(0);
  });

  it("a deleted cache is rebuilt on the next search", async () => {
    rmSync(join(agent.agentDir, "cache"), { recursive: true, force: true });
    const result = await recall("search", "--json", "forkonlyword");
    expect(result.code).toBe(0);
    expect(jsonLines(result.stdout)[0]!.id).toBe("01a0f71f-0380-71ce-a5f6-9af2c7be0ad4");
  });
});

describe("where sessions are read from", () => {
  it("honours --sessions-dir, PI_CODING_AGENT_SESSION_DIR and settings.json sessionDir (flat layout)", async () => {
    const flatDir = join(FIXTURES, "flat");
    const byFlag = jsonLines(
      (await recall("search", "--json", "--sessions-dir", flatDir, "flatlayoutblogword")).stdout,
    );
    expect(byFlag.map((h) => h.cwd)).toEqual(["/home/dev/blog"]);
    const byEnv = await runRecall(["search", "--json", "flatlayoutinfraword"], {
      env: { ...agent.env, PI_CODING_AGENT_SESSION_DIR: flatDir },
    });
    expect(jsonLines(byEnv.stdout).map((h) => h.cwd)).toEqual(["/home/dev/infra"]);
    writeFileSync(join(agent.agentDir, "settings.json"), JSON.stringify({ sessionDir: flatDir }));
    try {
      const bySettings = await recall("search", "--json", "flatlayoutinfraword");
      expect(jsonLines(bySettings.stdout).map((h) => h.cwd)).toEqual(["/home/dev/infra"]);
      expect((await recall("search", "forkonlyword")).code).toBe(1);
    } finally {
      rmSync(join(agent.agentDir, "settings.json"));
    }
  });
});

describe("typos: corrected for a person, only suggested to a script", () => {
  // "help" is held; "helm" is not, and is one letter from it.
  let typo: AgentDir;
  beforeAll(() => {
    typo = makeAgentDir({ withFixtures: false });
    const folder = join(typo.sessionsDir, "--tmp-typo--");
    mkdirSync(folder);
    const id = "0190bbbb-0000-7000-8000-000000000001";
    const entries = [
      { type: "session", version: 3, id, timestamp: "2026-10-02T10:00:00.000Z", cwd: "/tmp/typo" },
      {
        type: "message",
        id: "e1",
        parentId: null,
        timestamp: "2026-10-02T10:00:01.000Z",
        message: {
          role: "user",
          content: [{ type: "text", text: "I need help with the release notes" }],
        },
      },
    ];
    writeFileSync(
      join(folder, `2026-10-02T10-00-00-000Z_${id}.jsonl`),
      entries.map((e) => JSON.stringify(e)).join("\n") + "\n",
    );
  });
  afterAll(() => typo.cleanup());
  const search = (...args: string[]) => runRecall(["search", ...args], { env: typo.env });

  it("--json, --format and a pipe search the words as typed: nothing found, exit 1, the nearest word suggested", async () => {
    for (const args of [["helm", "--json"], ["--format", "tsv", "helm"], ["helm"]]) {
      const result = await search(...args);
      expect(result.code, args.join(" ")).toBe(1);
      expect(result.stdout, args.join(" ")).toBe("");
      expect(result.stderr, args.join(" ")).toMatch(
        /^recall: no session holds "helm"; did you mean "help"\?\n/,
      );
    }
  });

  it("--typos correct opts a script in; --exact suggests nothing; both at once is a mistake", async () => {
    const corrected = await search("--typos", "correct", "--json", "helm");
    expect(corrected.code).toBe(0);
    expect(jsonLines(corrected.stdout)).toHaveLength(1);
    expect(corrected.stderr).toBe(
      'recall: no session holds "helm": read as "help", one typo away\n',
    );
    const exact = await search("--exact", "--json", "helm");
    expect(exact).toMatchObject({ code: 1, stdout: "", stderr: "" });
    expect((await search("--exact", "--typos", "correct", "helm")).code).toBe(2);
  });

  it.skipIf(skipWithout("script") !== "")(
    `a person at a terminal (script) gets the correction, and is told${skipWithout("script")}`,
    () => {
      const seen = spawnSync(
        "script",
        ["-qec", `${process.execPath} ${RECALL_BIN} search --color never helm`, "/dev/null"],
        { env: typo.env, encoding: "utf8" },
      );
      expect(seen.status).toBe(0);
      expect(seen.stdout).toContain("I need help with the release notes");
      expect(seen.stdout).toContain(
        'recall: no session holds "helm": read as "help", one typo away',
      );
    },
  );
});

describe("an empty query", () => {
  it("lists the latest sessions, as '' and as whitespace; no query at all is a mistake", async () => {
    const latest = jsonLines<{ id: string; modified: string }>(
      (await recall("list", "--json", "-n", "5")).stdout,
    ).map((s) => s.id);
    for (const query of ["", "   "]) {
      const result = await recall("search", "--json", "-n", "5", "--", query);
      expect(result.code, JSON.stringify(query)).toBe(0);
      expect(jsonLines<{ id: string }>(result.stdout).map((s) => s.id)).toEqual(latest);
    }
    // The README's fzf line, its query cleared.
    const tsv = await recall("search", "--format", "tsv", "--prefix", "--", "");
    expect(tsv.code).toBe(0);
    expect(tsv.stdout.split("\n").filter(Boolean).length).toBeGreaterThan(1);
    const none = await recall("search");
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^recall: search needs a query: .*'' for the latest sessions/);
  });
});

describe("a value attached to a short option", () => {
  it("is taken as head, rg and fd take it: -n2, -n1", async () => {
    const listed = await recall("list", "-n2", "--json");
    expect(listed.code).toBe(0);
    expect(jsonLines(listed.stdout)).toHaveLength(2);
    const found = await recall("search", "-n1", "--json", "the");
    expect(found.code).toBe(0);
    expect(jsonLines(found.stdout)).toHaveLength(1);
    // read runs through clipanion, search and list through the quick parser.
    const read = await recall("read", "-n1", "--json", S1_ID);
    expect(read.code).toBe(0);
    expect(jsonLines(read.stdout).filter((line) => line.type === "message")).toHaveLength(1);
    // related has a positional session: its -n3 is split all the same.
    const related = await recall("related", "-n1", "--json", S1_ID);
    expect(related.stderr).toBe("");
    expect(jsonLines(related.stdout).length).toBeLessThanOrEqual(1);
    // After an option given before the command's name, too.
    const after = await recall("--color=never", "search", "-n2", "--json", "the");
    expect(after.code).toBe(0);
    expect(jsonLines(after.stdout)).toHaveLength(2);
    const valued = await recall("--color", "never", "list", "-n1", "--json");
    expect(jsonLines(valued.stdout)).toHaveLength(1);
  });
});
