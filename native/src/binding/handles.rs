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

/// The meaning index of one cache folder (search/by_meaning.rs, meaning/store.rs): the store of
/// vectors in `dir`, read as searches need it; `embed` takes the store's writer lock on first use
/// and holds it until `release`.
#[napi]
pub struct MeaningIndex {
    pub(crate) store: Arc<Mutex<Store>>,
    pub(crate) writer: Arc<Mutex<Option<StoreWriter>>>,
    pub(crate) units: Arc<UnitCache>,
}

impl MeaningIndex {
    /// The store, brought up to date with what writers appended, for a search to read.
    pub(crate) fn store(&self) -> Result<Arc<Mutex<Store>>, RecallError> {
        locked(&self.store).refresh()?;
        Ok(self.store.clone())
    }
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
