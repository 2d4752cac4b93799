//! Reading the index: a query, the candidates of each source, their fusion and ranking.

pub mod best_per_session;
pub mod bounded;
pub mod by_meaning;
pub mod by_words;
pub mod candidates;
pub mod coordination;
pub mod correction;
pub mod cosine_sums;
pub mod find;
pub mod fusion;
pub mod kept_lengths;
pub mod query;
pub mod related;
pub mod searchers;
pub mod session_floor;
pub mod sessions;
pub mod snippet;
pub mod statistics;
pub mod touched;
pub mod with_meaning;
