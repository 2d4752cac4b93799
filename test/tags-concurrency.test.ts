import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { jsonLines, runRecall, type CliResult } from "./helpers/run-cli.js";

const SESSIONS = [
  "01a0f6b1-2680-79e3-a1fa-30b6f0582ef5",
  "01a0f755-f200-7250-a372-48336bf4923d",
  "01a0f78c-e080-7f28-af10-ffa76e6bae4c",
];
const PROCESSES = 4;
const CALLS = 10;

let agent: AgentDir;
beforeAll(() => {
  agent = makeAgentDir();
});
afterAll(() => agent.cleanup());

const recall = (...args: string[]) => runRecall(args, { env: agent.env });

describe("several processes tagging at once", () => {
  it(
    `${PROCESSES} processes × ${CALLS} \`recall tag\` calls on the same sessions lose no tag, in the store or in the index`,
    { timeout: 180_000 },
    async () => {
      // Nothing is indexed yet: the first calls also race to build the index and create the tag
      // database.
      const worker = async (p: number): Promise<CliResult[]> => {
        const results: CliResult[] = [];
        for (let i = 0; i < CALLS; i++) {
          results.push(
            await recall("tag", SESSIONS[i % SESSIONS.length]!, "shared", `p${p}-t${i}`),
          );
        }
        return results;
      };
      const results = (
        await Promise.all(Array.from({ length: PROCESSES }, (_, p) => worker(p)))
      ).flat();
      expect(results.filter((r) => r.code !== 0)).toEqual([]);
      // No call had to leave its index update for later.
      expect(results.filter((r) => r.stderr !== "")).toEqual([]);

      const expected = new Map(SESSIONS.map((id) => [id, ["shared"]]));
      for (let p = 0; p < PROCESSES; p++) {
        for (let i = 0; i < CALLS; i++)
          expected.get(SESSIONS[i % SESSIONS.length]!)!.push(`p${p}-t${i}`);
      }
      for (const tags of expected.values()) tags.sort();

      // The index, as the tag commands left it: checked first and with --no-sync, so that no later
      // sync can catch up on an update a tag command failed to make.
      const found = await recall("search", "--no-sync", "--json", "#shared");
      const hits = jsonLines<{ id: string; tags: string[] }>(found.stdout);
      expect(new Map(hits.map((h) => [h.id, [...h.tags].sort()]))).toEqual(expected);
      // And every tag filter finds its session.
      for (const [id, tags] of expected) {
        const one = jsonLines<{ id: string }>(
          (await recall("search", "--no-sync", "--json", `#${tags[0]}`, "#shared")).stdout,
        );
        expect(one.map((h) => h.id)).toEqual([id]);
      }
      // The store.
      for (const [id, tags] of expected) {
        const [stored] = jsonLines<{ manual: string[] }>(
          (await recall("tags", id, "--json")).stdout,
        );
        expect(stored!.manual).toEqual(tags);
      }
    },
  );
});
