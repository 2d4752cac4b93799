//! The two classes that take each other as arguments (`MeaningIndex.embed(index)`,
//! `NativeIndex.search(…, meaning)`): what each holds, so that their methods (index.rs,
//! meaning.rs) need only this file of each other's.

use std::sync::{Arc, Mutex};

use napi_derive::napi;

use crate::binding::job::locked;
use crate::engine::Engine;
use crate::error::RecallError;
use crate::meaning::store::{Store, StoreWriter};
use crate::search::by_meaning::{Coverage, UnitCache};

/// The index of Pi sessions in one folder.
#[napi]
pub struct NativeIndex {
    pub(crate) engine: Arc<Engine>,
    pub(crate) replaced_because: Option<String>,
}

impl NativeIndex {
    pub(crate) fn of(
        (engine, replaced_because): (Engine, Option<String>),
    ) -> Result<NativeIndex, RecallError> {
        Ok(NativeIndex {
            engine: Arc::new(engine),
            replaced_because,
        })
    }
}

/// The meaning index of one cache folder (search/by_meaning.rs, meaning/store.rs): the latest
/// snapshot of the store of vectors in `dir`, which a search reads and a refresh on the thread pool
/// replaces (the mutex is held only to take or put a snapshot, never while reading the file or
/// searching); `embed` takes the store's writer lock on first use and holds it until `release`.
#[napi]
pub struct MeaningIndex {
    pub(crate) current: Arc<Mutex<Store>>,
    pub(crate) writer: Arc<Mutex<Option<StoreWriter>>>,
    pub(crate) units: Arc<UnitCache>,
}

/// The latest snapshot of a meaning index, brought up to date with what writers appended: on the
/// thread pool, which only ever waits for another refresh to put its snapshot back.
pub(crate) fn refreshed(current: &Mutex<Store>) -> Result<Store, RecallError> {
    let mut store = locked(current).clone();
    store.refresh()?;
    publish(current, &store);
    Ok(store)
}

/// Makes `store` the snapshot later searches read.
pub(crate) fn publish(current: &Mutex<Store>, store: &Store) {
    *locked(current) = store.clone();
}

#[napi(object, js_name = "NativeMeaningCoverage")]
pub struct JsMeaningCoverage {
    /// Conversation messages whose vector the meaning index holds.
    pub embedded: f64,
    /// Conversation messages in the index.
    pub messages: f64,
}

impl From<Coverage> for JsMeaningCoverage {
    fn from(c: Coverage) -> Self {
        JsMeaningCoverage {
            embedded: c.embedded as f64,
            messages: c.messages as f64,
        }
    }
}
