/**
 * The index's definition of a word, for questions asked of text outside the index: the native
 * analyzer cuts, lowercases and folds (`Ørsted` → `orsted`, `straße` → `strasse`) exactly as it
 * does for search. Each function is one native call for a whole request.
 */
import { nativeSync } from "../errors.js";
import type { NativeTextScore } from "./addon.js";
import { nativeModule } from "./binding.js";

/** The distinct words of a question worth looking for; all of them if every one is a stopword. */
export function questionTerms(question: string): string[] {
  return nativeSync(() => nativeModule().questionTerms(question));
}

/**
 * BM25 of each text against `terms` (the texts are the collection: one session's messages), and
 * where each first holds its rarest term (a string index; 0 when it holds none).
 */
export function scoreTexts(texts: string[], terms: string[]): NativeTextScore[] {
  return nativeSync(() => nativeModule().scoreTexts(texts, terms));
}

/** For each text, the UTF-8 byte spans of its words that start with a word of `query`. */
export function prefixMarks(texts: string[], query: string): [number, number][][] {
  return nativeSync(() => nativeModule().prefixMarks(texts, query)).map((spans) => spans.map((s): [number, number] => [s.start, s.end]));
}
