//! The tag database: storage here, meaning in src/tags/ (see store.rs).

pub mod store;

#[cfg(feature = "node")]
mod binding;
