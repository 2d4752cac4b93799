/**
 * Issue 30, item 4: a `.store` damaged in place with its time kept (damage no open notices) lost
 * a tag edit: naming the session read the damaged block, the error was reported as that session's
 * failure, and the tag never reached the tag database. Now the damage is repaired wherever it is
 * met, and the edit is saved and applied. In a long-lived host (`live`, as Pi and the MCP server
 * open recall) no scan runs before the session is named, so the naming is what meets the damage;
 * through the CLI, with the seeds of the campaign's matrix.
 */
import { cpSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Recall } from "../../src/index.js";
import { makeAgentDir, type AgentDir } from "../helpers/agent-dir.js";
import { damageFile, segmentFiles } from "../helpers/damage.js";
import { jsonLines, runRecall } from "../helpers/run-cli.js";

const TAGGED = "01a0f6b1";
const SEEDS = [11, 15, 20, 23];

let agent: AgentDir;
afterEach(() => agent?.cleanup());

const storeFiles = () => segmentFiles(join(agent.agentDir, "cache", "recall", "index"), "store");

describe("a tag given over a damaged .store", () => {
  it("a long-lived host: the session is named, the tag saved and shown", async () => {
    agent = makeAgentDir();
    const cacheDir = join(agent.agentDir, "cache", "recall");
    const cleanCopy = join(agent.root, "clean-cache");
    const setup = Recall.open({ env: agent.env });
    await setup.sync();
    setup.close();
    cpSync(cacheDir, cleanCopy, { recursive: true });
    const failures: string[] = [];
    for (const [file, seed] of SEEDS.flatMap((seed) =>
      storeFiles().map((_, file) => [file, seed] as const),
    )) {
      rmSync(cacheDir, { recursive: true, force: true });
      cpSync(cleanCopy, cacheDir, { recursive: true });
      const recall = Recall.open({ env: agent.env, live: true });
      try {
        await recall.sync();
        damageFile(storeFiles()[file]!, seed, { keepTime: true });
        const tag = `seed${seed}-file${file}`;
        const session = await recall.resolve(TAGGED);
        await recall.tags.add([session], [tag]);
        expect((await recall.tags.of(session)).manual).toContain(tag);
        const listed = await recall.list({ limit: 50 });
        expect(listed.find((s) => s.id === session.id)?.tags).toContain(tag);
      } catch (error) {
        failures.push(`.store ${file}, seed ${seed}: ${String(error)}`);
      } finally {
        recall.close();
      }
    }
    expect(failures).toEqual([]);
  });

  it("`recall tag`, seeds 11, 15, 20, 23: exit 0, the tag in the tag database and in the index", async () => {
    agent = makeAgentDir();
    const cacheDir = join(agent.agentDir, "cache", "recall");
    const cleanCopy = join(agent.root, "clean-cache");
    const recall = (args: string[]) => runRecall(args, { env: agent.env });
    expect((await recall(["index"])).code).toBe(0);
    cpSync(cacheDir, cleanCopy, { recursive: true });
    for (const seed of SEEDS) {
      rmSync(cacheDir, { recursive: true, force: true });
      cpSync(cleanCopy, cacheDir, { recursive: true });
      damageFile(storeFiles()[0]!, seed, { keepTime: true });
      const tag = await recall(["tag", TAGGED, `seed${seed}`]);
      expect(tag.code, `seed ${seed}: ${tag.stderr}`).toBe(0);
      expect(tag.stderr).not.toMatch(/panicked|offset to copy|Invalid VInt/);
      const list = await recall(["list", "--json", "--limit", "50"]);
      const tags = jsonLines<{ id: string; tags: string[] }>(list.stdout).find((s) =>
        s.id.startsWith(TAGGED),
      )?.tags;
      expect(tags, `seed ${seed}: ${list.stderr}`).toContain(`seed${seed}`);
    }
  });
});
