//! The thread pool's work for the N-API classes: a job runs on the libuv thread pool (an
//! `AsyncTask`), so JavaScript never waits on the index; a panic inside it is an error, and an
//! error reaches JavaScript as an `Error` whose message starts with its `RECALL_*` code.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Mutex, MutexGuard};

use napi::bindgen_prelude::{ToNapiValue, TypeName};
use napi::{Env, Task};

use crate::error::RecallError;
use crate::panics;

pub(crate) fn to_napi(error: RecallError) -> napi::Error {
    napi::Error::from_reason(error.to_string())
}

/// A unit of work for the thread pool. A panic inside it becomes an `RECALL_INTERNAL` error
/// instead of taking the host process down.
pub struct Job<T: Send + 'static> {
    work: Option<Box<dyn FnOnce() -> Result<T, RecallError> + Send>>,
}

pub(crate) fn job<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, RecallError> + Send + 'static,
) -> Job<T> {
    Job {
        work: Some(Box::new(work)),
    }
}

impl<T: ToNapiValue + TypeName + Send + 'static> Task for Job<T> {
    type Output = T;
    type JsValue = T;

    fn compute(&mut self) -> napi::Result<T> {
        let work = self
            .work
            .take()
            .ok_or_else(|| napi::Error::from_reason("RECALL_INTERNAL: task ran twice"))?;
        match catch_unwind(AssertUnwindSafe(work)) {
            Ok(result) => result.map_err(to_napi),
            Err(panic) => Err(napi::Error::from_reason(format!(
                "RECALL_INTERNAL: the search core panicked ({})",
                panics::message(&*panic)
            ))),
        }
    }

    fn resolve(&mut self, _env: Env, output: T) -> napi::Result<T> {
        Ok(output)
    }
}

/// A mutex's value, also after a job panicked while holding it.
pub(crate) fn locked<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
