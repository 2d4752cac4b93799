/**
 * The kill -9 campaign of issue 20: `recall index` (after appends, new files, or `--rebuild`) and
 * `recall tag` / `recall untag` are killed with SIGKILL at seeded random moments. After each kill
 * the index still answers (no exit 2); at the end, one more `recall index` brings it up to date,
 * and its answers (every session's metadata and tags, the sessions each word finds) must equal
 * those of a clean rebuild into another cache from the same session files and tag database: no
 * lost data, no wrong answers, tags intact. Every tag edit that ran to the end must be there.
 *
 * `npm test` runs a short campaign; RECALL_RELIABILITY_LONG=1 runs the long one (RELIABILITY.md).
 */
import { spawn } from "node:child_process";
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "../helpers/agent-dir.js";
import { seededRandom } from "../helpers/damage.js";
import { userMessage } from "../helpers/fixture-files.js";
import { jsonLines, RECALL_BIN, runRecall } from "../helpers/run-cli.js";

const LONG = process.env.RECALL_RELIABILITY_LONG === "1";
const INDEX_TRIALS = LONG ? 60 : 6;
const TAG_TRIALS = LONG ? 120 : 8;
/** Kills land between 0 and this many ms after the start: from Node's start-up to the commit. */
const MAX_DELAY_MS = 1_000;
const GENERATED_SESSIONS = 120;
const WORDS = ["campaignword", "migration", "needle7", "needle42", "appended", "deploy"];

const random = seededRandom(20_261_202);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

let agent: AgentDir;
const files: { path: string; id: string }[] = [];
const envFor = (cache: string): NodeJS.ProcessEnv => ({
  ...agent.env,
  RECALL_CACHE_DIR: join(agent.root, cache),
});

function sessionId(n: number): string {
  return `01a2${n.toString(16).padStart(4, "0")}-0000-7000-8000-000000000000`;
}

function writeSession(n: number): void {
  const folder = join(agent.sessionsDir, `--home-dev-campaign${n % 4}--`);
  mkdirSync(folder, { recursive: true });
  const id = sessionId(n);
  const path = join(folder, `2026-10-02T09-00-00-000Z_${id}.jsonl`);
  const start = Date.parse("2026-10-02T09:00:00Z") + n * 60_000;
  let text = `${JSON.stringify({ type: "session", version: 3, id, timestamp: new Date(start).toISOString(), cwd: `/home/dev/campaign${n % 4}` })}\n`;
  for (let m = 0; m < 30; m++)
    text += userMessage(
      `m${n}x${m}`,
      `needle${n} campaignword message ${m} ${"filler words for a longer text ".repeat(20)}`,
      start + m * 1000,
    );
  writeFileSync(path, text);
  files.push({ path, id });
}

/** Runs recall and kills it with SIGKILL after `delayMs`; whether it had finished by then. */
function runKilled(
  args: string[],
  env: NodeJS.ProcessEnv,
  delayMs: number,
): Promise<{ finished: boolean; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [RECALL_BIN, ...args], {
      env,
      stdio: ["ignore", "ignore", "ignore"],
    });
    let killed = false;
    const timer = setTimeout(() => ((killed = true), child.kill("SIGKILL")), delayMs);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ finished: !(killed && signal === "SIGKILL"), code });
    });
  });
}

/**
 * What an index answers, in a form that does not depend on how it was built (no scores, no order).
 */
async function answers(env: NodeJS.ProcessEnv): Promise<Record<string, unknown>> {
  const list = await runRecall(["list", "--json", "--no-sync", "--limit", "10000"], { env });
  expect(list.code, list.stderr).toBe(0);
  const sessions = jsonLines<{ path: string; tags: string[] }>(list.stdout).sort((a, b) =>
    a.path.localeCompare(b.path),
  );
  const found: Record<string, string[]> = {};
  for (const word of WORDS) {
    const search = await runRecall(["search", word, "--json", "--no-sync", "--limit", "10000"], {
      env,
    });
    expect([0, 1], search.stderr).toContain(search.code);
    found[word] = jsonLines<{ id: string }>(search.stdout)
      .map((hit) => hit.id)
      .sort();
  }
  return { sessions, found };
}

describe(`kill -9 during recall index and recall tag (${INDEX_TRIALS} + ${TAG_TRIALS} trials, seeded)`, () => {
  const tagsDone = new Map<string, Set<string>>();
  let killedIndex = 0;
  let killedTags = 0;

  beforeAll(async () => {
    agent = makeAgentDir();
    for (let n = 0; n < GENERATED_SESSIONS; n++) writeSession(n);
    expect((await runRecall(["index"], { env: envFor("cache") })).code).toBe(0);
  });
  afterAll(() => {
    console.log(
      `sigkill.test.ts: ${killedIndex} of ${INDEX_TRIALS} index runs and ${killedTags} of ${TAG_TRIALS} tag edits killed before they ended`,
    );
    agent?.cleanup();
  });

  it("after every killed recall index the index still answers", async () => {
    for (let trial = 0; trial < INDEX_TRIALS; trial++) {
      // Work for the run: appends to a few files, sometimes a new file, sometimes a rebuild.
      for (let k = 0; k < 3; k++) {
        const file = pick(files);
        appendFileSync(
          file.path,
          userMessage(
            `a${trial}x${k}`,
            `appended in trial ${trial} deploy`,
            Date.parse("2026-11-01T00:00:00Z") + trial * 1000 + k,
          ),
        );
      }
      if (random() < 0.3) writeSession(GENERATED_SESSIONS + trial);
      const args = random() < 0.25 ? ["index", "--rebuild"] : ["index"];
      const run = await runKilled(args, envFor("cache"), Math.floor(random() * MAX_DELAY_MS));
      if (!run.finished) killedIndex++;
      else expect(run.code).toBe(0);
      const list = await runRecall(["list", "--json", "--no-sync", "--limit", "3"], {
        env: envFor("cache"),
      });
      expect([0, 1], `trial ${trial}: ${list.stderr}`).toContain(list.code);
    }
  }, 600_000);

  it("after every killed tag edit the tags and the index still answer; finished edits are kept", async () => {
    for (let trial = 0; trial < TAG_TRIALS; trial++) {
      const file = pick(files);
      const tag = `k${Math.floor(random() * 5)}`;
      const untag = random() < 0.3;
      const run = await runKilled(
        [untag ? "untag" : "tag", file.id, tag],
        envFor("cache"),
        Math.floor(random() * MAX_DELAY_MS),
      );
      const done = tagsDone.get(file.id) ?? new Set<string>();
      tagsDone.set(file.id, done);
      if (!run.finished) {
        killedTags++;
        // Saved or not, nobody can say: that tag is no longer expected either way.
        done.delete(tag);
      } else {
        expect(run.code).toBe(0);
        if (untag) done.delete(tag);
        else done.add(tag);
      }
      const tags = await runRecall(["tags", file.id, "--json"], { env: envFor("cache") });
      expect([0, 1], `trial ${trial}: ${tags.stderr}`).toContain(tags.code);
    }
  }, 600_000);

  it("once brought up to date, the index answers as a clean rebuild does, tags included", async () => {
    expect((await runRecall(["index"], { env: envFor("cache") })).code).toBe(0);
    const after = await answers(envFor("cache"));
    expect((await runRecall(["index", "--rebuild"], { env: envFor("clean-cache") })).code).toBe(0);
    expect(after).toEqual(await answers(envFor("clean-cache")));
    // Tags whose edit ran to the end (and was not undone by a later finished edit) are there.
    const sessions = after.sessions as { id: string; tags: string[] }[];
    for (const [id, done] of tagsDone) {
      const tags = sessions.find((s) => s.id === id)?.tags ?? [];
      for (const tag of done) expect(tags, `${id} #${tag}`).toContain(tag);
    }
  }, 600_000);
});
