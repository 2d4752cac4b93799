//! The N-API surface: every `#[napi]` item of the crate.

// napi-rs learns each type's JavaScript name as it expands the type, in the order of these
// declarations: index.rs names meaning.rs's types, so meaning.rs comes first.
mod meaning;

mod index;
mod tags;
mod version;
