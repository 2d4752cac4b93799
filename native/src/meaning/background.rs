//! Embedding at low priority: on a thread of its own whose nice value is the lowest (19), so a
//! host's other threads (Pi's interface, a search on the pool) go first while the meaning index
//! is built. On Linux a thread's nice value is its own; elsewhere the call may lower the whole
//! process or do nothing, so there the work keeps the caller's priority.

/// Runs `work` on a new thread at the lowest priority, and waits for it. A panic in `work` is
/// the caller's panic.
pub fn at_low_priority<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        let thread = scope.spawn(|| {
            lower_priority();
            work()
        });
        thread
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

#[cfg(target_os = "linux")]
fn lower_priority() {
    // Lowering one's own priority needs no privilege; a refusal (a sandbox) leaves it as it was.
    let _ = rustix::process::setpriority_process(None, 19);
}

#[cfg(not(target_os = "linux"))]
fn lower_priority() {}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use rustix::process::getpriority_process;

    #[test]
    fn the_work_runs_at_nice_19_and_the_caller_keeps_its_priority() {
        let before = getpriority_process(None).unwrap();
        let during = at_low_priority(|| getpriority_process(None).unwrap());
        assert_eq!(during, 19);
        assert_eq!(getpriority_process(None).unwrap(), before);
    }

    #[test]
    fn a_panic_in_the_work_is_the_callers() {
        let caught = std::panic::catch_unwind(|| at_low_priority(|| panic!("in the work")));
        assert!(caught.is_err());
    }
}
