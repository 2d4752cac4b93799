/**
 * The archive against a real OpenSearch (scripts/opensearch.sh): remotes in the config file,
 * `recall remote test`, the index template's analyzer beside the local one, and `recall push` —
 * dry run, push, a push with nothing new, appended messages, redaction.
 */
import { spawn } from "node:child_process";
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveLocations } from "../src/locations.js";
import { questionTerms } from "../src/native/words.js";
import { startArchiveProxy } from "./helpers/archive-proxy.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { FIXTURE_FILES, FIXTURE_SESSIONS_DIR, userMessage } from "./helpers/fixture-files.js";
import {
  engineApi,
  needsOpenSearch,
  openSearchMissing,
  openSearchUrl,
  WORKING_REMOTE_CHECKS,
} from "./helpers/opensearch.js";
import { jsonLines, RECALL_BIN, runRecall } from "./helpers/run-cli.js";

let url = "";
let agent: AgentDir;
const INDEX = "recall-push-test";

const api = (path: string, init?: { method?: string; body?: unknown }) =>
  engineApi(url, path, init);

/** The archived documents (after a refresh), by id. */
async function archived(): Promise<Map<string, any>> {
  await api(`/${INDEX}/_refresh`, { method: "POST" });
  const found = await api(`/${INDEX}/_search`, { body: { size: 1000, query: { match_all: {} } } });
  return new Map(found.hits.hits.map((h: any) => [h._id, h._source]));
}

const recall = (args: string[]) => runRecall(args, { env: agent.env });

describe.skipIf(openSearchMissing)(needsOpenSearch("the archive on a real OpenSearch"), () => {
  beforeAll(async () => {
    url = await openSearchUrl();
    agent = makeAgentDir();
  }, 300_000);
  afterAll(() => agent?.cleanup());

  it("refuses plain http to another host, and a URL that holds credentials", async () => {
    const http = await recall(["remote", "add", "team", "http://search.example.com:9200"]);
    expect(http.code).toBe(2);
    expect(http.stderr).toMatch(
      /^recall: .*plain http to search\.example\.com: use https, or set "insecure": true/,
    );
    const inUrl = await recall([
      "remote",
      "add",
      "team",
      "https://ada:hunter22@search.example.com",
    ]);
    expect(inUrl.code).toBe(2);
    expect(inUrl.stderr).not.toContain("hunter22");
    expect((await recall(["remote", "list"])).code).toBe(1);
  });

  it("adds a remote on loopback, lists it, and tests what works", async () => {
    const added = await recall([
      "remote",
      "add",
      "local",
      url,
      "--index",
      INDEX,
      "--machine",
      "laptop",
      "--user",
      "ada",
    ]);
    expect(added.stderr).toBe("");
    expect(added.code).toBe(0);
    const config = JSON.parse(readFileSync(join(agent.agentDir, "recall", "config.json"), "utf8"));
    expect(config.remotes.local).toEqual({ url, index: INDEX, machine: "laptop", user: "ada" });
    const listed = jsonLines((await recall(["remote", "list", "--json"])).stdout);
    expect(listed).toEqual([
      expect.objectContaining({
        name: "local",
        url,
        index: INDEX,
        content: ["conversation"],
        redact: true,
      }),
    ]);

    const tested = await recall(["remote", "test", "local", "--json"]);
    expect(tested.code).toBe(0);
    expect(jsonLines(tested.stdout).map((c) => [c.check, c.ok])).toEqual(WORKING_REMOTE_CHECKS);
    expect((await archived()).size).toBe(0);
  });

  it("says when the remote does not answer", async () => {
    await recall(["remote", "add", "gone", "http://127.0.0.1:1"]);
    const tested = await recall(["remote", "test", "gone"]);
    expect(tested.code).toBe(2);
    expect(tested.stdout).toMatch(
      /FAIL {2}reachable: remote gone \(http:\/\/127\.0\.0\.1:1\) is unreachable while connecting/,
    );
  });

  it("refuses a credentials file others may read, without printing it", async () => {
    const file = join(agent.root, "team.json");
    writeFileSync(file, JSON.stringify({ username: "ada", password: "pw-not-to-print" }));
    chmodSync(file, 0o644);
    await recall(["remote", "add", "shared", url, "--credentials", file]);
    const tested = await recall(["remote", "test", "shared"]);
    expect(tested.code).toBe(2);
    expect(tested.stderr).toContain(
      `the credentials file ${file} of remote shared may be read by others: chmod 600 it`,
    );
    expect(tested.stdout + tested.stderr).not.toContain("pw-not-to-print");
  });

  it("analyzes text in the archive's index as the local index does: folding, CJK pairs, words cut at every non-letter", async () => {
    const samples = [
      "Ørsted Straße café",
      "東京都 한국어 カタカナ",
      "foo_bar v1.2.3 src/api/recall.ts",
      "don't ŁÓDŹ naïve Æsir ﬁle",
      "x86_64 HTTP2 abc東京def",
    ];
    for (const text of samples) {
      const analyzed = await api(`/${INDEX}/_analyze`, { body: { analyzer: "recall_text", text } });
      const words = [...new Set(analyzed.tokens.map((t: { token: string }) => t.token))];
      expect(words, text).toEqual(questionTerms(text));
    }
    // The difference: a word of more than 255 characters is left out locally, cut in pieces here.
    const long = "a".repeat(300);
    const analyzed = await api(`/${INDEX}/_analyze`, {
      body: { analyzer: "recall_text", text: long },
    });
    expect(analyzed.tokens.map((t: { token: string }) => t.token.length)).toEqual([255, 45]);
    expect(questionTerms(long)).toEqual([]);
  });

  const s1 = FIXTURE_FILES.s1.replace(FIXTURE_SESSIONS_DIR, "");
  let pushed = 0;

  it("--dry-run prints the documents that would leave and sends nothing", async () => {
    const dry = await recall(["push", "--remote", "local", "--dry-run", "--json"]);
    expect(dry.stderr).toBe("");
    expect(dry.code).toBe(0);
    const lines = jsonLines(dry.stdout);
    const documents = lines.filter((l) => l.type === "document");
    const summary = lines.at(-1)!;
    expect(summary).toMatchObject({
      type: "summary",
      dryRun: true,
      messages: documents.length,
      unchanged: 0,
    });
    expect(documents.length).toBeGreaterThan(10);
    expect(
      documents.every(
        (d) => d.kind === "conversation" && d.machine === "laptop" && d.user === "ada",
      ),
    ).toBe(true);
    expect(new Set(documents.map((d) => d.id)).size).toBe(documents.length);
    pushed = documents.length;
    expect((await archived()).size).toBe(0);
  });

  it("pushes every message once; a second push sends nothing", async () => {
    const first = await recall(["push", "--remote", "local"]);
    expect(first.stderr).toBe("");
    expect(first.stdout).toMatch(
      new RegExp(
        `^pushed ${pushed} messages? of \\d+ sessions? to local \\(.* kB, no secret redacted\\); 0 sessions unchanged\\n$`,
      ),
    );
    const documents = await archived();
    expect(documents.size).toBe(pushed);
    const second = jsonLines((await recall(["push", "--remote", "local", "--json"])).stdout);
    expect(second).toEqual([
      expect.objectContaining({
        type: "summary",
        dryRun: false,
        messages: 0,
        sessions: 0,
        deleted: 0,
      }),
    ]);
    expect(second[0]!.unchanged).toBeGreaterThan(5);
    expect((await archived()).size).toBe(pushed);
  });

  it("a push with nothing to send decides by the signatures alone, believed only beside the watermarks they were saved with", async () => {
    const dir = join(resolveLocations({ env: agent.env }).cacheDir, "archive");
    const name = readdirSync(dir).find(
      (f) => f.startsWith("local-") && f.endsWith(".signatures.json"),
    )!;
    const signatures = join(dir, name);
    const watermarks = join(dir, name.replace(".signatures.json", ".json"));
    const [original, originalSignatures] = [
      readFileSync(watermarks),
      readFileSync(signatures, "utf8"),
    ];
    /**
     * The signatures, saying they were saved with the watermarks file as it is now (its inode, size
     * and whole milliseconds).
     */
    const vouchForWatermarks = () => {
      const { ino, size, mtimeMs } = statSync(watermarks);
      writeFileSync(
        signatures,
        JSON.stringify({ ...JSON.parse(originalSignatures), of: [ino, size, Math.trunc(mtimeMs)] }),
      );
    };
    try {
      // Watermarks that cannot be read, which the signatures vouch for: they are not read, so
      // nothing is sent.
      writeFileSync(watermarks, Buffer.alloc(original.length, "x"));
      vouchForWatermarks();
      expect(
        jsonLines((await recall(["push", "--remote", "local", "--json"])).stdout)[0],
      ).toMatchObject({ messages: 0, unchanged: expect.any(Number) });
      // Signatures saved with another watermarks file are not believed: unreadable watermarks send
      // everything again.
      writeFileSync(signatures, originalSignatures);
      expect(
        jsonLines((await recall(["push", "--remote", "local", "--json"])).stdout)[0],
      ).toMatchObject({ messages: pushed, unchanged: 0 });
      expect((await archived()).size).toBe(pushed);
    } finally {
      writeFileSync(watermarks, original);
      vouchForWatermarks();
    }
  });

  it("a push with nothing to send asks the remote only which indexes it has; one with something prepares the index first", async () => {
    const proxy = await startArchiveProxy(url);
    try {
      await recall([
        "remote",
        "add",
        "proxied",
        proxy.url,
        "--index",
        INDEX,
        "--machine",
        "laptop",
        "--user",
        "ada",
      ]);
      expect((await recall(["push", "--remote", "proxied"])).code).toBe(0);
      expect(proxy.requests.some((r) => r.includes("_index_template"))).toBe(true);
      proxy.requests.length = 0;
      const again = await recall(["push", "--remote", "proxied", "--json"]);
      expect(again.code).toBe(0);
      expect(jsonLines(again.stdout)).toEqual([
        expect.objectContaining({ type: "summary", messages: 0, deleted: 0, replaced: [] }),
      ]);
      // One request: the identity of the indexes behind the aliases (index-identity.ts).
      expect(proxy.requests).toEqual([
        expect.stringMatching(
          new RegExp(`^GET /${INDEX},${INDEX}-holders\\?ignore_unavailable=true`),
        ),
      ]);
    } finally {
      await proxy.close();
    }
  });

  it("an appended session sends its new messages only; a message that grew replaces its document", async () => {
    const file = join(agent.sessionsDir, s1);
    const before = await archived();
    const session = [...before.values()].find((d) => file.includes(d.session_id))!.session_id;
    const last = [...before.values()]
      .filter((d) => d.session_id === session)
      .sort((a, b) => b.position - a.position)[0];
    // The fixture ends with an assistant message: another one joins it (a new id, the same place).
    expect(last.role).toBe("assistant");
    const ms = Date.parse("2026-10-01T09:03:00Z");
    const assistant = {
      type: "message",
      id: "aa000001",
      parentId: null,
      timestamp: new Date(ms).toISOString(),
      message: {
        role: "assistant",
        content: [{ type: "text", text: "Also: the Ørsted wind farm dashboard in 東京都." }],
        timestamp: ms,
      },
    };
    appendFileSync(file, `${JSON.stringify(assistant)}\n`);
    appendFileSync(
      file,
      userMessage(
        "aa000002",
        `Deploy with token ${"ghp_"}${"Zx7Qw3rTy9".repeat(4).slice(0, 36)} please`,
        ms + 1000,
      ),
    );
    const report = jsonLines((await recall(["push", "--remote", "local", "--json"])).stdout)[0]!;
    expect(report).toMatchObject({
      sessions: 1,
      messages: 2,
      deleted: 1,
      redactions: { "github-token": 1 },
    });
    const after = await archived();
    expect(after.size).toBe(pushed + 1);
    expect(after.has(`${session}:${last.entry_id}`)).toBe(false);
    expect(after.get(`${session}:aa000001`)).toMatchObject({
      position: last.position,
      text: expect.stringContaining("Ørsted wind farm"),
    });
    expect(after.get(`${session}:aa000002`)).toMatchObject({
      role: "user",
      redactions: 1,
      text: "Deploy with token [REDACTED:github-token] please",
    });

    // The archive's analyzer finds them as the local one would.
    for (const query of ["orsted", "東京", "redacted"]) {
      const found = await api(`/${INDEX}/_search`, { body: { query: { match: { text: query } } } });
      expect(found.hits.hits.length, query).toBe(1);
    }
    expect(JSON.stringify(await archived())).not.toContain("ghp_");
  });

  it("a rewritten session replaces its documents", async () => {
    const file = join(agent.sessionsDir, FIXTURE_FILES.s2.replace(FIXTURE_SESSIONS_DIR, ""));
    const session = "01a0f6e8-1500-7a6b-ad20-694247f75ec3";
    const before = [...(await archived()).values()].filter((d) => d.session_id === session).length;
    expect(before).toBeGreaterThan(1);
    // The same header, another conversation: not an append.
    const header = readFileSync(file, "utf8").split("\n")[0];
    writeFileSync(
      file,
      `${header}\n${userMessage("bb000001", "A question about quokkas, asked again", Date.parse("2026-10-02T10:00:00Z"))}`,
    );
    const pushed = await recall(["push", "--remote", "local", "--json"]);
    expect(pushed.stderr).toBe("");
    expect(jsonLines(pushed.stdout)[0]).toMatchObject({
      sessions: 1,
      messages: 1,
      deleted: before,
    });
    const after = [...(await archived()).entries()].filter(([, d]) => d.session_id === session);
    expect(after.map(([id]) => id)).toEqual([`${session}:bb000001`]);
  });

  it("a deleted session file takes its session out of the archive; a dry run only says so", async () => {
    const session = "01a0f71f-0380-71ce-a5f6-9af2c7be0ad4";
    const count = async () =>
      [...(await archived()).values()].filter((d) => d.session_id === session).length;
    const before = await count();
    expect(before).toBeGreaterThan(0);
    rmSync(join(agent.sessionsDir, FIXTURE_FILES.s3.replace(FIXTURE_SESSIONS_DIR, "")));
    const dry = await recall(["push", "--remote", "local", "--dry-run"]);
    expect(dry.stdout).toMatch(/1 deleted session would be removed/);
    expect(await count()).toBe(before);
    const pushed = await recall(["push", "--remote", "local", "--json"]);
    expect(pushed.stderr).toBe("");
    expect(jsonLines(pushed.stdout).at(-1)).toMatchObject({
      removed: 1,
      deleted: before,
      messages: 0,
    });
    expect(await count()).toBe(0);
    expect(
      jsonLines((await recall(["push", "--remote", "local", "--json"])).stdout).at(-1),
    ).toMatchObject({ removed: 0, deleted: 0 });
  });

  it("--forget takes sessions out for good, --forget-project every session of this folder's repository", async () => {
    const s1 = "01a0f6b1-2680-79e3-a1fa-30b6f0582ef5";
    const ofSession = async (id: string) =>
      [...(await archived()).values()].filter((d) => d.session_id === id).length;
    expect(await ofSession(s1)).toBeGreaterThan(0);
    const forgot = await recall(["push", "--remote", "local", "--forget", "01a0f6b1", "--json"]);
    expect(forgot.stderr).toBe("");
    expect(jsonLines(forgot.stdout)).toEqual([
      expect.objectContaining({
        type: "forgotten",
        sessions: [s1],
        project: null,
        deleted: expect.any(Number),
      }),
    ]);
    expect(await ofSession(s1)).toBe(0);
    // Appended to since, it is still not sent.
    appendFileSync(
      join(agent.sessionsDir, FIXTURE_FILES.s1.replace(FIXTURE_SESSIONS_DIR, "")),
      userMessage("ff000001", "one more line after forgetting", Date.parse("2026-10-03T00:00:00Z")),
    );
    expect(
      jsonLines((await recall(["push", "--remote", "local", "--json"])).stdout).at(-1),
    ).toMatchObject({ forgotten: 1, messages: 0 });
    expect(await ofSession(s1)).toBe(0);

    // A session of a clone of acme/tools, pushed, then its project forgotten from another clone.
    const clone = (name: string) => {
      const dir = join(realpathSync(agent.root), name);
      mkdirSync(join(dir, ".git"), { recursive: true });
      writeFileSync(
        join(dir, ".git", "config"),
        `[remote "origin"]\n\turl = ${name === "tools-a" ? "git@github.com:acme/tools.git" : "https://github.com/acme/tools"}\n`,
      );
      return dir;
    };
    const id = "0c0c0c0c-1111-7222-8333-944445555666";
    mkdirSync(join(agent.sessionsDir, "--tools--"), { recursive: true });
    const at = Date.parse("2026-10-04T00:00:00Z");
    writeFileSync(
      join(agent.sessionsDir, "--tools--", `2026-10-04T00-00-00-000Z_${id}.jsonl`),
      `${JSON.stringify({ type: "session", version: 3, id, timestamp: new Date(at).toISOString(), cwd: clone("tools-a") })}\n${userMessage("cc000001", "the tools session", at)}`,
    );
    expect((await recall(["push", "--remote", "local"])).code).toBe(0);
    expect([...(await archived()).values()].find((d) => d.session_id === id)?.project).toBe(
      "github.com/acme/tools",
    );
    const project = await runRecall(["push", "--remote", "local", "--forget-project"], {
      env: agent.env,
      cwd: clone("tools-b"),
    });
    expect(project.stderr).toBe("");
    expect(project.stdout).toMatch(
      /forgot project github.com\/acme\/tools in local: 1 document removed/,
    );
    expect(await ofSession(id)).toBe(0);
    expect(
      jsonLines((await recall(["push", "--remote", "local", "--json"])).stdout).at(-1),
    ).toMatchObject({ forgotten: 2, messages: 0 });
    const bad = await recall(["push", "--remote", "local", "--forget"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("--cwd, --repo and --since push only the sessions in scope", async () => {
    const folder = (name: string) => {
      const dir = join(realpathSync(agent.root), name);
      mkdirSync(dir, { recursive: true });
      return dir;
    };
    const [inside, outside] = [folder("scoped-in"), folder("scoped-out")];
    const at = Date.parse("2026-10-05T00:00:00Z");
    const ids = {
      inside: "0d0d0d0d-1111-7222-8333-944445555666",
      outside: "0e0e0e0e-1111-7222-8333-944445555666",
    };
    mkdirSync(join(agent.sessionsDir, "--scoped--"), { recursive: true });
    for (const [which, cwd] of [
      ["inside", inside],
      ["outside", outside],
    ] as const) {
      const header = JSON.stringify({
        type: "session",
        version: 3,
        id: ids[which],
        timestamp: new Date(at).toISOString(),
        cwd,
      });
      writeFileSync(
        join(agent.sessionsDir, "--scoped--", `2026-10-05T00-00-00-000Z_${ids[which]}.jsonl`),
        `${header}\n${userMessage(`${which}01`, `the ${which} session`, at)}`,
      );
    }
    const pushed = async (...args: string[]) => {
      const result = await runRecall(["push", "--remote", "local", "--json", ...args], {
        env: agent.env,
        cwd: inside,
      });
      expect(result.stderr).toBe("");
      return jsonLines(result.stdout).at(-1);
    };
    const archivedIds = async () =>
      new Set([...(await archived()).values()].map((d) => d.session_id));
    const both = await runRecall(["push", "--remote", "local", "--here", "--repo"], {
      env: agent.env,
      cwd: inside,
    });
    expect(both.code).toBe(2);
    expect(both.stderr.trim().split("\n")).toHaveLength(1);
    expect(await pushed("--since", "2030-01-01")).toMatchObject({ sessions: 0, messages: 0 });
    expect(await pushed("--here")).toMatchObject({ sessions: 1, messages: 1 });
    expect(await archivedIds()).toContain(ids.inside);
    expect(await archivedIds()).not.toContain(ids.outside);
    expect(await pushed("--repo")).toMatchObject({ sessions: 0 });
    expect(await pushed()).toMatchObject({ sessions: 1, messages: 1 });
    expect(await archivedIds()).toContain(ids.outside);
  });

  it("watch --push sends each change to the archive as it happens, and an unknown remote is one line", async () => {
    const unknown = await recall(["watch", "--push", "nosuchremote"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim().split("\n")).toHaveLength(1);
    const child = spawn(process.execPath, [RECALL_BIN, "watch", "--json", "--push", "local"], {
      env: agent.env,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (data: Buffer) => (stdout += data.toString()));
    child.stderr.on("data", (data: Buffer) => (stderr += data.toString()));
    const closed = new Promise<number | null>((resolve) =>
      child.on("close", (code) => resolve(code)),
    );
    try {
      const file = join(agent.sessionsDir, FIXTURE_FILES.s4.replace(FIXTURE_SESSIONS_DIR, ""));
      const id = "01a0f755-f200-7250-a372-48336bf4923d:ee000001";
      // Once the watch has started (it holds its lock, then syncs and pushes once), a message is
      // appended.
      await eventually(async () =>
        existsSync(join(agent.agentDir, "cache", "recall", "watch.lock")),
      );
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      appendFileSync(
        file,
        userMessage(
          "ee000001",
          "a message written while the watch pushes",
          Date.parse("2026-10-06T00:00:00Z"),
        ),
      );
      await eventually(async () => (await archived()).has(id));
      expect((await archived()).get(id).text).toBe("a message written while the watch pushes");
      await eventually(async () =>
        jsonLines(stdout).some((line) => line.type === "summary" && (line.messages as number) >= 1),
      );
    } finally {
      child.kill("SIGTERM");
    }
    expect(await closed).toBe(0);
    expect(stderr).toBe("");
  });
});

/** Polls until `check` holds, for at most `timeoutMs`. */
async function eventually(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("the archive without a remote", () => {
  it("push with no remote configured says so in one line, with the command that adds one, exit 2", async () => {
    const bare = makeAgentDir();
    try {
      const run = await runRecall(["push"], { env: bare.env, cwd: bare.root });
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toMatch(
        /^recall: no remote is configured in .*config\.json; add one with `recall remote add NAME URL`\n$/,
      );
    } finally {
      bare.cleanup();
    }
  });
});
