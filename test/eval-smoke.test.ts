/** The ranking evaluation on a tiny corpus, so the harness cannot rot (no thresholds here). */
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the benchmark harness, without type declarations.
import { evaluate, knownItemQuery } from "../bench/eval-ranking.mjs";

describe("known-item evaluation (bench/eval-ranking.mjs)", () => {
  it("runs on a small corpus and reports R@1, R@5 and MRR", async () => {
    const result = await evaluate({ sessions: 30, seed: 3, queries: 20 });
    expect(result.queries).toBeGreaterThan(5);
    for (const key of ["r1", "r5", "mrr"]) {
      expect(result[key]).toBeGreaterThanOrEqual(0);
      expect(result[key]).toBeLessThanOrEqual(1);
    }
    expect(result.r5).toBeGreaterThanOrEqual(result.r1);
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
