//! The N-API surface of the meaning model: one `MeaningModel` class. Loading and embedding run on
//! the libuv thread pool, so neither ever holds the JavaScript thread.

use std::path::PathBuf;
use std::sync::Arc;

use napi::bindgen_prelude::{AsyncTask, Float32Array};
use napi_derive::napi;

use crate::binding::{job, Job};
use crate::meaning::{Model, DIMENSIONS, MAX_TOKENS};
use crate::panics;

/// A loaded meaning model (meaning/model.rs).
#[napi]
pub struct MeaningModel {
    model: Arc<Model>,
}

#[napi]
impl MeaningModel {
    /// Loads the model package in `dir` (`model.onnx`, `tokenizer.json`); a missing or damaged
    /// file is a `RECALL_MODEL_UNUSABLE` error naming it.
    #[napi(ts_return_type = "Promise<MeaningModel>")]
    pub fn load(dir: String) -> AsyncTask<Job<MeaningModel>> {
        panics::quiet();
        AsyncTask::new(job(move || Ok(MeaningModel { model: Arc::new(Model::load(&PathBuf::from(dir))?) })))
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
    /// at i × `dimensions`. One text at a time, on one thread of the pool.
    #[napi(ts_return_type = "Promise<Float32Array>")]
    pub fn embed(&self, texts: Vec<String>) -> AsyncTask<Job<Float32Array>> {
        let model = Arc::clone(&self.model);
        AsyncTask::new(job(move || {
            let mut vectors = Vec::with_capacity(texts.len() * DIMENSIONS);
            for text in &texts {
                vectors.extend(model.embed(text)?);
            }
            Ok(Float32Array::new(vectors))
        }))
    }
}
