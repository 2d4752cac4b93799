import { spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseLegacyTags } from "../src/tags/legacy-import.js";
import { TagHandle } from "../src/native/tag-handle.js";
import { TagStore } from "../src/tags/tag-store.js";

const LIBRARY = new URL("../dist/tags/tag-store.js", import.meta.url).href;

let dir: string;
let path: string;
let store: TagStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "recall-tags-"));
  path = join(dir, "data", "tags.db");
  store = TagStore.open(path);
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("manual, automatic and suppressed tags", () => {
  it("merges manual tags first, then automatic ones", async () => {
    await store.addManual("s1", ["zeta", "alpha"]);
    await store.setAuto("s1", ["beta"]);
    expect(store.sets("s1")).toEqual({ manual: ["alpha", "zeta"], auto: ["beta"], suppressed: [] });
    expect(store.merged("s1")).toEqual(["alpha", "zeta", "beta"]);
    expect(store.merged("other")).toEqual([]);
  });

  it("drops an automatic tag equal to a manual one; manual always wins", async () => {
    await store.addManual("s1", ["rust"]);
    await store.setAuto("s1", ["rust", "search"]);
    expect(store.sets("s1")).toEqual({ manual: ["rust"], auto: ["search"], suppressed: [] });
    // Tagging an automatic tag by hand makes it manual, so the next generator run cannot drop it.
    await store.addManual("s1", ["search"]);
    await store.setAuto("s1", ["other"]);
    expect(store.sets("s1")).toEqual({
      manual: ["rust", "search"],
      auto: ["other"],
      suppressed: [],
    });
  });

  it("normalizes a generator's proposals and replaces its previous ones", async () => {
    await store.setAuto("s1", ["#Rust/Search!", "!!!", "Deploy"]);
    expect(store.sets("s1").auto).toEqual(["deploy", "rust-search"]);
    await store.setAuto("s1", ["k8s"]);
    expect(store.sets("s1").auto).toEqual(["k8s"]);
  });

  it("untag suppresses: a later automatic run cannot bring the tag back", async () => {
    await store.addManual("s1", ["wip"]);
    await store.setAuto("s1", ["helm"]);
    await store.suppress("s1", ["wip", "helm"]);
    expect(store.sets("s1")).toEqual({ manual: [], auto: [], suppressed: ["helm", "wip"] });
    await store.setAuto("s1", ["helm", "wip", "chart"]);
    expect(store.sets("s1")).toEqual({ manual: [], auto: ["chart"], suppressed: ["helm", "wip"] });
  });

  it("untag of a tag the session never had suppresses it too", async () => {
    await store.suppress("s1", ["never"]);
    await store.setAuto("s1", ["never"]);
    expect(store.sets("s1")).toEqual({ manual: [], auto: [], suppressed: ["never"] });
  });

  it("tagging by hand again lifts the suppression", async () => {
    await store.suppress("s1", ["wip"]);
    await store.addManual("s1", ["wip"]);
    expect(store.sets("s1")).toEqual({ manual: ["wip"], auto: [], suppressed: [] });
  });

  it("counts tags; suppressed ones do not count", async () => {
    await store.addManual("s1", ["a", "b"]);
    await store.addManual("s2", ["a"]);
    await store.setAuto("s3", ["b"]);
    await store.suppress("s4", ["a", "b"]);
    expect(store.counts()).toEqual([
      { tag: "a", sessions: 2 },
      { tag: "b", sessions: 2 },
    ]);
  });

  it("numbers every edit, so the index can ask what changed since it last looked", async () => {
    expect(await store.changesSince(0)).toEqual({ seq: 0, sessions: [] });
    await store.addManual("s1", ["a"]);
    await store.addManual("s2", ["b"]);
    const first = await store.changesSince(0);
    expect(first.sessions).toEqual([
      { sessionId: "s1", tags: ["a"] },
      { sessionId: "s2", tags: ["b"] },
    ]);
    await store.suppress("s1", ["a"]);
    expect((await store.changesSince(first.seq)).sessions).toEqual([{ sessionId: "s1", tags: [] }]);
  });

  it("reads a tag database the earlier (better-sqlite3) tag store wrote, file format unchanged", async () => {
    store.close();
    copyFileSync(new URL("fixtures/tags/tags-before-native.db", import.meta.url), path);
    store = TagStore.open(path);
    expect(store.id).toBe("37b9b017-6d72-4d39-b116-0a78e50041bf");
    const s1 = "11111111-1111-4111-8111-111111111111";
    const s2 = "22222222-2222-4222-8222-222222222222";
    expect(store.sets(s1)).toEqual({
      manual: ["rust", "search"],
      auto: ["deploy"],
      suppressed: [],
    });
    expect(store.sets(s2)).toEqual({ manual: ["blog"], auto: [], suppressed: ["wip"] });
    expect((await store.changesSince(0)).seq).toBe(4);
    await store.addManual(s2, ["wip"]);
    expect((await store.changesSince(4)).sessions).toEqual([
      { sessionId: s2, tags: ["blog", "wip"] },
    ]);
  });

  it("keeps everything across a reopen, under the same store id", async () => {
    await store.addManual("s1", ["kept"]);
    const id = store.id;
    store.close();
    store = TagStore.open(path);
    expect(store.id).toBe(id);
    expect(store.merged("s1")).toEqual(["kept"]);
  });
});

describe("the pi-recall import", () => {
  it("reads the file pi-recall writes and the bare map, normalizing tags", async () => {
    const record = {
      manualTags: ["Rust", "#Search"],
      autoTags: ["k8s", ""],
      suppressedTags: ["wip"],
      updatedAt: 1,
    };
    const expected = new Map([
      ["s1", { manual: ["rust", "search"], auto: ["k8s"], suppressed: ["wip"] }],
    ]);
    expect(parseLegacyTags({ version: 1, sessions: { s1: record } })).toEqual(expected);
    expect(parseLegacyTags({ s1: record, s2: { manualTags: [] }, s3: "junk" })).toEqual(expected);
    expect(() => parseLegacyTags([])).toThrow();
  });

  it("imports once, keeping what is already there", async () => {
    await store.suppress("s1", ["wip"]);
    const legacy = new Map([
      ["s1", { manual: ["wip", "rust"], auto: ["rust", "k8s"], suppressed: [] }],
      ["s2", { manual: [], auto: ["helm"], suppressed: ["chart"] }],
    ]);
    expect(await store.importOnce("legacy-import:x", legacy)).toBe(2);
    // The suppression made here stays; manual beats automatic within the imported session.
    expect(store.sets("s1")).toEqual({ manual: ["rust"], auto: ["k8s"], suppressed: ["wip"] });
    expect(store.sets("s2")).toEqual({ manual: [], auto: ["helm"], suppressed: ["chart"] });
    await store.suppress("s2", ["helm"]);
    expect(await store.importOnce("legacy-import:x", legacy)).toBeUndefined();
    expect(store.sets("s2").auto).toEqual([]);
  });
});

/** Runs a module script in a separate Node process; resolves with its stdout. */
function node(
  script: string,
  onStdout?: (text: string, kill: () => void) => void,
): Promise<{ code: number | null; signal: string | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
      onStdout?.(stdout, () => child.kill("SIGKILL"));
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout }));
  });
}

describe("durability", () => {
  it("separate processes adding tags at once lose none of them", async () => {
    store.close();
    rmSync(join(dir, "data"), { recursive: true, force: true }); // every process races to create the database too
    const writer = (p: number) =>
      node(`import { TagStore } from ${JSON.stringify(LIBRARY)};
        const store = TagStore.open(${JSON.stringify(path)});
        for (let i = 0; i < 40; i++) await store.addManual("s" + (i % 3), ["p${p}-" + i]);
        await store.suppress("s0", ["p${p}-gone"]);`);
    const results = await Promise.all([0, 1, 2, 3].map(writer));
    expect(results.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    store = TagStore.open(path);
    const all = ["s0", "s1", "s2"].flatMap((s) => store.merged(s));
    expect(all).toHaveLength(4 * 40);
    for (let p = 0; p < 4; p++) {
      for (let i = 0; i < 40; i++) expect(store.merged(`s${i % 3}`)).toContain(`p${p}-${i}`);
    }
    expect(store.sets("s0").suppressed).toEqual(["p0-gone", "p1-gone", "p2-gone", "p3-gone"]);
  });

  it("a process killed in the middle of writing loses nothing it had committed, and leaves no lock behind", async () => {
    store.close();
    const run = await node(
      `import { TagStore } from ${JSON.stringify(LIBRARY)};
       const store = TagStore.open(${JSON.stringify(path)});
       for (let i = 0; ; i++) { await store.addManual("s1", ["t" + i]); process.stdout.write(i + "\\n"); }`,
      (out, kill) => {
        if (out.split("\n").length > 200) kill();
      },
    );
    expect(run.signal).toBe("SIGKILL");
    const acknowledged = run.stdout.split("\n").filter(Boolean).map(Number);
    expect(acknowledged.length).toBeGreaterThan(150);

    // Opening for writing works at once: the dead process's lock went with it.
    store = TagStore.open(path);
    await store.addManual("s2", ["after"]);
    const merged = new Set(store.merged("s1"));
    for (const i of acknowledged) expect(merged.has(`t${i}`)).toBe(true);
    expect(TagHandle.problems(path)).toEqual([]);
  });
});
