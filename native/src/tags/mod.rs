//! The tag database: storage here, meaning in src/tags/ (see store.rs).

pub mod shared;
pub mod store;

// napi-rs registers the N-API items only outside `cargo test`, where they look unused.
#[cfg(feature = "node")]
#[cfg_attr(test, allow(dead_code))]
mod binding;
