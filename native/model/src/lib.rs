//! recall's meaning model runtime: all-MiniLM-L6-v2 (ONNX, float32) from recall's model package,
//! read from a folder (`model.onnx`, `tokenizer.json`) and run in this process by its own code,
//! on the calling thread: nothing is downloaded, and a text is embedded the same way on every
//! runtime. A text's vector is `DIMENSIONS` floats of length 1, so that texts meaning alike lie
//! close whatever their words.
//!
//! Its modules, lowest layer first (each uses only the layers below; native/tests/layers.rs checks
//! it): the numbers as held in memory or mapped (held.rs), the ONNX file's protobuf (protobuf.rs),
//! the package's files (package.rs), pooling (vector.rs); packing.rs, int8.rs, onnx.rs;
//! vocabulary.rs, arithmetic.rs, weights.rs; the tokenizer (tokens.rs) and the network
//! (encoder.rs); the pre-packed model (packed.rs); the model as loaded (model.rs).
//!
//! The dense layers multiply in floats, or in 8-bit integers where the processor has VNNI (int8.rs;
//! `Arithmetic`), three to four times as fast. Invariants: a text gives the same vector whenever
//! it is embedded; only its first `MAX_TOKENS` tokens count; a missing or damaged model file is
//! one `Unusable` line naming it. What loading makes of the model files can be kept pre-packed
//! (packed.rs) and mapped by later loads.
//!
//! Its `unsafe` code (mapped files read in place, SIMD kernels) stays inside: each block says why
//! it is sound, and nothing unsafe is public.

#![deny(clippy::undocumented_unsafe_blocks)]

mod arithmetic;
mod encoder;
mod held;
mod int8;
mod model;
mod onnx;
mod package;
mod packed;
mod packing;
mod protobuf;
mod tokens;
mod vector;
mod vocabulary;
mod weights;

pub use arithmetic::Arithmetic;
pub use model::{Model, DIMENSIONS};
pub use package::{Result, Unusable};
pub use tokens::{Tokens, MAX_TOKENS};
