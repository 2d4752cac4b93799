import { afterEach, describe, expect, it } from "vitest";
import { openRecall } from "../src/api/open.js";
import { lookAheadFor } from "../src/cli/early-look.js";
import { holdWatchLock } from "../src/sync/watch-lock.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";

let agent: AgentDir;
afterEach(() => agent?.cleanup());

describe("the freshness check started before the command line is parsed", () => {
  it("starts for the commands that check, unless they are told not to or where to look", () => {
    agent = makeAgentDir({ withFixtures: false });
    const context = { env: agent.env, cwd: agent.root };
    expect(lookAheadFor(["search", "deploy"], context)).toBeDefined();
    expect(lookAheadFor(["list", "--here"], context)).toBeDefined();
    for (const argv of [[], ["index"], ["read", "x"], ["search", "--no-sync", "x"], ["search", "-h"], ["list", "--help"], ["search", "--sessions-dir", "/tmp", "x"], ["search", "--sessions-dir=/tmp", "x"]]) {
      expect(lookAheadFor(argv, context), argv.join(" ")).toBeUndefined();
    }
  });

  it("does not start while `recall watch` keeps the index fresh", () => {
    agent = makeAgentDir({ withFixtures: false });
    const context = { env: agent.env, cwd: agent.root };
    const store = openRecall({ env: agent.env });
    const lock = holdWatchLock(store);
    try {
      expect(lookAheadFor(["search", "x"], context)).toBeDefined(); // held, not yet caught up
      lock.setReady(true);
      expect(lookAheadFor(["search", "x"], context)).toBeUndefined();
    } finally {
      lock.release();
    }
  });
});
