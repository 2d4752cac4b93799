/**
 * Lexical relevance of a few hundred messages to a question, computed in memory: BM25 over the
 * messages of one session. Words are cut and folded as the search index does (letters and
 * digits, lowercased, accents removed), so a question finds here what it finds in a search.
 */

export interface Word {
  /** Folded form. */
  text: string;
  /** Offset of the word in the original text. */
  start: number;
}

const WORD = /[\p{L}\p{N}]+/gu;
/** Longer tokens are hashes and base64, not words (the index drops them too). */
const MAX_WORD_BYTES = 64;
const K1 = 1.2;
const B = 0.75;

/** Words too common in questions to say what they are about. */
const STOPWORDS = new Set(
  (
    "a about after again all also am an and any are as at be been before being but by can could did do does doing done " +
    "for from had has have how i if in into is it its just me more most my no not now of on once only or other our out " +
    "over should so some such than that the their them then there these they this those to too under up us very was we " +
    "were what when where which while who whom why will with would you your"
  ).split(" "),
);

function fold(word: string): string {
  return word.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
}

export function words(text: string): Word[] {
  const out: Word[] = [];
  for (const match of text.matchAll(WORD)) {
    const folded = fold(match[0]);
    if (Buffer.byteLength(folded) <= MAX_WORD_BYTES) out.push({ text: folded, start: match.index });
  }
  return out;
}

/** The distinct words of a question worth looking for; all of them if every one is a stopword. */
export function questionTerms(question: string): string[] {
  const all = [...new Set(words(question).map((w) => w.text))];
  const meaningful = all.filter((w) => !STOPWORDS.has(w));
  return meaningful.length > 0 ? meaningful : all;
}

export interface Scores {
  /** BM25 score of each text, in order; 0 when no term occurs. */
  scores: number[];
  /** Inverse document frequency of each term among the texts. */
  idf: Map<string, number>;
}

export function bm25(texts: string[], terms: string[]): Scores {
  const wanted = new Set(terms);
  const counts = texts.map((text) => {
    const all = words(text);
    const tf = new Map<string, number>();
    for (const w of all) if (wanted.has(w.text)) tf.set(w.text, (tf.get(w.text) ?? 0) + 1);
    return { length: all.length, tf };
  });
  const n = texts.length;
  const averageLength = counts.reduce((sum, c) => sum + c.length, 0) / Math.max(1, n) || 1;
  const idf = new Map<string, number>();
  for (const term of wanted) {
    const df = counts.filter((c) => c.tf.has(term)).length;
    idf.set(term, Math.log(1 + (n - df + 0.5) / (df + 0.5)));
  }
  const scores = counts.map(({ length, tf }) => {
    let score = 0;
    for (const [term, f] of tf) score += idf.get(term)! * ((f * (K1 + 1)) / (f + K1 * (1 - B + (B * length) / averageLength)));
    return score;
  });
  return { scores, idf };
}
