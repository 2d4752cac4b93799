/**
 * The cache is recall's own and "safe to delete": something other than a folder where the index
 * goes (a file named `index`) is replaced by a new index, with a notice, instead of stopping every
 * command.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "../helpers/agent-dir.js";
import { jsonLines, runRecall } from "../helpers/run-cli.js";

let dir: AgentDir;
let indexDir: string;
const recall = (args: string[]) => runRecall(args, { env: dir.env });

beforeEach(async () => {
  dir = makeAgentDir();
  indexDir = join(dir.agentDir, "cache", "recall", "index");
  expect((await recall(["index"])).code).toBe(0);
  rmSync(indexDir, { recursive: true });
  writeFileSync(indexDir, "not an index\n");
});
afterEach(() => dir.cleanup());

describe("a file where the index folder should be", () => {
  it("search answers from a new index, with one notice; the next command says nothing", async () => {
    const search = await recall(["search", "--json", "staging"]);
    expect(search.code).toBe(0);
    expect(jsonLines(search.stdout).length).toBeGreaterThan(0);
    expect(search.stderr).toBe(
      `recall: ${indexDir} was a file, not the index's folder; replaced it with a new index, rebuilt from the session files\n`,
    );
    const again = await recall(["list", "--json", "--no-sync"]);
    expect(again).toMatchObject({ code: 0, stderr: "" });
    expect(jsonLines(again.stdout).length).toBeGreaterThan(0);
  });

  it("--no-sync fills the new index too, and doctor passes after it", async () => {
    const list = await recall(["list", "--json", "--no-sync"]);
    expect(list.code).toBe(0);
    expect(jsonLines(list.stdout).length).toBeGreaterThan(0);
    expect((await recall(["doctor"])).code).toBe(0);
  });
});
