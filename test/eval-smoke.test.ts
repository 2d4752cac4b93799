/**
 * The ranking evaluation on a tiny corpus, so the harness cannot rot: every query shape runs and
 * finds its known items (the real numbers are for `npm run eval`, on 500 sessions).
 */
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module of the benchmark harness, without type declarations.
import { evaluate, knownItemQuery, misspelt, SHAPES } from "../bench/eval-ranking.mjs";

type Rank = { query: string; rank: number | null };

describe("known-item evaluation (bench/eval-ranking.mjs)", () => {
  it("finds the right session first on a small corpus, for distinctive and for any words", async () => {
    for (const words of ["distinctive", "any"]) {
      const result = await evaluate({ sessions: 30, seed: 3, queries: 20, words });
      expect(result.queries).toBe(20);
      expect(result.r1).toBeGreaterThanOrEqual(0.9);
      expect(result.r5).toBeGreaterThanOrEqual(result.r1);
      expect(result.ranks.every((r: Rank) => r.rank !== null)).toBe(true);
    }
  });

  it("runs every query shape, each finding most of its known items", async () => {
    expect(SHAPES).toEqual(["remembered", "two", "one", "misspelt", "absent", "file", "command"]);
    for (const shape of SHAPES) {
      const result = await evaluate({ sessions: 30, seed: 3, queries: 20, shape });
      expect(result.shape).toBe(shape);
      expect(result.queries, shape).toBe(20);
      expect(result.r5, shape).toBeGreaterThanOrEqual(0.5);
      const lengths = result.ranks.map((r: Rank) => r.query.split(" ").length);
      if (shape === "two" || shape === "file")
        expect(
          lengths.every((n: number) => n === 2),
          shape,
        ).toBe(true);
      if (shape === "one")
        expect(
          lengths.every((n: number) => n === 1),
          shape,
        ).toBe(true);
      if (shape === "misspelt" || shape === "absent")
        expect(
          lengths.every((n: number) => n === 3 || n === 4),
          shape,
        ).toBe(true);
    }
  });

  it("builds 3–4 word queries from two sentences of a message", () => {
    const rng = {
      state: 1,
      int(n: number) {
        this.state = (this.state * 48271) % 2147483647;
        return this.state % n;
      },
      chance() {
        return false;
      },
    };
    const text =
      "The flamingo ledger broke during the migration. Later the quarterly reconciliation script failed again.";
    const query = knownItemQuery(text, rng, new Map(), "any") as string;
    const words = query.split(" ");
    expect(words).toHaveLength(4);
    for (const word of words) expect(text.toLowerCase()).toContain(word);
    expect((knownItemQuery(text, rng, new Map(), "any", 2) as string).split(" ")).toHaveLength(2);
  });

  it("misspells a word by one swap, drop or doubling, never leaving it as it was", () => {
    const rng = {
      state: 7,
      int(n: number) {
        this.state = (this.state * 48271) % 2147483647;
        return this.state % n;
      },
    };
    for (const word of ["ledger", "reconciliation", "aaaa", "flamingo"]) {
      for (let i = 0; i < 10; i++) {
        const typo = misspelt(word, rng) as string;
        expect(typo).not.toBe(word);
        expect(Math.abs(typo.length - word.length)).toBeLessThanOrEqual(1);
        expect(typo[0]).toBe(word[0]);
      }
    }
  });
});
