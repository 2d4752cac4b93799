//! A query with required clauses (quoted phrases) and optional ones (the words, tags and
//! completions that add to the score): the documents the required clauses match, each scored with
//! the optional clauses that hold it too.
//!
//! Tantivy's Boolean query scores these with a union of the optional clauses that it reads in
//! windows of thousands of documents, scoring every document of each window, so a phrase of two
//! common words scored nearly all the documents holding either word: with every kind of text
//! searched, most of a phrase search's time. Here each optional clause jumps to the documents
//! the required ones match (its skip list), and only those are scored. The score is the same
//! sum: required, plus the optional clauses that match.

use tantivy::query::{EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocId, DocSet, Score, SegmentReader, Term, TERMINATED};

#[derive(Debug)]
pub struct RequiredFirst {
    required: Box<dyn Query>,
    optional: Vec<Box<dyn Query>>,
}

impl Clone for RequiredFirst {
    fn clone(&self) -> RequiredFirst {
        RequiredFirst {
            required: self.required.box_clone(),
            optional: self
                .optional
                .iter()
                .map(|query| query.box_clone())
                .collect(),
        }
    }
}

impl RequiredFirst {
    pub fn new(required: Box<dyn Query>, optional: Vec<Box<dyn Query>>) -> RequiredFirst {
        RequiredFirst { required, optional }
    }
}

impl Query for RequiredFirst {
    fn weight(&self, enable_scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(RequiredFirstWeight {
            required: self.required.weight(enable_scoring)?,
            optional: self
                .optional
                .iter()
                .map(|query| query.weight(enable_scoring))
                .collect::<tantivy::Result<_>>()?,
        }))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        self.required.query_terms(visitor);
        for query in &self.optional {
            query.query_terms(visitor);
        }
    }
}

struct RequiredFirstWeight {
    required: Box<dyn Weight>,
    optional: Vec<Box<dyn Weight>>,
}

impl Weight for RequiredFirstWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let mut optional = Vec::with_capacity(self.optional.len());
        for weight in &self.optional {
            let scorer = weight.scorer(reader, boost)?;
            // A clause with no document in this segment (a word it lacks) is left out.
            if scorer.doc() != TERMINATED {
                optional.push(scorer);
            }
        }
        Ok(Box::new(RequiredFirstScorer {
            required: self.required.scorer(reader, boost)?,
            optional,
        }))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let required = self.required.explain(reader, doc)?;
        let mut details = vec![required];
        for weight in &self.optional {
            if let Ok(explanation) = weight.explain(reader, doc) {
                details.push(explanation);
            }
        }
        let mut explanation = Explanation::new(
            "required + matching optional clauses",
            details.iter().map(Explanation::value).sum(),
        );
        for detail in details {
            explanation.add_detail(detail);
        }
        Ok(explanation)
    }
}

struct RequiredFirstScorer {
    required: Box<dyn Scorer>,
    optional: Vec<Box<dyn Scorer>>,
}

impl DocSet for RequiredFirstScorer {
    fn advance(&mut self) -> DocId {
        self.required.advance()
    }

    fn seek(&mut self, target: DocId) -> DocId {
        self.required.seek(target)
    }

    fn doc(&self) -> DocId {
        self.required.doc()
    }

    fn size_hint(&self) -> u32 {
        self.required.size_hint()
    }

    fn cost(&self) -> u64 {
        self.required.cost()
    }
}

impl Scorer for RequiredFirstScorer {
    fn score(&mut self) -> Score {
        let doc = self.required.doc();
        let mut optional = 0.0;
        for scorer in &mut self.optional {
            if scorer.doc() < doc {
                scorer.seek(doc);
            }
            if scorer.doc() == doc {
                optional += scorer.score();
            }
        }
        self.required.score() + optional
    }
}

#[cfg(test)]
mod tests {
    use tantivy::collector::TopDocs;
    use tantivy::query::{BooleanQuery, Occur, PhraseQuery, Query, TermQuery};
    use tantivy::schema::IndexRecordOption;
    use tantivy::{doc, Term};

    use super::RequiredFirst;
    use crate::test_index::TestIndex;

    #[test]
    fn finds_and_scores_what_a_boolean_query_does() {
        let TestIndex {
            index,
            mut writer,
            text,
            ..
        } = TestIndex::new();
        for line in [
            "source map here",
            "map of the source",
            "the source map, the source map",
            "nothing at all",
            "a source",
            "map map map source map",
        ] {
            writer.add_document(doc!(text => line)).unwrap();
        }
        writer.commit().unwrap();
        let searcher = index.reader().unwrap().searcher();
        let term = |word: &str| Term::from_field_text(text, word);
        let phrase =
            || -> Box<dyn Query> { Box::new(PhraseQuery::new(vec![term("source"), term("map")])) };
        let words = || -> Vec<Box<dyn Query>> {
            ["source", "map", "the"]
                .iter()
                .map(|w| {
                    Box::new(TermQuery::new(term(w), IndexRecordOption::WithFreqs))
                        as Box<dyn Query>
                })
                .collect()
        };
        let mut clauses = vec![(Occur::Must, phrase())];
        clauses.extend(words().into_iter().map(|query| (Occur::Should, query)));
        let expected = searcher
            .search(
                &BooleanQuery::new(clauses),
                &TopDocs::with_limit(10).order_by_score(),
            )
            .unwrap();
        let found = searcher
            .search(
                &RequiredFirst::new(phrase(), words()),
                &TopDocs::with_limit(10).order_by_score(),
            )
            .unwrap();
        assert_eq!(found.len(), 3);
        assert_eq!(
            found
                .iter()
                .map(|(_, address)| *address)
                .collect::<Vec<_>>(),
            expected
                .iter()
                .map(|(_, address)| *address)
                .collect::<Vec<_>>()
        );
        for ((score, _), (expected, _)) in found.iter().zip(&expected) {
            assert!(
                (score - expected).abs() < 1e-4,
                "{score} against {expected}"
            );
        }
    }
}
