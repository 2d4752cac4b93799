//! The searchers one search reads: the main index's always, and those of the other parts that hold
//! the kinds of text the search reads, when they exist (index/part.rs).

use tantivy::{DocAddress, Searcher, TantivyDocument};

use crate::error::{Code, RecallError, Result};
use crate::index::part::Part;
use crate::index::text_kind::TextKind;

pub struct Searchers {
    pub main: Searcher,
    /// The other parts read, in `Part::ALL` order.
    pub others: Vec<(Part, Searcher)>,
}

impl Searchers {
    /// Each searcher with the part it reads.
    pub fn parts(&self) -> impl Iterator<Item = (Part, &Searcher)> {
        std::iter::once((Part::Main, &self.main))
            .chain(self.others.iter().map(|(part, searcher)| (*part, searcher)))
    }

    /// The searcher of `part`, if it is read.
    pub fn of(&self, part: Part) -> Option<&Searcher> {
        self.parts()
            .find(|(read, _)| *read == part)
            .map(|(_, searcher)| searcher)
    }

    /// The searcher of the index that holds `kind`, if it is read.
    pub fn of_kind(&self, kind: TextKind) -> Option<&Searcher> {
        self.of(Part::of(kind))
    }

    /// A document found by the searcher of `part`.
    pub fn doc(&self, part: Part, address: DocAddress) -> Result<TantivyDocument> {
        let searcher = self.of(part).ok_or_else(|| {
            RecallError::new(
                Code::Internal,
                "a document of an index this search does not read",
            )
        })?;
        Ok(searcher.doc(address)?)
    }
}
