//! What a text means, as recall's one definition of it: the point in the model's space where the
//! model puts the text (`DIMENSIONS` floats of length 1), so that texts meaning alike lie close
//! whatever their words, the way `words/tokenizer.rs` is the one definition of a word.
//!
//! The model is all-MiniLM-L6-v2 (ONNX, float32) from recall's model package, read from a folder
//! (`model.onnx`, `tokenizer.json`) and run in this process by the core's own code (tokens.rs,
//! encoder.rs), on the calling thread: nothing is downloaded, and a text is embedded the same way
//! on every runtime. Its dense layers multiply in floats, or in 8-bit integers where the
//! processor has VNNI (int8.rs; `Arithmetic`), three to four times as fast. Invariants:
//! a text gives the same vector whenever it is embedded; only its first `MAX_TOKENS` tokens count;
//! a missing or damaged model file is one `RECALL_MODEL_UNUSABLE` line naming it. What loading
//! makes of the model files can be kept pre-packed in the cache (packed.rs) and mapped by later
//! loads.
//!
//! The meaning index puts the model to use: the vector of each conversation message (unit.rs),
//! kept in a store of its own beside the word index (store.rs), searched exactly through the word
//! index (search/by_meaning.rs).

mod arithmetic;
pub mod background;
mod encoder;
mod held;
mod int8;
pub mod model;
mod onnx;
mod package;
mod packed;
mod packing;
mod protobuf;
pub mod store;
pub mod tokens;
pub mod unit;
pub mod vector;
mod vocabulary;
mod weights;

pub use arithmetic::Arithmetic;
pub use model::{Model, DIMENSIONS};
pub use tokens::MAX_TOKENS;
