/**
 * The paraphrase evaluation (bench/meaning-eval), so it cannot rot: every topic keeps its rules
 * (a paraphrase shares no content word with its session, plurals included), the checker catches a
 * query that breaks them, and a few close pairs among a few distractors run through the real
 * search (the real numbers are for `npm run eval`).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: plain ES modules of the benchmark harness, without type declarations.
import { checkTopics, sharedWords } from "../bench/meaning-eval/check.mjs";
// @ts-expect-error: as above.
import { evaluate } from "../bench/meaning-eval/eval.mjs";
// @ts-expect-error: as above.
import { TOPICS } from "../bench/meaning-eval/topics.mjs";

type Topic = { id: string; pair?: string; turns: string[]; queries: Record<string, string> };
type Scores = { queries: number; r1: number; r5: number; ranks: { rank: number | null }[] };

const work = mkdtempSync(join(tmpdir(), "recall-meaning-eval-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("paraphrase evaluation (bench/meaning-eval)", () => {
  it("has at least 60 topics and 12 close pairs, every one keeping the rules", () => {
    const topics = TOPICS as Topic[];
    expect(topics.length).toBeGreaterThanOrEqual(60);
    expect(new Set(topics.filter((t) => t.pair).map((t) => t.pair)).size).toBeGreaterThanOrEqual(
      12,
    );
    expect(checkTopics(topics)).toEqual([]);
  });

  it("counts a word shared in its singular or plural form, and not a function word", () => {
    expect(sharedWords("the specs kept failing", "One spec failed on CI.")).toEqual(["specs"]);
    expect(sharedWords("a slow query", "Both queries were slow.")).toEqual(["slow", "query"]);
    expect(sharedWords("broken boxes", "The box is fine.")).toEqual(["boxes"]);
    expect(sharedWords("that thing with the clock", "The timer was mocked.")).toEqual([]);
  });

  it("refuses topics that break the rules, one line each", () => {
    const topic = TOPICS[0] as Topic;
    const sharing = {
      ...topic,
      queries: { ...topic.queries, paraphrase: "the tests kept failing" },
    };
    const absent = {
      ...topic,
      id: "absent",
      pair: undefined,
      queries: { ...topic.queries, keyword: "useFakeTimers kubernetes" },
    };
    const problems = checkTopics([sharing, absent]) as string[];
    expect(problems).toContain(`${topic.id}: the paraphrase shares tests with its session`);
    expect(problems).toContain("absent: the keyword query's kubernetes is not in its session");
  });

  it("finds close pairs by their keywords among distractors, and reports meaning search unavailable without the model", async () => {
    const paired = (TOPICS as Topic[]).filter((t) => t.pair).slice(0, 8);
    const result = await evaluate({
      topics: paired,
      distractors: 20,
      seed: 2,
      matches: ["words", "meaning"],
      outDir: work,
      modelDir: null,
    });
    expect(result.pairs).toBe(4);
    const [words, meaning] = result.results;
    expect(meaning).toMatchObject({ match: "meaning", available: false });
    const keyword: Scores = words.kinds.keyword;
    expect(keyword.queries).toBe(8);
    // Every one in the first five: a keyword query's rare word ("40P01") counts for what it tells,
    // and common ones ("for", "update") for little (native/src/search/coordination.rs).
    expect(keyword.r5).toBe(1);
    expect(keyword.r1).toBeLessThanOrEqual(keyword.r5);
    expect(words.kinds.paraphrase.queries).toBe(8);
  });
});
