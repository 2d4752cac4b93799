//! What a text means, as recall's one definition of it: the point in the model's space where the
//! model puts the text (`DIMENSIONS` floats of length 1), so that texts meaning alike lie close
//! whatever their words, the way `words/tokenizer.rs` is the one definition of a word.
//!
//! The model is run by recall's model runtime, the crate `recall-model` (native/model/): it loads
//! the model package's folder, tokenizes and embeds, in floats or 8-bit integers (`Arithmetic`).
//! This room puts the model to use: the vector of each conversation message (unit.rs), kept in a
//! store of its own beside the word index (store.rs; a query's products with them, product.rs),
//! searched exactly through the word index (search/by_meaning.rs), built at the lowest priority on
//! the cores left idle (background.rs).

pub mod background;
pub mod product;
pub mod store;
pub mod unit;

pub use recall_model::{Arithmetic, Model, DIMENSIONS, MAX_TOKENS};
