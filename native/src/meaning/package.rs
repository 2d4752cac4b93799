//! The files of a model package that the core reads, and the one line that says one of them
//! cannot be used (`RECALL_MODEL_UNUSABLE`).

use std::path::Path;

use crate::error::{Code, RecallError};

pub const MODEL_FILE: &str = "model.onnx";
pub const TOKENIZER_FILE: &str = "tokenizer.json";

/// A model file that cannot be used, as one line: missing, or damaged and why.
pub(crate) fn unusable(path: &Path, error: &dyn std::fmt::Display) -> RecallError {
    if !path.exists() {
        return RecallError::new(
            Code::ModelUnusable,
            format!("the meaning model's {} is missing", path.display()),
        );
    }
    let reason = error.to_string();
    let reason = reason.split_whitespace().collect::<Vec<_>>().join(" ");
    RecallError::new(
        Code::ModelUnusable,
        format!(
            "the meaning model's {} is damaged: {reason}",
            path.display()
        ),
    )
}
