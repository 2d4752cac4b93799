//! The files of a model package that the runtime reads, how it reads them (regular files only, up
//! to a size no file of a model of this shape reaches), and the one line that says one of them
//! cannot be used (`Unusable`).

use std::fs::OpenOptions;
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// A model file that cannot be used: missing, or damaged and why, as one line naming it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unusable {
    pub message: String,
}

impl std::fmt::Display for Unusable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Unusable {}

pub type Result<T> = std::result::Result<T, Unusable>;

pub const MODEL_FILE: &str = "model.onnx";
pub const TOKENIZER_FILE: &str = "tokenizer.json";

/// The most bytes a model file may hold: all-MiniLM-L6-v2's `model.onnx` is 90 MB and its
/// `tokenizer.json` 0.7 MB; a model of this shape (384 floats a token, six layers) is never four
/// times as large, and a file that is (or never ends: a device) is not read into memory.
pub const MODEL_FILE_LIMIT: u64 = 400 << 20;
pub const TOKENIZER_FILE_LIMIT: u64 = 16 << 20;

/// The bytes of a model file: a regular file (a FIFO, a device or a folder is refused without
/// being opened for reading, so `/dev/zero` or a pipe never hangs the load) of at most `limit` bytes.
pub(crate) fn read_model_file(path: &Path, limit: u64) -> Result<Vec<u8>> {
    let meta = std::fs::metadata(path).map_err(|error| unusable(path, &error))?;
    if !meta.is_file() {
        return Err(unusable(path, &"it is not a regular file"));
    }
    let too_large = |size: u64| {
        unusable(
            path,
            &format!("it holds {size} bytes, more than a model file of this shape ({limit})"),
        )
    };
    if meta.len() > limit {
        return Err(too_large(meta.len()));
    }
    // Non-blocking: a FIFO put in its place since the look above does not wait for a writer.
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
        .open(path)
        .map_err(|error| unusable(path, &error))?;
    let meta = file.metadata().map_err(|error| unusable(path, &error))?;
    if !meta.is_file() {
        return Err(unusable(path, &"it is not a regular file"));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|error| unusable(path, &error))?;
    if bytes.len() as u64 > limit {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

/// A model file that cannot be used, as one line: missing, or damaged and why.
pub(crate) fn unusable(path: &Path, error: &dyn std::fmt::Display) -> Unusable {
    if !path.exists() {
        return Unusable {
            message: format!("the meaning model's {} is missing", path.display()),
        };
    }
    let reason = error.to_string();
    let reason = reason.split_whitespace().collect::<Vec<_>>().join(" ");
    Unusable {
        message: format!(
            "the meaning model's {} is damaged: {reason}",
            path.display()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_are_read_and_never_past_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        rustix::fs::mkfifoat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
        )
        .unwrap();
        let refused = |path: &Path, limit| read_model_file(path, limit).unwrap_err().message;
        assert!(refused(&fifo, 10).ends_with("is damaged: it is not a regular file"));
        assert!(refused(Path::new("/dev/zero"), 10).ends_with("it is not a regular file"));
        assert!(refused(dir.path(), 10).ends_with("it is not a regular file"));
        let file = dir.path().join("model");
        std::fs::write(&file, b"0123456789ab").unwrap();
        assert!(refused(&file, 10).contains("it holds 12 bytes"));
        assert_eq!(read_model_file(&file, 12).unwrap(), b"0123456789ab");
        assert!(refused(&dir.path().join("gone"), 10).ends_with("is missing"));
    }
}
