/**
 * Queries made of `#` and `-` in odd ways never fail (the README promises that odd queries never
 * error): a `#` or `-#` with nothing a tag is made of after it is text, and holds no word.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTagQuery } from "../../src/tags/query-tags.js";
import { makeAgentDir, type AgentDir } from "../helpers/agent-dir.js";
import { jsonLines, runRecall } from "../helpers/run-cli.js";

const ODD = ["##", "#-", "-#", "#", "-#-", "#!?", "## -#", "--#"];

describe("parseTagQuery on odd tag tokens", () => {
  it.each(ODD)("%s is text, not a tag", (query) => {
    expect(parseTagQuery(query)).toEqual({ text: query, include: [], exclude: [] });
  });

  it("a real tag next to an odd one is still a tag", () => {
    expect(parseTagQuery("## #k8s -#")).toEqual({ text: "##  -#", include: ["k8s"], exclude: [] });
  });
});

describe("recall search with odd tag tokens", () => {
  let dir: AgentDir;
  beforeAll(async () => {
    dir = makeAgentDir();
    await runRecall(["index"], { env: dir.env });
  });
  afterAll(() => dir.cleanup());

  it.each(ODD)("%s alone: nothing found, no error (exit 1)", async (query) => {
    const result = await runRecall(["search", "--no-sync", "--", query], { env: dir.env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^recall: no session matches "/);
  });

  it.each(["## database", "database -#", "-# database", "#- database"])(
    "%s finds what the words find",
    async (query) => {
      const ids = (stdout: string) => jsonLines<{ id: string }>(stdout).map((hit) => hit.id);
      const plain = await runRecall(["search", "--no-sync", "--json", "database"], {
        env: dir.env,
      });
      const result = await runRecall(["search", "--no-sync", "--json", "--", query], {
        env: dir.env,
      });
      expect(result.code).toBe(0);
      expect(ids(result.stdout)).toEqual(ids(plain.stdout));
      expect(ids(result.stdout).length).toBeGreaterThan(0);
    },
  );
});
