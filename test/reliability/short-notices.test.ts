/**
 * Every notice and error is one short line: quoted input is cut with `…`, and the reason an index
 * could not be used does not paste the file it could not read (meta.json's 2,563 characters).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { quote, shorten } from "../../src/output/quote.js";
import { makeAgentDir, type AgentDir } from "../helpers/agent-dir.js";
import { runRecall } from "../helpers/run-cli.js";

/** Longer than a person reads in one line; the paths in these messages are ~100 characters. */
const SHORT = 300;

describe("shorten", () => {
  it("keeps short text, flattens whitespace, cuts long text with …", () => {
    expect(shorten("deploy staging")).toBe("deploy staging");
    expect(shorten("a\n\tb")).toBe("a b");
    expect(shorten("x".repeat(5000))).toBe(`${"x".repeat(59)}…`);
    expect(quote("y".repeat(100), 10)).toBe(`"${"y".repeat(9)}…"`);
  });

  it("never cuts inside a character made of two UTF-16 units", () => {
    expect(shorten("😀".repeat(70))).toBe(`${"😀".repeat(59)}…`);
  });
});

describe("the CLI's one-line messages", () => {
  let dir: AgentDir;
  beforeAll(async () => {
    dir = makeAgentDir();
    await runRecall(["index"], { env: dir.env });
  });
  afterAll(() => dir.cleanup());

  const oneShortLine = (stderr: string) => {
    expect(stderr.split("\n").filter(Boolean)).toHaveLength(1);
    expect(stderr.length).toBeLessThan(SHORT);
  };

  it("a miss does not echo a 5,000-character query in full", async () => {
    const query = "nomatchword ".repeat(420);
    const result = await runRecall(["search", "--no-sync", query], { env: dir.env });
    expect(result.code).toBe(1);
    oneShortLine(result.stderr);
    expect(result.stderr).toMatch(/^recall: no session matches "nomatchword nomatchword .*…"\n$/);
  });

  it.each([
    ["an id", ["read", "f".repeat(5000)]],
    ["a tag", ["tag", "01a0f6b1", "t".repeat(5000)]],
    ["a time", ["list", "--since", "z".repeat(5000)]],
    ["an option", ["search", `--${"o".repeat(5000)}`, "x"]],
  ])("a 5,000-character %s is quoted short", async (_what, args) => {
    const result = await runRecall(args, { env: dir.env });
    expect(result.code).toBe(2);
    oneShortLine(result.stderr);
  });

  it("an index whose meta.json cannot be read: one short notice, then the answer", async () => {
    const meta = join(dir.agentDir, "cache", "recall", "index", "meta.json");
    const damaged = readFileSync(meta, "utf8").replace(
      /"docstore_compression":\s*"[a-z0-9]+"/,
      '"docstore_compression":"bogus"',
    );
    expect(damaged.length).toBeGreaterThan(1000);
    writeFileSync(meta, damaged);
    const result = await runRecall(["search", "database"], { env: dir.env });
    expect(result.code).toBe(0);
    oneShortLine(result.stderr);
    expect(result.stderr).toMatch(
      /^recall: the index in .* could not be used \(.*…\); rebuilding it from the session files\n$/,
    );
  });
});
