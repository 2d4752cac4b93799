//! A filter clause: the documents that hold any of a set of terms of one field (a folder, a
//! session id, a file's path), at a constant score.
//!
//! Tantivy's `TermSetQuery` does the same by building an FST of its terms each time a weight is
//! made, and an FST builder first fills a ~1 MB table: a folder-scoped search of every kind of
//! text made several such weights, a third of its time on corpus M. Here each segment looks the
//! terms up in its own term dictionary instead.

use tantivy::query::{
    BitSetDocSet, ConstScorer, EmptyScorer, EnableScoring, Explanation, Query, Scorer, Weight,
};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{BitSet, DocId, DocSet, Score, SegmentReader, TantivyError, Term};

use crate::clauses::field_presence::holds_terms;

#[derive(Debug, Clone)]
pub struct AnyTerm {
    field: Field,
    /// Sorted, without repeats.
    terms: Vec<Term>,
}

impl AnyTerm {
    /// Documents holding any of `values` as a term of `field` (a field indexed whole, not cut into words).
    pub fn new(field: Field, values: &[String]) -> AnyTerm {
        let mut terms: Vec<Term> = values
            .iter()
            .map(|value| Term::from_field_text(field, value))
            .collect();
        terms.sort_unstable();
        terms.dedup();
        AnyTerm { field, terms }
    }
}

impl Query for AnyTerm {
    fn weight(&self, _enable_scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(self.clone()))
    }

    fn query_terms<'a>(&'a self, visitor: &mut dyn FnMut(&'a Term, bool)) {
        for term in &self.terms {
            visitor(term, false);
        }
    }
}

impl Weight for AnyTerm {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        if !holds_terms(reader, self.field) {
            return Ok(Box::new(EmptyScorer));
        }
        let index = reader.inverted_index(self.field)?;
        // One term (the usual folder filter): its postings are the documents, in order.
        if let [term] = self.terms.as_slice() {
            return Ok(match index.read_postings(term, IndexRecordOption::Basic)? {
                Some(postings) => Box::new(ConstScorer::new(postings, boost)),
                None => Box::new(EmptyScorer),
            });
        }
        let mut documents = BitSet::with_max_value(reader.max_doc());
        for term in &self.terms {
            let Some(info) = index.get_term_info(term)? else {
                continue;
            };
            let mut postings =
                index.read_block_postings_from_terminfo(&info, IndexRecordOption::Basic)?;
            while !postings.docs().is_empty() {
                for &doc in postings.docs() {
                    documents.insert(doc);
                }
                postings.advance();
            }
        }
        Ok(Box::new(ConstScorer::new(
            BitSetDocSet::from(documents),
            boost,
        )))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        if self.scorer(reader, 1.0)?.seek(doc) != doc {
            return Err(TantivyError::InvalidArgument(format!(
                "document {doc} holds none of the terms"
            )));
        }
        Ok(Explanation::new("AnyTerm", 1.0))
    }
}

#[cfg(test)]
mod tests {
    use tantivy::collector::DocSetCollector;
    use tantivy::query::{Query, TermSetQuery};
    use tantivy::{doc, DocAddress, Searcher, Term};

    use super::AnyTerm;
    use crate::test_index::TestIndex;

    fn found(searcher: &Searcher, query: &dyn Query) -> Vec<DocAddress> {
        let mut documents: Vec<DocAddress> = searcher
            .search(query, &DocSetCollector)
            .unwrap()
            .into_iter()
            .collect();
        documents.sort();
        documents
    }

    #[test]
    fn the_documents_holding_any_of_the_terms_as_tantivys_term_set_finds_them() {
        let TestIndex {
            index,
            mut writer,
            text,
            label,
        } = TestIndex::new();
        // One segment with labels, one without any (its documents have text only), one deleted label.
        for value in ["/home/a", "/home/b", "/home/a", "/home/c"] {
            writer
                .add_document(doc!(label => value, text => "words"))
                .unwrap();
        }
        writer.commit().unwrap();
        writer.add_document(doc!(text => "no label here")).unwrap();
        writer.add_document(doc!(label => "/home/b")).unwrap();
        writer.commit().unwrap();
        writer.add_document(doc!(text => "only text")).unwrap();
        writer.commit().unwrap();
        writer.delete_term(Term::from_field_text(label, "/home/c"));
        writer.commit().unwrap();
        let searcher = index.reader().unwrap().searcher();
        assert_eq!(searcher.segment_readers().len(), 3);

        let sets: [&[&str]; 5] = [
            &["/home/a"],
            &["/home/b", "/home/a"],
            &["/home/a", "/home/a"],
            &["/home/nowhere"],
            &["/home/c"],
        ];
        let expected_counts = [2, 4, 2, 0, 0];
        for (values, expected) in sets.iter().zip(expected_counts) {
            let values: Vec<String> = values.iter().map(|v| v.to_string()).collect();
            let ours = found(&searcher, &AnyTerm::new(label, &values));
            let tantivys = found(
                &searcher,
                &TermSetQuery::new(values.iter().map(|v| Term::from_field_text(label, v))),
            );
            assert_eq!(ours, tantivys, "{values:?}");
            assert_eq!(ours.len(), expected, "{values:?}");
        }
    }
}
