/**
 * Only errors damaged index files can cause are answered with the check that reads every segment
 * file (and a rebuild if one fails): a bad or stale cursor, a refused or vanished session file, a
 * bug or a network failure are what they say. Seen through a real effect: a segment file damaged
 * with its time kept, which only that check finds, is still there after the error.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Recall, RecallError } from "../../src/index.js";
import type { RecallErrorCode } from "../../src/errors.js";
import { mayComeFromDamage } from "../../src/sync/repair.js";
import { makeAgentDir, type AgentDir } from "../helpers/agent-dir.js";
import { damageFile, segmentFiles } from "../helpers/damage.js";

let agent: AgentDir;
afterEach(() => agent?.cleanup());

describe("what may come from damage", () => {
  const enoent = Object.assign(new Error("ENOENT: no such file or directory, open '/x.jsonl'"), {
    code: "ENOENT",
  });
  const notDamage: [string, unknown][] = [
    [
      "a bad cursor",
      new RecallError("BAD_CURSOR", "this is not a search cursor (was it cut short when copied?)", {
        field: "cursor",
      }),
    ],
    [
      "a stale cursor",
      new RecallError("STALE_CURSOR", "this cursor was made by another version of recall"),
    ],
    [
      "a cursor of another search",
      new RecallError("CURSOR_MISMATCH", "this cursor continues another search"),
    ],
    ["an unsafe file", new RecallError("UNSAFE_FILE", "/x.jsonl is a link")],
    ["a session replaced", new RecallError("SESSION_REPLACED", "the session file was replaced")],
    ["a vanished session file", enoent],
    ["a TypeError", new TypeError("Cannot read properties of undefined (reading 'id')")],
    [
      "a network failure (a code this build does not know)",
      new RecallError("REMOTE_UNAVAILABLE" as RecallErrorCode, "the archive cannot be reached"),
    ],
    [
      "a full disk",
      new RecallError("IO", "An IO error occurred: 'No space left on device (os error 28)'"),
    ],
    [
      "a damaged tag database",
      new RecallError(
        "CORRUPT",
        "the tag database /d/tags.db is damaged (file is not a database); restore it from a backup or move it aside",
      ),
    ],
    [
      "a bug in the core",
      new RecallError("INTERNAL", "Assertion failed: write without holding the writer lock"),
    ],
    ["the lock", new RecallError("LOCKED", "another process is writing")],
  ];
  for (const [what, error] of notDamage) {
    it(`${what}: no`, () => expect(mayComeFromDamage(error)).toBe(false));
  }

  const damage: [string, RecallError][] = [
    [
      "a segment file missing",
      new RecallError(
        "CORRUPT",
        `Failed to open file for read: 'FileDoesNotExist("/c/index/depth/a.term")'`,
      ),
    ],
    [
      "positions unreadable",
      new RecallError(
        "CORRUPT",
        `Data corrupted: 'Failed to open field "content"'s positions in the composite file'`,
      ),
    ],
    ["a failed checksum", new RecallError("CORRUPT", "1 file failed their checksum: depth/a.idx")],
    [
      "a panic reading a stored block",
      new RecallError("INTERNAL", "the search core panicked (Corrupted data. Invalid VInt 32)"),
    ],
  ];
  for (const [what, error] of damage) {
    it(`${what}: yes`, () => expect(mayComeFromDamage(error)).toBe(true));
  }
});

describe("an error that is not damage, over an index damaged unseen", () => {
  it("a garbage cursor to `search` and `read` leaves the index as it is: no check, no rebuild", async () => {
    agent = makeAgentDir();
    const recall = Recall.open({ env: agent.env });
    await recall.sync();
    const session = await recall.resolve("01a0f6b1");
    recall.takeNotices();
    const store = segmentFiles(join(agent.agentDir, "cache", "recall", "index"), "store")[0]!;
    damageFile(store, 7, { keepTime: true });
    const damaged = readFileSync(store);
    await expect(
      recall.search({ query: "the", cursor: "garbage", sync: false }),
    ).rejects.toMatchObject({ code: "BAD_CURSOR" });
    await expect(recall.read(session, { cursor: "garbage" })).rejects.toMatchObject({
      code: "BAD_CURSOR",
    });
    expect(recall.takeNotices().map((n) => n.code)).not.toContain("INDEX_REPLACED");
    // A check would have found the file and replaced the index folder.
    expect(readFileSync(store).equals(damaged)).toBe(true);
    recall.close();
  });
});
