//! Embedding at low priority: on threads of their own whose nice value is the lowest (19), so a
//! host's other threads (Pi's interface, a search on the pool) go first while the meaning index
//! is built; as many as the machine has cores left idle (`spare_cores`), one at least. On Linux a
//! thread's nice value is its own; elsewhere the call may lower the whole process or do nothing, so
//! there the work keeps the caller's priority (and runs on one thread: no load average to read).

use std::sync::atomic::{AtomicUsize, Ordering};

/// Threads the last embedding ran on: part of the load average it leaves behind.
static LAST_THREADS: AtomicUsize = AtomicUsize::new(0);

/// Runs `work` on each part, each on a new thread at the lowest priority, and waits for them all:
/// the results in the parts' order. A panic in `work` is the caller's panic.
pub fn each_at_low_priority<T: Send, R: Send>(
    parts: Vec<T>,
    work: impl Fn(T) -> R + Sync,
) -> Vec<R> {
    LAST_THREADS.store(parts.len(), Ordering::Relaxed);
    let work = &work;
    std::thread::scope(|scope| {
        let threads: Vec<_> = parts
            .into_iter()
            .map(|part| {
                scope.spawn(move || {
                    lower_priority();
                    work(part)
                })
            })
            .collect();
        threads
            .into_iter()
            .map(|thread| {
                thread
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    })
}

/// The cores nothing else is using: the machine's cores less its load over the last minute (less
/// what the last embedding added to it), rounded; one at least.
pub fn spare_cores() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let Some(load) = load_average() else {
        return 1;
    };
    let others = (load - LAST_THREADS.load(Ordering::Relaxed) as f64).max(0.0);
    ((cores as f64 - others).round() as usize).clamp(1, cores)
}

/// The load average over the last minute (runnable threads), where the system says it.
fn load_average() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    text.split_whitespace().next()?.parse().ok()
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
    fn each_part_runs_at_nice_19_in_order_and_the_caller_keeps_its_priority() {
        let before = getpriority_process(None).unwrap();
        let during =
            each_at_low_priority(vec![1, 2, 3], |n| (n, getpriority_process(None).unwrap()));
        assert_eq!(during, vec![(1, 19), (2, 19), (3, 19)]);
        assert_eq!(getpriority_process(None).unwrap(), before);
        let cores = std::thread::available_parallelism().unwrap().get();
        assert!((1..=cores).contains(&spare_cores()));
    }

    #[test]
    fn a_panic_in_the_work_is_the_callers() {
        let caught =
            std::panic::catch_unwind(|| each_at_low_priority(vec![()], |()| panic!("in the work")));
        assert!(caught.is_err());
    }
}
