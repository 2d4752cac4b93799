//! A panic inside the search core (a damaged index file read, say) is caught and becomes an
//! error with its message (binding.rs, replace.rs), after which the index is checked and rebuilt.
//! Rust's default hook would also print each one to the user's terminal, with a backtrace note:
//! this hook prints them only when `RECALL_DEBUG` is set.

use std::panic;
use std::sync::Once;

pub fn quiet() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if std::env::var_os("RECALL_DEBUG").is_some() {
                default(info);
            }
        }));
    });
}

/// The message a panic was started with, if it had one.
pub fn message(payload: &(dyn std::any::Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("no message")
}
