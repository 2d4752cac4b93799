/**
 * The ranking evaluation on a tiny corpus, so the harness cannot rot: on 30 sessions a known item
 * is found first almost always (the real thresholds are for `npm run eval`, on 500 sessions).
 */
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the benchmark harness, without type declarations.
import { evaluate, knownItemQuery } from "../bench/eval-ranking.mjs";

describe("known-item evaluation (bench/eval-ranking.mjs)", () => {
  it("finds the right session first on a small corpus, for distinctive and for any words", async () => {
    for (const words of ["distinctive", "any"]) {
      const result = await evaluate({ sessions: 30, seed: 3, queries: 20, words });
      expect(result.queries).toBe(20);
      expect(result.r1).toBeGreaterThanOrEqual(0.9);
      expect(result.r5).toBeGreaterThanOrEqual(result.r1);
      expect(result.ranks.every((r: { rank: number | null }) => r.rank !== null)).toBe(true);
    }
  });

  it("builds 3–4 word queries from two sentences of a message", () => {
    const rng = { state: 1, int(n: number) { this.state = (this.state * 48271) % 2147483647; return this.state % n; }, chance() { return false; } };
    const text = "The flamingo ledger broke during the migration. Later the quarterly reconciliation script failed again.";
    const query = knownItemQuery(text, rng, new Map(), "any") as string;
    const words = query.split(" ");
    expect(words).toHaveLength(4);
    for (const word of words) expect(text.toLowerCase()).toContain(word);
  });
});
