//! recall's search core: a Tantivy index of Pi session messages.
//!
//! The crate owns what a word is, what a text means, which documents match and how they rank. Its
//! rooms, lowest layer first, each using only its own room and the layers below (checked by
//! tests/layers.rs): error, panics, path_key; fs, words, clauses, tags; meaning; index; search;
//! engine; replace; and binding, the N-API surface, which only the addon builds. Everything but
//! binding is plain Rust, tested with `cargo test --no-default-features`. The meaning model runs
//! in the workspace's other crate, `recall-model` (model/), below all of these.

#![deny(clippy::undocumented_unsafe_blocks)]

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
