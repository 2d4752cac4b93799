//! The tag database: storage here, meaning in src/tags/ (see store.rs).

pub mod shared;
pub mod store;
