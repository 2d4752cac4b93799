/**
 * The index's definition of a word, for questions asked of text outside the index: the native
 * analyzer cuts, lowercases and folds (`Ørsted` → `orsted`, `straße` → `strasse`) exactly as it
 * does for search. Each function is one native call for a whole request, but scoring, which
 * takes the texts a part at a time.
 */
import { nativeSync } from "../errors.js";
import type { NativeTextScore } from "./addon.js";
import { nativeModule } from "./binding.js";

/** The distinct words of a question worth looking for; all of them if every one is a stopword. */
export function questionTerms(question: string): string[] {
  return nativeSync(() => nativeModule().questionTerms(question));
}

/**
 * BM25 of texts against `terms`, where the texts are the collection (one session's messages),
 * given a part at a time so that no more than a part is held: the score of each text that holds
 * a term (the others score 0), by its position among all the texts, and where it first holds its
 * rarest term (a string index).
 */
export function scoreTextsInParts(parts: Iterable<string[]>, terms: string[]): NativeTextScore[] {
  const scorer = nativeSync(() => new (nativeModule().TextScorer)(terms));
  for (const texts of parts) nativeSync(() => scorer.add(texts));
  return nativeSync(() => scorer.scores());
}

/**
 * `scoreTextsInParts` of texts held at once, one score for each (0 at 0 for a text holding no
 * term).
 */
export function scoreTexts(texts: string[], terms: string[]): NativeTextScore[] {
  const scores = texts.map((_, index) => ({ index, score: 0, focus: 0 }));
  for (const scored of scoreTextsInParts([texts], terms)) scores[scored.index] = scored;
  return scores;
}

/** For each text, the UTF-8 byte spans of its words that start with a word of `query`. */
export function prefixMarks(texts: string[], query: string): [number, number][][] {
  return nativeSync(() => nativeModule().prefixMarks(texts, query)).map((spans) =>
    spans.map((s): [number, number] => [s.start, s.end]),
  );
}
