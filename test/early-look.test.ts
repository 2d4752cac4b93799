import { appendFileSync } from "node:fs";
import { createRequire } from "node:module";
import { afterEach, describe, expect, it } from "vitest";
import { openRecall } from "./helpers/open-store.js";
import { lookAheadFor } from "../src/cli/early-look.js";
import type { RecallContext } from "../src/cli/context.js";
import type { runCli } from "../src/cli/main.js";
import { holdWatchLock } from "../src/sync/watch-lock.js";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { FIXTURE_FILES, FIXTURE_SESSIONS_DIR, userMessage } from "./helpers/fixture-files.js";

let agent: AgentDir;
afterEach(() => agent?.cleanup());

describe("the freshness check started before the command line is parsed", () => {
  it("starts for the commands that check, unless they are told not to or where to look", () => {
    agent = makeAgentDir({ withFixtures: false });
    const context = { env: agent.env, cwd: agent.root };
    expect(lookAheadFor(["search", "deploy"], context)).toBeDefined();
    expect(lookAheadFor(["list", "--here"], context)).toBeDefined();
    for (const argv of [
      [],
      ["index"],
      ["read", "x"],
      ["search", "--no-sync", "x"],
      ["search", "-h"],
      ["list", "--help"],
      ["search", "--sessions-dir", "/tmp", "x"],
      ["search", "--sessions-dir=/tmp", "x"],
    ]) {
      expect(lookAheadFor(argv, context), argv.join(" ")).toBeUndefined();
    }
  });

  it("does not start while `recall watch` keeps the index fresh", async () => {
    agent = makeAgentDir({ withFixtures: false });
    const context = { env: agent.env, cwd: agent.root };
    const store = await openRecall({ env: agent.env });
    const lock = holdWatchLock(store);
    try {
      expect(lookAheadFor(["search", "x"], context)).toBeDefined(); // held, not yet caught up
      lock.setReady(true);
      expect(lookAheadFor(["search", "x"], context)).toBeUndefined();
    } finally {
      lock.release();
    }
  });

  it("is started by a bundle of its own and taken by the CLI's, as bin/recall.cjs runs them", async () => {
    agent = makeAgentDir();
    const bundles = createRequire(import.meta.url);
    const early = bundles("../dist/bundle/early-look.cjs") as { lookAheadFor: typeof lookAheadFor };
    const cli = bundles("../dist/bundle/cli.cjs") as { runCli: typeof runCli };
    const context = { env: agent.env, cwd: agent.root };
    const search = (earlyLook: RecallContext["earlyLook"]) => {
      const quiet = { write: () => true } as unknown as RecallContext["stdout"];
      return cli.runCli(["search", "earlyword"], {
        ...context,
        stdin: process.stdin,
        stdout: quiet,
        stderr: quiet,
        stdoutIsTTY: false,
        stderrIsTTY: false,
        colorDepth: 1,
        earlyLook,
      });
    };
    expect(await search(undefined)).toBe(1); // indexes the sessions; none has the word yet
    const look = early.lookAheadFor(["search", "earlyword"], context);
    // The look has long finished (11 files) when a session grows: the search sees what it saw.
    await new Promise((resolve) => setTimeout(resolve, 300));
    appendFileSync(
      FIXTURE_FILES.s1.replace(FIXTURE_SESSIONS_DIR, agent.sessionsDir),
      userMessage("c0000012", "earlyword", Date.parse("2026-11-02T00:00:00Z")),
    );
    expect(await search(look)).toBe(1);
    expect(await search(undefined)).toBe(0);
  });
});
