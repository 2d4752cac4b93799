import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openRecall } from "./helpers/open-store.js";
import type { SessionTags } from "../src/api/tags.js";
import type { NativeChangeSet } from "../src/native/addon.js";
import type { IndexHandle } from "../src/native/index-handle.js";
import type { IndexStore } from "../src/store.js";
import { syncTags } from "../src/sync/apply-tags.js";
import { syncIndex } from "../src/sync/sync.js";
import { tagsFor } from "../src/tags/open-tags.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { jsonLines, runRecall } from "./helpers/run-cli.js";

const S1 = "01a0f6b1-2680-79e3-a1fa-30b6f0582ef5"; // shop-api 09:00, kubectl
const S2 = "01a0f6e8-1500-7a6b-ad20-694247f75ec3"; // shop-api 10:00
const S3 = "01a0f71f-0380-71ce-a5f6-9af2c7be0ad4"; // shop-api 11:00, fork of S1 (its copy of kubectl is indexed with S1): forkonlyword
const D1 = "421f595e-0a03-4c2f-9f1d-25f1dc156710"; // shop-api, a month earlier, kubectl
const S4 = "01a0f755-f200-7250-a372-48336bf4923d"; // blog 12:00, résumé
const S5 = "01a0f78c-e080-7f28-af10-ffa76e6bae4c"; // infra 13:00
const S1_FILE =
  "--home-dev-shop-api--/2026-10-01T09-00-00-000Z_01a0f6b1-2680-79e3-a1fa-30b6f0582ef5.jsonl";
/** Sessions with at least one message: the header-only one is not in the index. */
const INDEXED_SESSIONS = 10;

interface Hit {
  id: string;
  tags: string[];
  score: number;
  message: unknown;
  snippet: string;
  spans: unknown[];
}

let agent: AgentDir;
const recall = (args: string[], input?: string) => runRecall(args, { env: agent.env, input });
const hits = async (...args: string[]) => {
  const result = await recall(["search", "--json", ...args]);
  return { ...result, hits: jsonLines<Hit>(result.stdout) };
};
const ids = async (...args: string[]) => (await hits(...args)).hits.map((h) => h.id);

describe("recall tag, untag and tags", () => {
  beforeAll(() => {
    agent = makeAgentDir();
  });
  afterAll(() => agent.cleanup());

  it("tags a session named by id prefix, normalizing the tags", async () => {
    const result = await recall(["tag", S1.slice(0, 8), "#Rust/Search!", "deploy", "--json"]);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    const [tagged] = jsonLines<SessionTags>(result.stdout);
    expect(tagged).toEqual({
      id: S1,
      path: join(agent.sessionsDir, S1_FILE),
      tags: ["deploy", "rust-search"],
      manual: ["deploy", "rust-search"],
      auto: [],
      suppressed: [],
    });
  });

  it("writes the tags into the index at once: a search without a sync shows them", async () => {
    const found = jsonLines<Hit>(
      (await recall(["search", "--no-sync", "--json", "#rust-search"])).stdout,
    );
    expect(found.map((h) => [h.id, h.tags])).toEqual([[S1, ["deploy", "rust-search"]]]);
    // The tag words, searchable as text too.
    expect(
      jsonLines<Hit>((await recall(["search", "--no-sync", "--json", "rust"])).stdout).map(
        (h) => h.id,
      ),
    ).toEqual([S1]);
  });

  it("names a session by full id or by file path", async () => {
    expect((await recall(["tag", S3, "viaid"])).code).toBe(0);
    const byPath = await recall(["tag", join(agent.sessionsDir, S1_FILE), "viapath"]);
    expect(byPath.code).toBe(0);
    expect(byPath.stdout).toContain(`${S1}  #deploy #rust-search #viapath`);
  });

  it("refuses an ambiguous prefix, listing the candidates, and an unknown session", async () => {
    const ambiguous = await recall(["tag", "01a0f6", "x"]);
    expect(ambiguous).toMatchObject({ code: 2, stdout: "" });
    expect(ambiguous.stderr).toContain('"01a0f6" matches 2 sessions');
    for (const id of [S1, S2]) expect(ambiguous.stderr).toContain(id);
    const unknown = await recall(["tag", "ffffffff", "x"]);
    expect(unknown).toMatchObject({ code: 2, stdout: "" });
    expect(unknown.stderr).toMatch(/no session with id or id prefix "ffffffff"/);
  });

  it("rejects an empty tag with a clear message, storing nothing", async () => {
    const result = await recall(["tag", S2, "fine", "#!?"]);
    expect(result).toMatchObject({ code: 2, stdout: "" });
    expect(result.stderr).toBe(
      'recall: "#!?" is not a tag: a tag needs at least one letter, digit or _\n',
    );
    expect((await recall(["tags", S2, "--json"])).code).toBe(1);
  });

  it("tags the sessions read from stdin with -", async () => {
    const result = await recall(["tag", "-", "piped", "--json"], `${S4}\n\n${S5}\n`);
    expect(result.code).toBe(0);
    expect(jsonLines<SessionTags>(result.stdout).map((t) => [t.id, t.tags])).toEqual([
      [S4, ["piped"]],
      [S5, ["piped"]],
    ]);
  });

  it("untag removes and suppresses, warning about a tag the session did not have; tagging again lifts it", async () => {
    const result = await recall(["untag", S1, "deploy", "never", "--json"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      `recall: ${S1} had no #never; suppressed for automatic tagging all the same\n`,
    );
    expect(jsonLines<SessionTags>(result.stdout)[0]).toMatchObject({
      tags: ["rust-search", "viapath"],
      suppressed: ["deploy", "never"],
    });
    const again = jsonLines<SessionTags>((await recall(["tag", S1, "deploy", "--json"])).stdout)[0];
    expect(again).toMatchObject({
      tags: ["deploy", "rust-search", "viapath"],
      suppressed: ["never"],
    });
  });

  it("tags <session> shows each set; tags alone counts every tag", async () => {
    const text = await recall(["tags", S1]);
    expect(text).toMatchObject({ code: 0, stderr: "" });
    expect(text.stdout).toBe(`${S1}  #deploy #rust-search #viapath\n  suppressed: #never\n`);
    const counts = await recall(["tags", "--json"]);
    expect(counts.code).toBe(0);
    expect(jsonLines(counts.stdout)).toEqual([
      { tag: "piped", sessions: 2 },
      { tag: "deploy", sessions: 1 },
      { tag: "rust-search", sessions: 1 },
      { tag: "viaid", sessions: 1 },
      { tag: "viapath", sessions: 1 },
    ]);
    expect((await recall(["tags"])).stdout).toBe(
      "#piped        2\n#deploy       1\n#rust-search  1\n#viaid        1\n#viapath      1\n",
    );
  });
});

describe("#tags in search queries", () => {
  beforeAll(async () => {
    agent = makeAgentDir();
    // a: S1, S3; b: S1, S5; codebase: S2.
    for (const [id, tags] of [
      [S1, ["a", "b"]],
      [S3, ["a"]],
      [S5, ["b"]],
      [S2, ["codebase"]],
    ] as const) {
      expect((await recall(["tag", id, ...tags])).code).toBe(0);
    }
  });
  afterAll(() => agent.cleanup());

  it("a tag-only query lists the sessions carrying the tag, newest first, shaped as hits", async () => {
    const { code, hits: found } = await hits("#a");
    expect(code).toBe(0);
    expect(found.map((h) => h.id)).toEqual([S3, S1]);
    expect(found[0]).toMatchObject({
      tags: ["a"],
      score: 0,
      message: null,
      snippet: "",
      spans: [],
    });
    expect(found[1]!.tags).toEqual(["a", "b"]);
  });

  it("several #tags must all be there", async () => {
    expect(await ids("#a #b")).toEqual([S1]);
    expect(await ids("#b", "#a")).toEqual([S1]);
  });

  it("-#tag drops the sessions carrying it", async () => {
    expect(await ids("#a -#b")).toEqual([S3]);
    const rest = await ids("--", "-#a");
    expect(rest).toHaveLength(INDEXED_SESSIONS - 2);
    expect(rest).not.toContain(S1);
    expect(rest).not.toContain(S3);
  });

  it("a mixed query searches the text among the tagged sessions only", async () => {
    expect((await ids("kubectl")).sort()).toEqual([S1, D1].sort());
    expect(await ids("kubectl #b")).toEqual([S1]);
    expect(await ids("kubectl -#b")).toEqual([D1]);
    expect(await ids("forkonlyword #a")).toEqual([S3]);
    const { hits: found } = await hits("kubectl #a");
    expect(found.map((h) => h.id)).toEqual([S1]);
    expect(found[0]!.message).not.toBeNull();
    expect(found[0]!.snippet.toLowerCase()).toContain("kubectl");
    // The text matches elsewhere, not among the tagged sessions.
    expect(await recall(["search", "forkonlyword #b"])).toMatchObject({
      code: 1,
      stdout: "",
      stderr: expect.stringMatching(/no session matches/),
    });
  });

  it("a tag no session carries matches nothing (exit 1), and is no error", async () => {
    expect(await recall(["search", "#nosuchtag"])).toMatchObject({ code: 1, stdout: "" });
    expect(await recall(["search", "--json", "kubectl #nosuchtag"])).toMatchObject({
      code: 1,
      stdout: "",
      stderr: "",
    });
  });

  it("tag words are ordinary searchable text too", async () => {
    const { hits: found } = await hits("codebase");
    expect(found.map((h) => [h.id, h.tags, h.message])).toEqual([[S2, ["codebase"], null]]);
  });

  it("search and list results carry each session's merged tags", async () => {
    const { hits: found } = await hits("kubectl");
    expect(Object.fromEntries(found.map((h) => [h.id, h.tags]))).toEqual({
      [S1]: ["a", "b"],
      [D1]: [],
    });
    const listed = jsonLines<{ id: string; tags: string[] }>(
      (await recall(["list", "--json"])).stdout,
    );
    expect(listed.find((s) => s.id === S5)?.tags).toEqual(["b"]);
    expect(listed.find((s) => s.id === S4)?.tags).toEqual([]);
  });

  // Issue 20: odd queries never error; `#!!` is text, with no word in it.
  it("a hashtag with nothing to make a tag of is text, so the words alone decide", async () => {
    expect(await ids("deploy #!!")).toEqual(await ids("deploy"));
  });
});

describe("tags are user data", () => {
  afterEach(() => agent.cleanup());

  it("survive `recall index --rebuild` and a deleted cache", async () => {
    agent = makeAgentDir();
    expect((await recall(["tag", S2, "codebase"])).code).toBe(0);
    expect((await recall(["tag", S1, "keep"])).code).toBe(0);
    expect((await recall(["index", "--rebuild"])).code).toBe(0);
    expect(await ids("#keep")).toEqual([S1]);
    expect((await hits("codebase")).hits.map((h) => [h.id, h.tags])).toEqual([[S2, ["codebase"]]]);

    rmSync(join(agent.agentDir, "cache"), { recursive: true, force: true });
    expect((await hits("kubectl")).hits.find((h) => h.id === S1)?.tags).toEqual(["keep"]);
    expect(await ids("#keep")).toEqual([S1]);
    expect((await hits("codebase")).hits.map((h) => h.id)).toEqual([S2]);
  });

  it("live in RECALL_DATA_DIR when it is set", async () => {
    agent = makeAgentDir();
    const dataDir = join(agent.root, "elsewhere");
    const env = { ...agent.env, RECALL_DATA_DIR: dataDir };
    expect((await runRecall(["tag", S1, "moved"], { env })).code).toBe(0);
    expect((await runRecall(["tags", "--json"], { env })).stdout).toContain('"moved"');
    expect((await recall(["tags"])).code).toBe(1); // the default place has none
  });

  it("an edit the index never saw (a crash between the two writes) is applied by the next sync", async () => {
    agent = makeAgentDir();
    const store = await openRecall({ env: agent.env });
    await syncIndex(store);
    await (await tagsFor(store)).addManual(S4, ["caughtup"]); // the tag store's write, without the index's
    // Tag filters apply to the tags in the index: --no-sync answers from it as it is.
    expect((await hits("--no-sync", "#caughtup")).hits).toEqual([]);
    expect((await hits("#caughtup")).hits.map((h) => [h.id, h.tags])).toEqual([[S4, ["caughtup"]]]);
    expect(await ids("--no-sync", "caughtup")).toEqual([S4]);
  });

  it("a tag edit rewrites only the session's tag document", async () => {
    agent = makeAgentDir();
    const base = await openRecall({ env: agent.env });
    await syncIndex(base);
    const payloads: unknown[] = [];
    const store: IndexStore = {
      ...base,
      native: new Proxy(base.native, {
        get(target, key) {
          if (key === "apply") {
            return (changes: NativeChangeSet) => {
              payloads.push(changes);
              return target.apply(changes);
            };
          }
          const value = Reflect.get(target, key) as unknown;
          return typeof value === "function" ? value.bind(target) : value;
        },
      }) as IndexHandle,
    };
    const before = await store.native.stats();
    await (await tagsFor(store)).addManual(S1, ["one"]);
    expect(await syncTags(store)).toEqual({ updated: 1, busy: false });
    expect(payloads).toEqual([{ tagUpdates: [{ sessionId: S1, tags: ["one"] }] }]);
    const after = await store.native.stats();
    expect(after.documents).toBe(before.documents);
    expect(after.sessions).toBe(before.sessions);
    expect(await ids("--no-sync", "#one", "kubectl")).toEqual([S1]);
  });

  it("a deleted tag database takes its tags out of the index too", async () => {
    agent = makeAgentDir();
    expect((await recall(["tag", S2, "codebase"])).code).toBe(0);
    rmSync(join(agent.agentDir, "recall"), { recursive: true, force: true });
    expect(await recall(["search", "codebase"])).toMatchObject({ code: 1, stdout: "" });
    expect((await hits("helm")).hits.find((h) => h.id === S2)?.tags).toEqual([]);
  });
});

describe("the pi-recall import", () => {
  afterEach(() => agent.cleanup());

  function writeLegacy(sessions: Record<string, unknown>): string {
    const file = join(agent.agentDir, "pi-recall", "tags-v1.json");
    mkdirSync(join(agent.agentDir, "pi-recall"), { recursive: true });
    writeFileSync(file, JSON.stringify({ version: 1, sessions }));
    return file;
  }

  it("imports tags-v1.json once, merged with recall's own tags, and says so", async () => {
    agent = makeAgentDir();
    expect((await recall(["tag", S4, "wip"])).code).toBe(0);
    const file = writeLegacy({
      [S4]: {
        manualTags: ["Legacy"],
        autoTags: ["oldauto"],
        suppressedTags: ["wip"],
        updatedAt: 1,
      },
      [S5]: { manualTags: ["legacy"], autoTags: [], suppressedTags: [], updatedAt: 1 },
    });
    const first = await hits("#legacy");
    expect(first.stderr).toBe(
      `recall: imported the pi-recall tags of 2 sessions from ${file} (once; recall keeps its own copy from now on)\n`,
    );
    expect(first.hits.map((h) => [h.id, h.tags])).toEqual([
      [S5, ["legacy"]],
      // recall's own manual #wip stays; the file's suppression of it does not win.
      [S4, ["legacy", "wip", "oldauto"]],
    ]);

    writeLegacy({ [S1]: { manualTags: ["late"], autoTags: [], suppressedTags: [], updatedAt: 2 } });
    const second = await recall(["tags", "--json"]);
    expect(second.stderr).toBe("");
    expect(jsonLines(second.stdout)).not.toContainEqual(expect.objectContaining({ tag: "late" }));
  });

  it("says so when the file cannot be read, and imports it once it is fixed", async () => {
    agent = makeAgentDir();
    const file = writeLegacy({});
    writeFileSync(file, "{ not json");
    const broken = await recall(["tags"]);
    expect(broken.stderr).toMatch(/cannot import the pi-recall tags in .*tags-v1\.json/);
    writeLegacy({
      [S1]: { manualTags: ["fixed"], autoTags: [], suppressedTags: [], updatedAt: 1 },
    });
    const fixed = await recall(["tags", "--json"]);
    expect(fixed.stderr).toMatch(/imported the pi-recall tags of 1 session from/);
    expect(jsonLines(fixed.stdout)).toEqual([{ tag: "fixed", sessions: 1 }]);
  });

  it("finds pi-recall's tags where PI_RECALL_DATA_DIR put them", async () => {
    agent = makeAgentDir();
    const moved = join(agent.root, "elsewhere");
    mkdirSync(moved);
    writeFileSync(
      join(moved, "tags-v1.json"),
      JSON.stringify({
        version: 1,
        sessions: {
          [S1]: { manualTags: ["moved"], autoTags: [], suppressedTags: [], updatedAt: 1 },
        },
      }),
    );
    const result = await runRecall(["tags", "--json"], {
      env: { ...agent.env, PI_RECALL_DATA_DIR: moved },
    });
    expect(result.stderr).toContain(`from ${join(moved, "tags-v1.json")}`);
    expect(jsonLines(result.stdout)).toEqual([{ tag: "moved", sessions: 1 }]);
  });
});
