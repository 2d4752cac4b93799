/**
 * What reaches a caller of the library is a RecallError with a code it can act on: a network
 * failure (REMOTE_UNAVAILABLE, with its cause) is never taken for a damaged index, and a session
 * file gone under a read is NOT_FOUND, on the caller's thread as on the background thread.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Recall, RecallError } from "../src/index.js";
import { mayComeFromDamage } from "../src/sync/repair.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { damageFile, segmentFiles } from "./helpers/damage.js";

const S1_ID = "01a0f6b1-2680-79e3-a1fa-30b6f0582ef5";

let agent: AgentDir;
let recall: Recall | undefined;
afterEach(() => {
  recall?.close();
  recall = undefined;
  agent?.cleanup();
});

const unreachable = () =>
  new RecallError("REMOTE_UNAVAILABLE", "the archive at http://127.0.0.1:9 cannot be reached", {
    cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" }),
  });

describe("REMOTE_UNAVAILABLE", () => {
  it("carries its cause and cannot come from damage", () => {
    const error = unreachable();
    expect(error).toMatchObject({ name: "RecallError", code: "REMOTE_UNAVAILABLE" });
    expect((error.cause as NodeJS.ErrnoException).code).toBe("ECONNREFUSED");
    expect(mayComeFromDamage(error)).toBe(false);
  });

  it("out of a query over a damaged index, it is thrown as it is: no check of the index, no rebuild", async () => {
    agent = makeAgentDir();
    recall = Recall.open({ env: agent.env });
    await recall.sync();
    // Damage no write made: only a check of every file's checksum (a repair) finds it.
    damageFile(segmentFiles(join(recall.locations.cacheDir, "index"), "pos")[0]!, 7, {
      keepTime: true,
    });
    let calls = 0;
    const remote = unreachable();
    await expect(
      recall.list({ sync: false }, () => {
        calls++;
        throw remote;
      }),
    ).rejects.toBe(remote);
    expect(calls).toBe(1);
    expect(recall.takeNotices()).toEqual([]);
    // The same query failing as damaged files could make it fail: checked, found damaged, rebuilt,
    // asked again.
    const corrupt = new RecallError("CORRUPT", "a segment could not be read");
    await expect(
      recall.list({ sync: false }, () => {
        calls++;
        throw corrupt;
      }),
    ).rejects.toBe(corrupt);
    expect(calls).toBe(3);
    expect(recall.takeNotices().map((n) => n.code)).toContain("INDEX_REPLACED");
  });
});

describe("a session file gone under a read", () => {
  for (const background of [false, true]) {
    it(`is NOT_FOUND, naming the file (${background ? "background thread" : "caller's thread"})`, async () => {
      agent = makeAgentDir();
      recall = Recall.open({ env: agent.env, background });
      await recall.sync();
      const session = await recall.resolve(S1_ID);
      rmSync(session.path);
      const error = await recall.read(session).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RecallError);
      expect(error).toMatchObject({ code: "NOT_FOUND", value: session.path });
    });
  }
});
