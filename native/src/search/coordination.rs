//! Coordination: a bonus on top of BM25 for each distinct query word a document holds, so that a
//! message holding more of the words ranks above one holding fewer while any single word still
//! matches. The bonus of a word is weighed by how much it tells, not counted: `constant` × the
//! word's idf in the field over the most idf a word can have there (one document holds it). A
//! word most messages hold (`the`, `of`, `it`, `for`) adds almost nothing, so a sentence typed in
//! natural language is not "most of its words" in a message of common words, and a rare word
//! (an error code) counts for what it says.

use std::collections::HashMap;

use tantivy::query::Bm25StatisticsProvider;
use tantivy::schema::Field;
use tantivy::Term;

use crate::error::Result;

/// The coordination constant of each query word in each field searched, and whether any
/// document holds it there.
#[derive(Debug, Default)]
pub struct Coordination {
    by_word: HashMap<(Field, String), (f32, bool)>,
    constant: f32,
}

impl Coordination {
    /// The constants of `words` in `fields`: `constant` × how much each word tells there.
    pub fn new(
        constant: f32,
        words: &[String],
        fields: &[Field],
        statistics: &dyn Bm25StatisticsProvider,
    ) -> Result<Coordination> {
        let mut by_word = HashMap::with_capacity(words.len() * fields.len());
        let documents = statistics.total_num_docs()? as f64;
        for &field in fields {
            for word in words {
                let df = statistics.doc_freq(&Term::from_field_text(field, word))?;
                let weight = constant.max(0.0) * tells(df, documents);
                by_word.insert((field, word.clone()), (weight, df > 0));
            }
        }
        Ok(Coordination {
            by_word,
            constant: constant.max(0.0),
        })
    }

    /// The constant of `word` in `field` (0 for a word or field it was not made for).
    pub fn of(&self, field: Field, word: &str) -> f32 {
        self.by_word
            .get(&(field, word.to_owned()))
            .map_or(0.0, |(weight, _)| *weight)
    }

    /// The constant of a word that tells all it can (one document holds it).
    pub fn most(&self) -> f32 {
        self.constant
    }

    /// Whether a document of the fields searched holds any of the words.
    pub fn any_held(&self) -> bool {
        self.by_word.values().any(|(_, held)| *held)
    }
}

/// BM25's idf of a word `df` of `documents` hold.
pub fn idf(df: u64, documents: f64) -> f64 {
    let df = df as f64;
    (1.0 + (documents - df + 0.5) / (df + 0.5)).ln()
}

/// How much a word `df` of `documents` hold tells, from 0 (every document) to 1 (one, or none).
pub fn tells(df: u64, documents: f64) -> f32 {
    let most = idf(1, documents.max(1.0));
    if most <= 0.0 {
        return 1.0;
    }
    (idf(df, documents) / most).clamp(0.0, 1.0) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rare_word_tells_much_and_a_common_one_little() {
        let documents = 100_000.0;
        assert_eq!(tells(1, documents), 1.0);
        assert_eq!(tells(0, documents), 1.0);
        assert!(tells(20, documents) > 0.6);
        assert!(tells(50_000, documents) < 0.1);
        assert!(tells(100_000, documents) < 0.01);
    }
}
