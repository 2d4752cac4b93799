//! The native core's version, for `recall --version` and for the check that the JavaScript and
//! the binary loaded with it come from the same release.

pub const CORE_VERSION: &str = env!("CARGO_PKG_VERSION");

#[cfg(feature = "node")]
#[napi_derive::napi]
pub fn core_version() -> String {
    CORE_VERSION.to_string()
}
