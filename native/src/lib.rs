//! recall's search core: a Tantivy index of Pi session messages.
//!
//! The crate owns which documents match and how they rank (schema, writer, query, grouping,
//! recency, snippets). It is used from Node through the N-API `binding` module; everything else
//! is plain Rust, tested with `cargo test --no-default-features`.

pub mod any_term;
pub mod best_per_session;
pub mod by_path_key;
pub mod candidates;
pub mod changes;
pub mod coordinated;
pub mod correction;
pub mod directory;
pub mod engine;
pub mod error;
pub mod field_presence;
pub mod files;
pub mod fusion;
pub mod identity;
pub mod index_part;
pub mod integrity;
pub mod listing;
pub mod lock_file;
pub mod marks;
pub mod meaning;
pub mod panics;
pub mod query;
pub mod related;
pub mod relevance;
pub mod replace;
pub mod required_first;
pub mod scan;
pub mod schema;
pub mod search;
pub mod searchers;
pub mod session;
pub mod session_floor;
pub mod sessions;
pub mod snippet;
pub mod statistics;
pub mod tags;
#[cfg(test)]
mod test_index;
pub mod text_kind;
pub mod tokenizer;
pub mod touched;
pub mod version;
pub mod word_tokenizer;

// napi-rs registers the N-API items only outside `cargo test`, where they look unused.
#[cfg(feature = "node")]
#[cfg_attr(test, allow(dead_code))]
mod binding;
