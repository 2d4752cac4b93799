//! The N-API surface: every `#[napi]` item of the crate, over the domain modules, which know
//! nothing of N-API.

// napi-rs must expand a class's struct before its methods, and learns each type's JavaScript
// name as it expands the type, in the order of these declarations: handles.rs comes first.
mod handles;
mod index;
mod job;
mod meaning;
mod tags;
mod version;
