//! How much each message of one session bears on a question: BM25 computed in memory over the
//! messages' texts, for `recall context`. Words are the index's (tokenizer.rs), so a question
//! finds here what it finds in a search (`orsted` in `Ørsted`).

use crate::words::tokenizer::{words, words_at};

const K1: f64 = 1.2;
const B: f64 = 0.75;

/// Words too common in questions to say what they are about.
const STOPWORDS: &[&str] = &[
    "a", "about", "after", "again", "all", "also", "am", "an", "and", "any", "are", "as", "at",
    "be", "been", "before", "being", "but", "by", "can", "could", "did", "do", "does", "doing",
    "done", "for", "from", "had", "has", "have", "how", "i", "if", "in", "into", "is", "it", "its",
    "just", "me", "more", "most", "my", "no", "not", "now", "of", "on", "once", "only", "or",
    "other", "our", "out", "over", "should", "so", "some", "such", "than", "that", "the", "their",
    "them", "then", "there", "these", "they", "this", "those", "to", "too", "under", "up", "us",
    "very", "was", "we", "were", "what", "when", "where", "which", "while", "who", "whom", "why",
    "will", "with", "would", "you", "your",
];

/// Whether `word` (a word as the index cuts it) is too common to say what a text is about.
pub fn is_stopword(word: &str) -> bool {
    STOPWORDS.contains(&word)
}

/// The distinct words of a question worth looking for, in order; all of them if every one is a
/// stopword.
pub fn question_terms(question: &str) -> Vec<String> {
    let mut all: Vec<String> = Vec::new();
    for word in words(question) {
        if !all.contains(&word) {
            all.push(word);
        }
    }
    let meaningful: Vec<String> = all.iter().filter(|w| !is_stopword(w)).cloned().collect();
    if meaningful.is_empty() {
        all
    } else {
        meaningful
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct TextScore {
    /// Position of the text in the collection, from 0.
    pub index: usize,
    /// BM25 against the terms; above 0, as only texts holding a term are scored.
    pub score: f64,
    /// Where the text first holds its rarest term, in UTF-16 code units (a JavaScript string
    /// index).
    pub focus: usize,
}

/// A text that holds at least one of the terms.
struct Holding {
    index: usize,
    /// Words in the text.
    length: usize,
    /// Per term held, by its position among the terms, in that order: its occurrences and where
    /// the first one is, in UTF-16 code units.
    terms: Vec<(usize, u32, usize)>,
}

/// BM25 over a collection of texts given in parts (one session's messages, read a part at a
/// time): `add` counts each part — the words of each text and the terms it holds —, and once
/// every text is counted, `scores` scores those that hold a term against the whole collection
/// (its count and lengths give the idf and the average length). Only the texts holding a term
/// are kept between parts.
pub struct Scorer {
    terms: Vec<String>,
    texts: usize,
    words: usize,
    holding: Vec<Holding>,
}

impl Scorer {
    pub fn new(terms: Vec<String>) -> Scorer {
        Scorer {
            terms,
            texts: 0,
            words: 0,
            holding: Vec::new(),
        }
    }

    /// Counts the next texts of the collection.
    pub fn add(&mut self, texts: &[String]) {
        for text in texts {
            let all = words_at(text);
            let mut held: Vec<(usize, u32, usize)> = Vec::new();
            for word in &all {
                let Some(term) = self.terms.iter().position(|t| *t == word.text) else {
                    continue;
                };
                match held.iter_mut().find(|(t, _, _)| *t == term) {
                    Some((_, count, _)) => *count += 1,
                    None => held.push((term, 1, word.start)),
                }
            }
            if !held.is_empty() {
                held.sort_unstable_by_key(|(term, _, _)| *term);
                let terms = held
                    .into_iter()
                    .map(|(term, count, at)| (term, count, text[..at].encode_utf16().count()))
                    .collect();
                self.holding.push(Holding {
                    index: self.texts,
                    length: all.len(),
                    terms,
                });
            }
            self.texts += 1;
            self.words += all.len();
        }
    }

    /// The score of each text counted that holds a term, in collection order.
    pub fn scores(&self) -> Vec<TextScore> {
        let n = self.texts as f64;
        let average_length = match self.words as f64 / n.max(1.0) {
            a if a > 0.0 => a,
            _ => 1.0,
        };
        let idf: Vec<f64> = (0..self.terms.len())
            .map(|term| {
                let df = self
                    .holding
                    .iter()
                    .filter(|h| h.terms.iter().any(|(t, _, _)| *t == term))
                    .count() as f64;
                (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
            })
            .collect();
        self.holding
            .iter()
            .map(|h| {
                let norm = K1 * (1.0 - B + B * h.length as f64 / average_length);
                let score = h.terms.iter().fold(0.0, |sum, (term, f, _)| {
                    sum + idf[*term] * (f64::from(*f) * (K1 + 1.0)) / (f64::from(*f) + norm)
                });
                // The rarest term; among equally rare ones, the one that comes first.
                let rarest = h.terms.iter().max_by(|(a, _, a_at), (b, _, b_at)| {
                    idf[*a].total_cmp(&idf[*b]).then(b_at.cmp(a_at))
                });
                TextScore {
                    index: h.index,
                    score,
                    focus: rarest.map_or(0, |(_, _, at)| *at),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::{question_terms, Scorer, TextScore};

    /// The scores of `texts` counted in parts of `part` texts.
    fn scores(texts: &[String], terms: &[&str], part: usize) -> Vec<TextScore> {
        let mut scorer = Scorer::new(terms.iter().map(|t| (*t).to_owned()).collect());
        for chunk in texts.chunks(part) {
            scorer.add(chunk);
        }
        scorer.scores()
    }

    #[test]
    fn question_words_drop_stopwords_and_fold() {
        assert_eq!(
            question_terms("What did we decide about the Helm chart, the helm CHART?"),
            vec!["decide", "helm", "chart"]
        );
        assert_eq!(question_terms("Ørsted straße"), vec!["orsted", "strasse"]);
        assert_eq!(question_terms("what is it"), vec!["what", "is", "it"]);
        assert!(question_terms("?!").is_empty());
    }

    #[test]
    fn rarer_and_denser_matches_score_higher() {
        let texts = [
            "zebra zebra",
            "zebra and other words here",
            "nothing",
            "horse",
        ]
        .map(String::from);
        let scores = scores(&texts, &["zebra", "horse"], 4);
        assert_eq!(
            scores.iter().map(|s| s.index).collect::<Vec<_>>(),
            vec![0, 1, 3],
            "only the texts holding a term"
        );
        assert!(scores[0].score > scores[1].score);
        assert!(scores[2].score > scores[1].score);
    }

    #[test]
    fn a_collection_counted_in_parts_scores_as_one_counted_whole() {
        let texts: Vec<String> = (0..40)
            .map(|i| {
                format!(
                    "{} zebra {}",
                    "word ".repeat(i % 7),
                    if i % 3 == 0 { "horse" } else { "cow" }
                )
            })
            .collect();
        let whole = scores(&texts, &["zebra", "horse"], texts.len());
        for part in [1, 3, 16] {
            assert_eq!(scores(&texts, &["zebra", "horse"], part), whole);
        }
    }

    #[test]
    fn focus_is_the_first_place_of_the_rarest_term_in_utf16_units() {
        let texts = ["common common", "Łódź common 😀 rare common rare"].map(String::from);
        let scores = scores(&texts, &["common", "rare"], 1);
        let at = texts[1].find("rare").unwrap();
        assert_eq!(scores[1].focus, texts[1][..at].encode_utf16().count());
        assert_eq!(scores[0].focus, 0);
    }
}
