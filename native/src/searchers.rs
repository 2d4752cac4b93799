//! The searchers one search reads: the main index's always, the depth index's when the search
//! reads other kinds of text than the conversation and that index exists (index_part.rs).

use tantivy::{DocAddress, Searcher, TantivyDocument};

use crate::error::{Code, RecallError, Result};
use crate::index_part::Part;
use crate::text_kind::TextKind;

pub struct Searchers {
    pub main: Searcher,
    pub depth: Option<Searcher>,
}

impl Searchers {
    /// Each searcher with the part it reads.
    pub fn parts(&self) -> impl Iterator<Item = (Part, &Searcher)> {
        std::iter::once((Part::Main, &self.main)).chain(self.depth.iter().map(|depth| (Part::Depth, depth)))
    }

    /// The searcher of `part`, if it is read.
    pub fn of(&self, part: Part) -> Option<&Searcher> {
        match part {
            Part::Main => Some(&self.main),
            Part::Depth => self.depth.as_ref(),
        }
    }

    /// The searcher of the index that holds `kind`, if it is read.
    pub fn of_kind(&self, kind: TextKind) -> Option<&Searcher> {
        self.of(Part::of(kind))
    }

    /// A document found by the searcher of `part`.
    pub fn doc(&self, part: Part, address: DocAddress) -> Result<TantivyDocument> {
        let searcher = self.of(part).ok_or_else(|| RecallError::new(Code::Internal, "a document of an index this search does not read"))?;
        Ok(searcher.doc(address)?)
    }
}
