/**
 * The damaged-file matrix: every kind of segment file (and `meta.json`, `.managed.json`) of
 * either index (the main one, `depth/`), garbled in place, cut in half, emptied or deleted, with
 * its time kept or not. After the damage, the next use of the library (resolve a session, tag it,
 * search every kind of text, list) answers as a clean index would, with at most one notice that
 * the index was rebuilt, and the tags kept; the use after it, with no notice. Bytes garbled in
 * place with the time kept are what no read need trip over: that cell's next use is the one that
 * checks every file written since all last passed, `recall index` (`check: "written"`).
 *
 * Through the library in this process, the way Pi and the MCP server hold the index; the CLI's
 * exit codes over the same damage are in damaged-index.test.ts and missing-index-files.test.ts.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Recall, type SearchPage } from "../../src/index.js";
import { makeAgentDir, type AgentDir } from "../helpers/agent-dir.js";
import {
  DAMAGE_KINDS,
  damage,
  keepCleanCache,
  segmentFiles,
  type CleanCache,
  type DamageKind,
} from "../helpers/damage.js";

const SEGMENT_KINDS = ["term", "idx", "pos", "store", "fast", "fieldnorm"];
const PARTS = { main: "index", depth: join("index", "depth") };
const TAGGED = "01a0f6b1";

let agent: AgentDir;
let cacheDir: string;
let clean: CleanCache;
let reference: string;

/**
 * What the index answers: a search of the conversation, one of every kind of text, every session
 * with its tags.
 */
async function answers(recall: Recall): Promise<string> {
  const hits = (page: SearchPage) => page.hits.map((h) => [h.id, h.message?.entryId, h.snippet]);
  const conversation = await recall.search({ query: "the", limit: 50 });
  const all = await recall.search({
    query: "the lockedstatetoolerror quuxtooloutput 8080",
    limit: 50,
    content: ["all"],
  });
  const sessions = await recall.list({ limit: 50 });
  return JSON.stringify({
    conversation: hits(conversation),
    all: hits(all),
    sessions: sessions.map((s) => [s.id, s.tags, s.messageCount]),
  });
}

/** The next use after damage: a session resolved (a sync), tagged (a write), then read back. */
async function nextUse(
  options: { check?: "written" } = {},
): Promise<{ text: string; replaced: number }> {
  const recall = Recall.open({ env: agent.env, check: options.check });
  try {
    const session = await recall.resolve(TAGGED);
    await recall.tags.add([session], ["matrix"]);
    const text = await answers(recall);
    const replaced = recall.takeNotices().filter((n) => n.code === "INDEX_REPLACED").length;
    return { text, replaced };
  } finally {
    recall.close();
  }
}

function restoreCleanIndex(): void {
  clean.restore();
}

beforeAll(async () => {
  agent = makeAgentDir();
  const recall = Recall.open({ env: agent.env });
  await recall.sync();
  await recall.tags.add([await recall.resolve(TAGGED)], ["keepme"]);
  recall.close();
  clean = keepCleanCache(agent.agentDir, agent.root);
  cacheDir = clean.dir;
  const first = await nextUse();
  expect(first.replaced).toBe(0);
  expect(first.text).toContain("keepme");
  expect(first.text).toContain("matrix");
  reference = first.text;
});
afterAll(() => agent?.cleanup());

/**
 * Trials of one file: each kind of damage, with the time kept and not (a deleted file has none).
 * The trials that failed, each with what went wrong.
 */
async function trials(file: () => string, label: string): Promise<string[]> {
  const failed: string[] = [];
  for (const kind of DAMAGE_KINDS) {
    for (const keepTime of kind === "delete" ? [false] : [false, true]) {
      const trial = `${label}, ${kind}${keepTime ? ", time kept" : ""}`;
      restoreCleanIndex();
      damage(file(), kind as DamageKind, { seed: 3, keepTime });
      try {
        const next = await nextUse(kind === "garble" && keepTime ? { check: "written" } : {});
        if (next.text !== reference) failed.push(`${trial}: other answers`);
        else if (next.replaced > 1) failed.push(`${trial}: ${next.replaced} rebuild notices`);
        else if (
          JSON.stringify(await nextUse()) !== JSON.stringify({ text: reference, replaced: 0 })
        )
          failed.push(`${trial}: the use after differs`);
      } catch (error) {
        failed.push(`${trial}: ${String(error).slice(0, 200)}`);
      }
    }
  }
  return failed;
}

describe("the damaged-file matrix", () => {
  for (const [part, folder] of Object.entries(PARTS)) {
    for (const extension of SEGMENT_KINDS) {
      it(`${part} .${extension}`, async () => {
        const file = () => segmentFiles(join(cacheDir, folder), extension)[0]!;
        expect(file(), `a .${extension} in ${folder}`).toBeDefined();
        expect(await trials(file, `${part} .${extension}`)).toEqual([]);
      });
    }
    for (const name of ["meta.json", ".managed.json"]) {
      it(`${part} ${name}`, async () => {
        expect(await trials(() => join(cacheDir, folder, name), `${part} ${name}`)).toEqual([]);
      });
    }
  }
});
