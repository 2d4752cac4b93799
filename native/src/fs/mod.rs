//! What recall needs of the file system beyond `std`: whether a path still names what was opened,
//! and lock files.

pub mod identity;
pub mod lock_file;
