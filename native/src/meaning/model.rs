//! The network: `model.onnx` loaded once into a tract plan, then run on one text at a time, on the
//! calling thread. A text's vector is the mean of the last hidden states of its tokens, made unit.

use std::path::Path;

use tract_onnx::prelude::*;

use crate::error::{Code, RecallError, Result};
use crate::meaning::tokens::Tokens;
use crate::meaning::vector::mean_normalized;

/// The floats of a vector.
pub const DIMENSIONS: usize = 384;
/// The files of a model package that the core reads.
pub const MODEL_FILE: &str = "model.onnx";
pub const TOKENIZER_FILE: &str = "tokenizer.json";

type Plan = std::sync::Arc<TypedRunnableModel>;

pub struct Model {
    plan: Plan,
    tokens: Tokens,
}

/// A model file that cannot be used, as one line: missing, or damaged and why.
pub(crate) fn unusable(path: &Path, error: &dyn std::fmt::Display) -> RecallError {
    if !path.exists() {
        return RecallError::new(Code::ModelUnusable, format!("the meaning model's {} is missing", path.display()));
    }
    let reason = error.to_string();
    let reason = reason.split_whitespace().collect::<Vec<_>>().join(" ");
    RecallError::new(Code::ModelUnusable, format!("the meaning model's {} is damaged: {reason}", path.display()))
}

impl Model {
    /// Loads the model of the package in `dir`, and checks that it embeds.
    pub fn load(dir: &Path) -> Result<Model> {
        let tokens = Tokens::load(&dir.join(TOKENIZER_FILE))?;
        let path = dir.join(MODEL_FILE);
        let plan = load_plan(&path).map_err(|error| unusable(&path, &error.root_cause()))?;
        let model = Model { plan, tokens };
        // A file that parses can still hold another network: it must give DIMENSIONS floats.
        model.embed("").map_err(|error| RecallError::new(Code::ModelUnusable, format!("the meaning model's {} is damaged: {}", path.display(), error.message)))?;
        Ok(model)
    }

    /// The vector of `text`: DIMENSIONS floats of length 1.
    pub fn embed(&self, text: &str) -> Result<Vec<f32>> {
        let ids = self.tokens.ids(text)?;
        let count = ids.len();
        let input = |values: Vec<i64>| Tensor::from_shape(&[1, count], &values).map(TValue::from);
        let inputs = tvec!(input(ids).map_err(internal)?, input(vec![1; count]).map_err(internal)?, input(vec![0; count]).map_err(internal)?);
        let outputs = self.plan.run(inputs).map_err(internal)?;
        let hidden = outputs[0].to_plain_array_view::<f32>().map_err(internal)?;
        if hidden.shape() != [1, count, DIMENSIONS] {
            return Err(RecallError::new(Code::Internal, format!("the model gave {:?} floats for {count} tokens, not {DIMENSIONS} each", hidden.shape())));
        }
        let rows = hidden.as_slice().ok_or_else(|| RecallError::new(Code::Internal, "the model's output is not contiguous"))?;
        Ok(mean_normalized(rows, DIMENSIONS))
    }
}

fn load_plan(path: &Path) -> TractResult<Plan> {
    tract_onnx::onnx().model_for_path(path)?.into_optimized()?.into_runnable()
}

fn internal(error: impl std::fmt::Display) -> RecallError {
    RecallError::new(Code::Internal, format!("the meaning model failed: {error}"))
}
