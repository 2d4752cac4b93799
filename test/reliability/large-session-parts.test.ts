/**
 * A large session is indexed in parts (src/sync/change-stream.ts, PART_TEXT_CHARS), so that the
 * sync's memory does not grow with the file. The index it makes must be the one a read in one
 * piece makes — the same documents, the same statistics —, whether the file is written anew or
 * appended to, and a sync killed after a commit between two parts of a file must leave nothing
 * that the next sync does not replace.
 *
 * The session is one long agent run (its assistant text joined into one conversation message, so
 * that every part but the first holds tool output at the index an earlier part ended on) between
 * ordinary exchanges. Each message holds a word of its own; the index built in parts and one built
 * from a read in one piece must give every such word the same hit and the same score (BM25 counts
 * every document and every length: a document twice, or missing, changes it).
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { NativeIndex } from "../../src/native/addon.js";
import type { SessionFile } from "../../src/sessions/discover.js";
import {
  readSessionForIndex,
  readSessionInParts,
} from "../../src/sessions/session-index-reader.js";
import { PART_TEXT_CHARS } from "../../src/sync/change-stream.js";
import { IndexSink } from "../../src/sync/index-sink.js";
import { lockIndex, unlockIndex } from "../../src/sync/index-writer.js";
import { tailHash } from "../../src/sync/state.js";
import { syncIndex } from "../../src/sync/sync.js";
import { makeAgentDir, type AgentDir } from "../helpers/agent-dir.js";
import { runSpeaking } from "../helpers/child-line.js";
import { userMessage } from "../helpers/fixture-files.js";
import { openRecall } from "../helpers/open-store.js";
import { jsonLines, runRecall } from "../helpers/run-cli.js";

const ID = "01a4aaaa-0000-7000-8000-000000000001";
const START = Date.parse("2026-10-04T09:00:00Z");
/** Steps of the long run: enough text for several parts. */
const STEPS = 1400;
const FILLER = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda ".repeat(40);

let agents: AgentDir[] = [];
afterEach(() => {
  for (const agent of agents) agent.cleanup();
  agents = [];
});

function agentDir(): AgentDir {
  const agent = makeAgentDir({ withFixtures: false });
  agents.push(agent);
  return agent;
}

const line = (object: unknown) => `${JSON.stringify(object)}\n`;
const at = (n: number) => new Date(START + n * 1000).toISOString();
const message = (id: string, n: number, body: Record<string, unknown>) =>
  line({
    type: "message",
    id,
    parentId: null,
    timestamp: at(n),
    message: { ...body, timestamp: START + n * 1000 },
  });

/** A question, the start of an exchange. */
const question = (run: number, n: number) =>
  userMessage(`u${run}`, `question${run} about the deploy`, START + n * 1000);

/**
 * Steps of an agent run, each saying, thinking, calling and printing a word of its own: one
 * assistant message, as the index joins it.
 */
function steps(from: number, count: number): string {
  let text = "";
  for (let s = from; s < from + count; s++) {
    text += message(`a${s}`, s * 4 + 1, {
      role: "assistant",
      content: [
        { type: "thinking", thinking: `thought${s} ${FILLER}` },
        { type: "text", text: `said${s} ${FILLER}` },
        { type: "toolCall", id: `c${s}`, name: "bash", arguments: { command: `make called${s}` } },
      ],
    });
    text += message(`r${s}`, s * 4 + 2, {
      role: "toolResult",
      toolCallId: `c${s}`,
      toolName: "bash",
      content: [{ type: "text", text: `printed${s} ${FILLER.slice(0, 1200)}` }],
      isError: false,
    });
  }
  return text;
}

/** The answer that ends an exchange, after a run of steps. */
const answer = (run: number, n: number) =>
  message(`e${run}`, n, { role: "user", content: [{ type: "text", text: `done${run}` }] });

function writeSession(agent: AgentDir, body: string): string {
  const folder = join(agent.sessionsDir, "--home-dev-large--");
  mkdirSync(folder, { recursive: true });
  const path = join(folder, `2026-10-04T09-00-00-000Z_${ID}.jsonl`);
  writeFileSync(
    path,
    line({ type: "session", version: 3, id: ID, timestamp: at(0), cwd: "/home/dev/large" }) + body,
  );
  return path;
}

/** How many parts a read of the whole file comes in. */
function partsOf(path: string): number {
  const parts = readSessionInParts(path, {}, PART_TEXT_CHARS);
  for (let count = 1; ; count++) if (parts.next().done) return count;
}

/**
 * The index of the same session file built from a read in one piece, as every sync built it
 * before reads came in parts: one change with all the messages, through the index's own sink.
 */
async function indexReadWhole(path: string): Promise<NativeIndex> {
  const agent = agentDir();
  const store = await openRecall({ env: agent.env });
  const read = readSessionForIndex(path);
  const file: SessionFile = { path, size: read.end, mtimeMs: 0, ino: 0 };
  expect(await lockIndex(store, 5000)).toBe(true);
  const sink = new IndexSink(store, { state: {}, rebuild: false, first: false, tagsOf: () => [] });
  await sink.emit({
    kind: "written",
    file,
    read,
    mark: {
      end: read.end,
      tailHash: tailHash(path, read.end),
      header: read.header,
      checkpoint: read.checkpoint,
      indexed: true,
    },
    before: undefined,
    continued: false,
  });
  await sink.finish();
  await unlockIndex(store);
  return store.native;
}

const ALL_CONTENT = ["conversation", "thinking", "call", "output"];

/**
 * What an index holds, as searches see it: its counts, its session, and each message word's hit and
 * score.
 */
async function contents(index: NativeIndex, words: string[]) {
  const { documents, sessions } = await index.stats();
  const listed = await index.list({ limit: 10 });
  const hits = [];
  for (const query of words) {
    const found = await index.search({ query, limit: 5, content: ALL_CONTENT, now: START });
    hits.push({
      query,
      hits: found.hits.map((h) => ({
        session: h.session.id,
        score: h.score,
        index: h.message?.index,
        entryId: h.message?.entryId,
        kind: h.message?.kind,
      })),
    });
  }
  return { documents, sessions, listed, hits };
}

/** A word of each kind of every 23rd step of the run, and of its last step. */
function wordsOf(from: number, steps: number): string[] {
  const words = ["deploy", "done0", `question0`];
  for (let s = from; s < from + steps; s += 23)
    words.push(`said${s}`, `thought${s}`, `called${s}`, `printed${s}`);
  const last = from + steps - 1;
  return [...words, `said${last}`, `thought${last}`, `called${last}`, `printed${last}`];
}

describe("a large session read in parts", () => {
  it("is indexed as a read in one piece: the same documents and statistics", async () => {
    const agent = agentDir();
    const path = writeSession(agent, question(0, 0) + steps(0, STEPS) + answer(0, STEPS * 4));
    expect(partsOf(path)).toBeGreaterThanOrEqual(3);
    const store = await openRecall({ env: agent.env });
    expect(await syncIndex(store)).toMatchObject({ indexed: 1, failed: [] });
    const words = wordsOf(0, STEPS);
    const inParts = await contents(store.native, words);
    expect(inParts.hits.every((h) => h.hits.length === 1)).toBe(true);
    expect(inParts).toEqual(await contents(await indexReadWhole(path), words));
  }, 120_000);

  it("appended to in parts, is indexed as the whole file read in one piece", async () => {
    const agent = agentDir();
    const path = writeSession(agent, question(0, 0) + steps(0, 20));
    const store = await openRecall({ env: agent.env });
    expect(await syncIndex(store)).toMatchObject({ indexed: 1 });
    // The run goes on (the same assistant message grows) for several parts, then a new exchange.
    appendFileSync(
      path,
      steps(20, STEPS) +
        answer(0, (20 + STEPS) * 4) +
        question(1, (21 + STEPS) * 4) +
        steps(21 + STEPS, 30),
    );
    expect(partsOf(path)).toBeGreaterThanOrEqual(3);
    expect(await syncIndex(store)).toMatchObject({ appended: 1, failed: [] });
    const words = [...wordsOf(0, 20 + STEPS), ...wordsOf(21 + STEPS, 30), "question1"];
    expect(await contents(store.native, words)).toEqual(
      await contents(await indexReadWhole(path), words),
    );
  }, 120_000);

  it("killed after a commit between two parts, is indexed by the next sync as by a clean one", async () => {
    const agent = agentDir();
    const path = writeSession(agent, question(0, 0) + steps(0, STEPS));
    expect(partsOf(path)).toBeGreaterThanOrEqual(3);
    await killedAfterCommitBetweenParts(agent.env);
    // What the commit put in the index: the session, from its first part, without its file's
    // record.
    const during = await runRecall(["list", "--json", "--no-sync"], { env: agent.env });
    expect(jsonLines(during.stdout)).toHaveLength(1);
    const store = await openRecall({ env: agent.env });
    expect(await store.native.fileRecords({ paths: [path] })).toEqual([]);

    expect(await syncIndex(store)).toMatchObject({ indexed: 1, failed: [] });
    const clean = agentDir();
    writeSession(clean, readFileSync(path, "utf8").split("\n").slice(1).join("\n"));
    const cleanStore = await openRecall({ env: clean.env });
    await syncIndex(cleanStore);
    const words = wordsOf(0, STEPS);
    const same = (c: Awaited<ReturnType<typeof contents>>) => ({
      ...c,
      listed: c.listed.map(({ path: _, ...session }) => session),
    });
    expect(same(await contents(store.native, words))).toEqual(
      same(await contents(cleanStore.native, words)),
    );
  }, 120_000);
});

const LIBRARY = (module: string) =>
  JSON.stringify(new URL(`../../dist/${module}`, import.meta.url).href);

/**
 * A first index in a real process, whose commit timer (FIRST_INDEX_COMMIT_MS) comes due between
 * the first and the second part of the file: the second part's emit commits the first. Once that
 * part is emitted, the process is killed with SIGKILL.
 */
async function killedAfterCommitBetweenParts(env: NodeJS.ProcessEnv): Promise<void> {
  const child = runSpeaking(
    env,
    `import { openStore } from ${LIBRARY("store.js")};
     import { resolveLocations } from ${LIBRARY("locations.js")};
     import { IndexSink } from ${LIBRARY("sync/index-sink.js")};
     import { FIRST_INDEX_COMMIT_MS, syncIndex } from ${LIBRARY("sync/sync.js")};
     const emit = IndexSink.prototype.emit;
     let parts = 0;
     IndexSink.prototype.emit = async function (change) {
       await emit.call(this, change);
       if (change.kind !== "part") return;
       parts++;
       if (parts === 1) sleep(FIRST_INDEX_COMMIT_MS + 200);
       if (parts === 2) {
         writeSync(1, "committed\\n");
         for (;;) sleep(60_000);
       }
     };
     const store = await openStore(resolveLocations({ env: process.env }));
     await syncIndex(store);
     writeSync(1, "finished\\n");`,
  );
  const said = await child.said;
  expect(await child.kill()).toBe("SIGKILL");
  expect(said).toBe("committed");
}
