//! The N-API surface of the meaning model and index: `MeaningModel` and `MeaningIndex`. Loading and embedding run on
//! the libuv thread pool, so neither ever holds the JavaScript thread.

use std::path::Path;
use std::sync::{Arc, Mutex};

use napi::bindgen_prelude::{AsyncTask, Float32Array};
use napi_derive::napi;

use crate::binding::handles::{publish, refreshed, JsMeaningCoverage, MeaningIndex, NativeIndex};
use crate::binding::job::{job, locked, to_napi, Job};
use crate::error::{Code, RecallError};
use crate::meaning::background::{each_at_low_priority, spare_cores};
use crate::meaning::store::Store;
use crate::meaning::{Arithmetic, Model, DIMENSIONS, MAX_TOKENS};
use crate::panics;
use crate::search::by_meaning::{live_keys, pending, Pending};

/// A loaded meaning model (recall-model's model.rs).
#[napi]
pub struct MeaningModel {
    pub(crate) model: Arc<Model>,
}

#[napi]
impl MeaningModel {
    /// Loads the model package in `dir` (`model.onnx`, `tokenizer.json`); a missing or damaged
    /// file is a `RECALL_MODEL_UNUSABLE` error naming it. `arithmetic` (`float32` or `int8`,
    /// default the fastest this processor has: `meaningArithmetic()`) is how it multiplies.
    /// `packed` (a file of the cache folder): the model pre-packed there by an earlier load, read
    /// in place when whole and made from these files, else written there (recall-model's packed.rs).
    #[napi(ts_return_type = "Promise<MeaningModel>")]
    pub fn load(
        dir: String,
        arithmetic: Option<String>,
        packed: Option<String>,
    ) -> napi::Result<AsyncTask<Job<MeaningModel>>> {
        panics::quiet();
        let arithmetic = match arithmetic {
            Some(name) => Arithmetic::named(&name)
                .map_err(|reason| to_napi(RecallError::new(Code::BadInput, reason)))?,
            None => Arithmetic::fastest(),
        };
        Ok(AsyncTask::new(job(move || {
            Ok(MeaningModel {
                model: Arc::new(match packed {
                    Some(packed) => {
                        Model::load_packed(Path::new(&dir), arithmetic, Path::new(&packed))?
                    }
                    None => Model::load(Path::new(&dir), arithmetic)?,
                }),
            })
        })))
    }

    /// How the model multiplies: `float32` or `int8`.
    #[napi(getter)]
    pub fn arithmetic(&self) -> &'static str {
        self.model.arithmetic().name()
    }

    /// The floats of a vector.
    #[napi(getter)]
    pub fn dimensions(&self) -> u32 {
        DIMENSIONS as u32
    }

    /// The tokens of a text the model reads; the rest of a longer text is not read.
    #[napi(getter)]
    pub fn max_tokens(&self) -> u32 {
        MAX_TOKENS as u32
    }

    /// The vectors of `texts`, one after another: text i's `dimensions` floats (length 1) start
    /// at i × `dimensions`. On one thread of the pool.
    #[napi(ts_return_type = "Promise<Float32Array>")]
    pub fn embed(&self, texts: Vec<String>) -> AsyncTask<Job<Float32Array>> {
        let model = Arc::clone(&self.model);
        AsyncTask::new(job(move || {
            Ok(Float32Array::new(model.embed_all(&texts).concat()))
        }))
    }
}

/// The arithmetic a model loads with by default on this processor (MeaningModel.load): `int8`
/// where it has VNNI (AVX-VNNI or AVX-512 VNNI), else `float32`. Vectors of one are not read as the other's.
#[napi]
pub fn meaning_arithmetic() -> &'static str {
    Arithmetic::fastest().name()
}

#[napi(object, js_name = "NativeMeaningStep")]
pub struct JsMeaningStep {
    /// Texts embedded by this step (0: nothing was left to embed).
    pub added: u32,
    /// The coverage after it.
    pub coverage: JsMeaningCoverage,
}

#[napi]
impl MeaningIndex {
    /// The store in `dir` of the model named `identity` (another model's vectors are not read).
    #[napi(ts_return_type = "Promise<MeaningIndex>")]
    pub fn open(dir: String, identity: String) -> AsyncTask<Job<MeaningIndex>> {
        AsyncTask::new(job(move || {
            Ok(MeaningIndex {
                current: Arc::new(Mutex::new(Store::open(Path::new(&dir), &identity)?)),
                writer: Arc::new(Mutex::new(None)),
                units: Arc::default(),
            })
        }))
    }

    /// Embeds up to `batch` of the index's messages whose vectors the store lacks, newest first,
    /// with `model` at the lowest priority (meaning/background.rs: on each core the machine leaves
    /// idle, one at least), and appends them to the store (synced to disk). RECALL_LOCKED, naming
    /// the process, when another process is embedding; RECALL_IO when the store's folder was
    /// deleted since this one began.
    #[napi(ts_return_type = "Promise<NativeMeaningStep>")]
    pub fn embed(
        &self,
        index: &NativeIndex,
        model: &MeaningModel,
        batch: u32,
    ) -> AsyncTask<Job<JsMeaningStep>> {
        let (current, writer, engine, model) = (
            self.current.clone(),
            self.writer.clone(),
            index.engine.clone(),
            model.model.clone(),
        );
        AsyncTask::new(job(move || {
            let mut writer = locked(&writer);
            if writer.is_none() {
                let mut store = locked(&current).clone();
                *writer = Some(store.writer()?);
                publish(&current, &store);
            }
            let searcher = engine.searcher();
            // No lock is held while the model runs: searches read their snapshots meanwhile.
            let mut store = refreshed(&current)?;
            let Pending {
                texts,
                mut coverage,
                covered_by_texts,
            } = pending(&searcher, engine.fields(), &store, batch as usize)?;
            let vectors = embed_at_low_priority(&model, &texts);
            if let Some(writer) = writer.as_mut() {
                store.append(writer, &vectors)?;
                publish(&current, &store);
                coverage.embedded += covered_by_texts;
            }
            Ok(JsMeaningStep {
                added: texts.len() as u32,
                coverage: coverage.into(),
            })
        }))
    }

    /// Drops the vectors no message of the index refers to any more, once they are at least a
    /// quarter of the store: the count dropped. Needs the writer (after `embed`).
    #[napi(ts_return_type = "Promise<number>")]
    pub fn compact(&self, index: &NativeIndex) -> AsyncTask<Job<u32>> {
        let (current, writer, engine) = (
            self.current.clone(),
            self.writer.clone(),
            index.engine.clone(),
        );
        AsyncTask::new(job(move || {
            let mut writer = locked(&writer);
            let Some(writer) = writer.as_mut() else {
                return Err(RecallError::new(
                    Code::NotLocked,
                    "the meaning index is compacted by its writer",
                ));
            };
            let live = live_keys(&engine.searcher(), engine.fields())?;
            let mut store = refreshed(&current)?;
            let dropped = store.unreferenced(&live);
            if dropped == 0 || dropped * 4 < store.len() {
                return Ok(0);
            }
            store.compact(writer, &live)?;
            publish(&current, &store);
            Ok(dropped as u32)
        }))
    }

    /// How many of the index's messages the store covers.
    #[napi(ts_return_type = "Promise<NativeMeaningCoverage>")]
    pub fn coverage(&self, index: &NativeIndex) -> AsyncTask<Job<JsMeaningCoverage>> {
        let (current, engine) = (self.current.clone(), index.engine.clone());
        AsyncTask::new(job(move || {
            let store = refreshed(&current)?;
            Ok(pending(&engine.searcher(), engine.fields(), &store, 0)?
                .coverage
                .into())
        }))
    }

    /// Lets another process embed.
    #[napi]
    pub fn release(&self) {
        *locked(&self.writer) = None;
    }
}

/// The vectors of `texts` (key, text), split among the cores the machine leaves idle, each
/// part on a thread at the lowest priority.
fn embed_at_low_priority(model: &Model, texts: &[(u64, String)]) -> Vec<(u64, Vec<f32>)> {
    if texts.is_empty() {
        return Vec::new();
    }
    let threads = spare_cores().min(texts.len());
    let parts: Vec<&[(u64, String)]> = texts.chunks(texts.len().div_ceil(threads)).collect();
    each_at_low_priority(parts, |part| {
        let strings: Vec<&str> = part.iter().map(|(_, text)| text.as_str()).collect();
        part.iter()
            .map(|(key, _)| *key)
            .zip(model.embed_all(&strings))
            .collect::<Vec<_>>()
    })
    .into_iter()
    .flatten()
    .collect()
}
