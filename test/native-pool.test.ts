/**
 * Index and tag work that can take long runs on the libuv thread pool, never on the JavaScript
 * thread (Pi's UI): opening an index (which checks changed segment files, or every one), counting
 * its sessions, reloading, clearing, and importing tags (which may wait for another process's
 * write). The native calls answer with a promise; a synchronous one would answer with the value.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { nativeModule } from "../src/native/binding.js";
import { IndexHandle } from "../src/native/index-handle.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "recall-pool-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const session = {
  session: {
    id: "s1",
    path: "/s/1.jsonl",
    cwd: "/p",
    created: 1,
    modified: 2,
    messageCount: 1,
    firstMessage: "",
    tags: [],
  },
  messages: [{ index: 0, role: "user", entryId: "e0", timestamp: 2, text: "poolword" }],
};

describe("index work on the thread pool", () => {
  it("opens, counts, reloads and clears with promises", async () => {
    const { NativeIndex } = nativeModule();
    const opening = NativeIndex.open(join(dir, "index"));
    expect(opening).toBeInstanceOf(Promise);
    const index = await opening;
    const counting = index.stats();
    expect(counting).toBeInstanceOf(Promise);
    expect(await counting).toMatchObject({ documents: 0, sessions: 0, stamp: "" });

    await index.lock(1000);
    await index.apply({ sessions: [session] });
    await index.commit("first", "{}");
    await index.unlock();

    // Another handle sees the commit once it reloads.
    const other = await NativeIndex.openVerified(join(dir, "index"));
    expect(other.replacedBecause()).toBeNull();
    expect((await other.stats()).sessions).toBe(1);
    await index.lock(1000);
    const clearing = index.clear();
    expect(clearing).toBeInstanceOf(Promise);
    await clearing;
    await index.commit("second", "{}");
    await index.unlock();
    const reloading = other.reload();
    expect(reloading).toBeInstanceOf(Promise);
    await reloading;
    expect(await other.stats()).toMatchObject({ sessions: 0, stamp: "second" });
  });

  it("turns a failed open into a RecallError through the handle", async () => {
    const file = join(dir, "not-a-folder");
    await (await IndexHandle.open(join(dir, "index"))).stats();
    const { writeFileSync } = await import("node:fs");
    writeFileSync(file, "x");
    await expect(IndexHandle.open(join(file, "index"))).rejects.toMatchObject({
      name: "RecallError",
      code: "IO",
    });
  });

  it("imports tags once with a promise", async () => {
    const { TagDatabase } = nativeModule();
    const db = TagDatabase.open(join(dir, "tags.db"), "id", new Date().toISOString());
    try {
      const importing = db.importOnce("marker", "now", [
        { sessionId: "s1", manual: ["a"], auto: [], suppressed: [] },
      ]);
      expect(importing).toBeInstanceOf(Promise);
      expect(await importing).toBe(1);
      expect(
        await db.importOnce("marker", "now", [
          { sessionId: "s2", manual: ["b"], auto: [], suppressed: [] },
        ]),
      ).toBeNull();
      expect(db.merged("s1")).toEqual(["a"]);
    } finally {
      db.close();
    }
  });
});
