//! A panic inside the search core (a damaged index file read, say) is caught and becomes an
//! error with its message (binding/job.rs, replace.rs), after which the index is checked and rebuilt.
//! Rust's default hook would also print each one to the user's terminal, with a backtrace note:
//! this hook prints them only when `RECALL_DEBUG` is set.
//!
//! One thread is special. Tantivy's segment updater runs its tasks (applying deletes to the
//! committed segments at a commit, ending a merge) on a rayon pool without a panic handler, and
//! rayon aborts the process when such a task panics: no `catch_unwind` of ours is on that stack.
//! So the hook never lets that thread unwind: it counts the panic, keeps its message, and stops
//! the thread for good. The writer's tasks then never finish, and whoever waits for one gives up
//! once the count has moved (`Engine`'s commit and unlock), leaving that writer behind.
//!
//! A thread stopped in the hook keeps holding the read side of the standard library's lock on the
//! hook, so from then on `panic::set_hook` and `take_hook` would wait forever. Nothing in recall
//! calls them after `quiet`; the Rust test harness does when it ends, which is why
//! tests/writer_panics.rs runs without it.

use std::panic;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, Once};

/// The name Tantivy gives its segment updater thread (tantivy/src/indexer/segment_updater.rs).
const SEGMENT_UPDATER_THREAD: &str = "segment_updater";

static UPDATER_PANICS: AtomicU64 = AtomicU64::new(0);
static LAST_UPDATER_PANIC: Mutex<String> = Mutex::new(String::new());

pub fn quiet() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if std::env::var_os("RECALL_DEBUG").is_some() {
                default(info);
            }
            if std::thread::current().name() == Some(SEGMENT_UPDATER_THREAD) {
                if let Ok(mut last) = LAST_UPDATER_PANIC.lock() {
                    *last = info.payload_as_str().unwrap_or("no message").to_owned();
                }
                UPDATER_PANICS.fetch_add(1, Ordering::SeqCst);
                loop {
                    std::thread::park();
                }
            }
        }));
    });
}

/// How many times a segment updater of this process has panicked (and stopped).
pub fn updater_panics() -> u64 {
    UPDATER_PANICS.load(Ordering::SeqCst)
}

/// The message of the last segment updater panic.
pub fn last_updater_panic() -> String {
    LAST_UPDATER_PANIC
        .lock()
        .map(|last| last.clone())
        .unwrap_or_default()
}

/// The message a panic was started with, if it had one.
pub fn message(payload: &(dyn std::any::Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("no message")
}
