//! The word index on disk: what its documents hold, its parts and files, and the session files
//! it was built from.

pub mod changes;
pub mod directory;
pub mod files;
pub mod integrity;
pub mod listing;
pub mod part;
pub mod scan;
pub mod schema;
pub mod session;
pub mod text_kind;
