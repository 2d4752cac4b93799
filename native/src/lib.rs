//! recall's search core: a Tantivy index of Pi session messages.
//!
//! The crate owns which documents match and how they rank (schema, writer, query, grouping,
//! recency, snippets). It is used from Node through the N-API `binding` module; everything else
//! is plain Rust, tested with `cargo test --no-default-features`.

pub mod clauses;
pub mod engine;
pub mod error;
pub mod fs;
pub mod index;
pub mod meaning;
pub mod panics;
pub mod path_key;
pub mod replace;
pub mod search;
pub mod tags;
#[cfg(test)]
mod test_index;
pub mod words;

// napi-rs registers the N-API items only outside `cargo test`, where they look unused.
#[cfg(feature = "node")]
#[cfg_attr(test, allow(dead_code))]
mod binding;
