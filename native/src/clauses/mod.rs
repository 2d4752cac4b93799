//! Tantivy queries of recall's own: clauses that know nothing of the schema.

pub mod any_term;
pub mod coordinated;
pub mod field_presence;
pub mod required_first;
