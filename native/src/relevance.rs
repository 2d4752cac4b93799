//! How much each message of one session bears on a question: BM25 computed in memory over the
//! messages' texts, for `recall context`. Words are the index's (tokenizer.rs), so a question
//! finds here what it finds in a search (`orsted` in `Ørsted`).

use std::collections::HashMap;

use crate::tokenizer::{words, words_at};

const K1: f64 = 1.2;
const B: f64 = 0.75;

/// Words too common in questions to say what they are about.
const STOPWORDS: &[&str] = &[
    "a", "about", "after", "again", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be", "been", "before", "being",
    "but", "by", "can", "could", "did", "do", "does", "doing", "done", "for", "from", "had", "has", "have", "how", "i", "if", "in",
    "into", "is", "it", "its", "just", "me", "more", "most", "my", "no", "not", "now", "of", "on", "once", "only", "or", "other",
    "our", "out", "over", "should", "so", "some", "such", "than", "that", "the", "their", "them", "then", "there", "these", "they",
    "this", "those", "to", "too", "under", "up", "us", "very", "was", "we", "were", "what", "when", "where", "which", "while",
    "who", "whom", "why", "will", "with", "would", "you", "your",
];

/// The distinct words of a question worth looking for, in order; all of them if every one is a
/// stopword.
pub fn question_terms(question: &str) -> Vec<String> {
    let mut all: Vec<String> = Vec::new();
    for word in words(question) {
        if !all.contains(&word) {
            all.push(word);
        }
    }
    let meaningful: Vec<String> = all.iter().filter(|w| !STOPWORDS.contains(&w.as_str())).cloned().collect();
    if meaningful.is_empty() {
        all
    } else {
        meaningful
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct TextScore {
    /// BM25 against the terms; 0 when the text holds none of them.
    pub score: f64,
    /// Where the text first holds its rarest term, in UTF-16 code units (a JavaScript string
    /// index); 0 when it holds none.
    pub focus: usize,
}

/// What one text holds of the terms.
struct Counts {
    length: usize,
    /// Occurrences of each term the text holds, and the byte offset of its first one.
    terms: HashMap<String, (u32, usize)>,
}

/// The score of each text against `terms`, in order; the texts are the whole collection (their
/// count and lengths give the idf and the average length).
pub fn score_texts(texts: &[String], terms: &[String]) -> Vec<TextScore> {
    let counts: Vec<Counts> = texts
        .iter()
        .map(|text| {
            let all = words_at(text);
            let mut held: HashMap<String, (u32, usize)> = HashMap::new();
            for word in &all {
                if terms.contains(&word.text) {
                    held.entry(word.text.clone()).or_insert((0, word.start)).0 += 1;
                }
            }
            Counts { length: all.len(), terms: held }
        })
        .collect();
    let n = texts.len() as f64;
    let total_length: usize = counts.iter().map(|c| c.length).sum();
    let average_length = match total_length as f64 / n.max(1.0) {
        a if a > 0.0 => a,
        _ => 1.0,
    };
    let idf: HashMap<&str, f64> = terms
        .iter()
        .map(|term| {
            let df = counts.iter().filter(|c| c.terms.contains_key(term)).count() as f64;
            (term.as_str(), (1.0 + (n - df + 0.5) / (df + 0.5)).ln())
        })
        .collect();
    texts
        .iter()
        .zip(&counts)
        .map(|(text, c)| {
            let norm = K1 * (1.0 - B + B * c.length as f64 / average_length);
            let score = c.terms.iter().fold(0.0, |sum, (term, (f, _))| sum + idf[term.as_str()] * (f64::from(*f) * (K1 + 1.0)) / (f64::from(*f) + norm));
            // The rarest term; among equally rare ones, the one that comes first.
            let rarest = c.terms.values().map(|(_, at)| *at).zip(c.terms.keys()).max_by(|(a_at, a), (b_at, b)| {
                idf[a.as_str()].total_cmp(&idf[b.as_str()]).then(b_at.cmp(a_at))
            });
            let focus = rarest.map_or(0, |(at, _)| text[..at].encode_utf16().count());
            TextScore { score, focus }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{question_terms, score_texts};

    #[test]
    fn question_words_drop_stopwords_and_fold() {
        assert_eq!(question_terms("What did we decide about the Helm chart, the helm CHART?"), vec!["decide", "helm", "chart"]);
        assert_eq!(question_terms("Ørsted straße"), vec!["orsted", "strasse"]);
        assert_eq!(question_terms("what is it"), vec!["what", "is", "it"]);
        assert!(question_terms("?!").is_empty());
    }

    #[test]
    fn rarer_and_denser_matches_score_higher() {
        let texts = ["zebra zebra", "zebra and other words here", "nothing", "horse"].map(String::from);
        let scores = score_texts(&texts, &["zebra", "horse"].map(String::from));
        assert!(scores[0].score > scores[1].score);
        assert_eq!(scores[2].score, 0.0);
        assert!(scores[3].score > scores[1].score);
    }

    #[test]
    fn focus_is_the_first_place_of_the_rarest_term_in_utf16_units() {
        let texts = ["common common", "Łódź common 😀 rare common rare"].map(String::from);
        let scores = score_texts(&texts, &["common", "rare"].map(String::from));
        let at = texts[1].find("rare").unwrap();
        assert_eq!(scores[1].focus, texts[1][..at].encode_utf16().count());
        assert_eq!(scores[0].focus, 0);
    }
}
