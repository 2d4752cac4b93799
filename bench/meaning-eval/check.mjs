// The paraphrase evaluation's rules, checked before any search: a paraphrase query shares no
// content word with its session, and a keyword query's words are all in it. Words are the index's
// own (the native analyzer through `questionTerms`: cut, lowercased, folded, its stopwords
// dropped), minus the function words below, with plurals folded (`tests` and `test`, `boxes` and
// `box`, `queries` and `query` count as one word).
import { questionTerms } from "../../dist/native/words.js";

/** Words that say nothing of a topic; the analyzer drops some of these already. */
const FUNCTION_WORDS = new Set(
  (
    "a an the and or but nor if then else so because since though although yet while until unless whether " +
    "of to in on at by for with from as into onto over under about after before between through during without within " +
    "against among across along around behind beside beyond near off out up down upon per via " +
    "i me my mine we us our you your he him his she her it its they them their this that these those " +
    "who whom whose which what when where why how there here " +
    "is are was were be been being am do does did done doing have has had having " +
    "can could shall should will would may might must " +
    "not no yes all any some each every both either neither more most less least much many few other another such " +
    "only just also too very again once ever never still even back away " +
    "one thing things something anything nothing someone anyone somebody nobody anybody cannot way"
  ).split(/\s+/),
);

/**
 * The forms a word may take in singular and plural: `queries` → query, `boxes` → box, `tests` →
 * test.
 */
export function wordForms(word) {
  const forms = [word];
  if (word.length > 3 && word.endsWith("ies")) forms.push(`${word.slice(0, -3)}y`);
  if (word.length > 3 && word.endsWith("es")) forms.push(word.slice(0, -2));
  if (word.length > 2 && word.endsWith("s") && !word.endsWith("ss")) forms.push(word.slice(0, -1));
  return forms;
}

/** The content words of a text as the index reads them, function words dropped. */
export function contentWords(text) {
  return questionTerms(text).filter((word) => !FUNCTION_WORDS.has(word));
}

/** The words of `query` that `text` also holds, in any of their singular or plural forms. */
export function sharedWords(query, text) {
  const held = new Set(contentWords(text).flatMap(wordForms));
  return contentWords(query).filter((word) => wordForms(word).some((form) => held.has(form)));
}

/** The words of `query` that `text` does not hold as they are written. */
export function missingWords(query, text) {
  const held = new Set(questionTerms(text));
  return questionTerms(query).filter((word) => !held.has(word));
}

/** Everything a topic's session says, as one text: its turns, in order. */
export const sessionText = (topic) => topic.turns.join("\n");

/**
 * What is wrong with the topics, one line each: a paraphrase that shares a word with its session,
 * a keyword (remembered, two) query the session does not hold, a missing query, a pair that is not
 * two topics.
 */
export function checkTopics(topics) {
  const problems = [];
  const ids = new Set();
  const pairs = new Map();
  for (const topic of topics) {
    if (ids.has(topic.id)) problems.push(`${topic.id}: the id is used twice`);
    ids.add(topic.id);
    if (topic.pair) pairs.set(topic.pair, [...(pairs.get(topic.pair) ?? []), topic.id]);
    if (topic.turns.length < 2)
      problems.push(`${topic.id}: a session needs a request and an answer`);
    for (const kind of ["paraphrase", "vague", "keyword"])
      if (!topic.queries[kind]?.trim()) problems.push(`${topic.id}: no ${kind} query`);
    const text = sessionText(topic);
    const shared = sharedWords(topic.queries.paraphrase ?? "", text);
    if (shared.length)
      problems.push(`${topic.id}: the paraphrase shares ${shared.join(", ")} with its session`);
    // Words a person remembers (keyword, and the held-back set's remembered and two) are all in it.
    for (const kind of ["keyword", "remembered", "two"]) {
      if (kind !== "keyword" && topic.queries[kind] === undefined) continue;
      const missing = missingWords(topic.queries[kind] ?? "", text);
      if (missing.length)
        problems.push(
          `${topic.id}: the ${kind} query's ${missing.join(", ")} is not in its session`,
        );
    }
  }
  for (const [pair, members] of pairs)
    if (members.length !== 2)
      problems.push(`pair ${pair}: ${members.length} topics (${members.join(", ")}), not two`);
  return problems;
}
