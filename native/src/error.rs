//! A small set of stable error codes. They cross the N-API boundary as the first word of the
//! message (`RECALL_LOCKED: …`), because async tasks cannot carry a custom status; the TypeScript
//! facade turns them back into typed errors.

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Code {
    /// Another process holds the index writer.
    Locked,
    /// The index was written by another schema version.
    Incompatible,
    /// The index files cannot be read.
    Corrupt,
    /// A write was attempted without holding the writer.
    NotLocked,
    /// Bad input from the caller (a malformed change set).
    BadInput,
    /// A file of the meaning model is missing or damaged (recall-model's `Unusable`).
    ModelUnusable,
    Io,
    Internal,
}

impl Code {
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Locked => "RECALL_LOCKED",
            Code::Incompatible => "RECALL_INCOMPATIBLE",
            Code::Corrupt => "RECALL_CORRUPT",
            Code::NotLocked => "RECALL_NOT_LOCKED",
            Code::BadInput => "RECALL_BAD_INPUT",
            Code::ModelUnusable => "RECALL_MODEL_UNUSABLE",
            Code::Io => "RECALL_IO",
            Code::Internal => "RECALL_INTERNAL",
        }
    }
}

#[derive(Debug)]
pub struct RecallError {
    pub code: Code,
    pub message: String,
}

impl RecallError {
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        RecallError {
            code,
            message: message.into(),
        }
    }
}

impl fmt::Display for RecallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

impl std::error::Error for RecallError {}

impl From<tantivy::TantivyError> for RecallError {
    fn from(error: tantivy::TantivyError) -> Self {
        use tantivy::TantivyError as T;
        let code = match &error {
            T::LockFailure(tantivy::directory::error::LockError::LockBusy, _) => Code::Locked,
            // The lock file cannot be made: a read-only file system, a folder without write access.
            T::LockFailure(tantivy::directory::error::LockError::IoError(io), _) => {
                return RecallError::new(Code::Io, format!("cannot write to the index: {io}"));
            }
            // Every fast field recall reads is one its schema declares: a segment without it has
            // a damaged fast-field file (its table of columns), not another schema.
            T::SchemaError(message) if message.contains("is not configured as a fast field") => {
                Code::Corrupt
            }
            T::SchemaError(_) | T::IncompatibleIndex(_) => Code::Incompatible,
            T::DataCorruption(_)
            | T::OpenReadError(_)
            | T::OpenDirectoryError(_)
            | T::DeserializeError(_) => Code::Corrupt,
            // Bytes that do not decode (a stored block, a file cut short) are damage, not a disk
            // that refuses a write.
            T::IoError(io)
                if matches!(
                    io.kind(),
                    std::io::ErrorKind::InvalidData | std::io::ErrorKind::UnexpectedEof
                ) =>
            {
                Code::Corrupt
            }
            T::IoError(_) | T::OpenWriteError(_) => Code::Io,
            _ => Code::Internal,
        };
        RecallError::new(code, error.to_string())
    }
}

impl From<recall_model::Unusable> for RecallError {
    fn from(error: recall_model::Unusable) -> Self {
        RecallError::new(Code::ModelUnusable, error.message)
    }
}

impl From<serde_json::Error> for RecallError {
    fn from(error: serde_json::Error) -> Self {
        RecallError::new(Code::BadInput, error.to_string())
    }
}

pub type Result<T> = std::result::Result<T, RecallError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fast_field_the_schema_declares_missing_from_a_segment_is_damage() {
        // What Tantivy says when a damaged fast-field file lost its table of columns.
        let missing = tantivy::TantivyError::SchemaError(
            "Field `path_key` is missing or is not configured as a fast field.".to_string(),
        );
        assert_eq!(RecallError::from(missing).code, Code::Corrupt);
        let other = tantivy::TantivyError::SchemaError("an index of another schema".to_string());
        assert_eq!(RecallError::from(other).code, Code::Incompatible);
    }

    #[test]
    fn a_model_that_cannot_be_used_is_recall_model_unusable() {
        let dir = tempfile::tempdir().unwrap();
        let error = recall_model::Model::load(dir.path(), recall_model::Arithmetic::Float32)
            .map(|_| ())
            .map_err(RecallError::from)
            .unwrap_err();
        assert_eq!(error.code, Code::ModelUnusable);
        assert_eq!(
            error.to_string(),
            format!(
                "RECALL_MODEL_UNUSABLE: the meaning model's {} is missing",
                dir.path().join("tokenizer.json").display()
            )
        );
    }
}
