//! The model's tokens of a text: its own WordPiece tokenizer (`tokenizer.json`: lower case,
//! accents stripped, `[CLS]` … `[SEP]`), one text at a time, unpadded, cut to `MAX_TOKENS`.

use std::path::Path;

use tokenizers::{Tokenizer, TruncationParams};

use crate::error::Result;
use crate::meaning::model::unusable;

/// The tokens a text is read to, `[CLS]` and `[SEP]` included (sentence-transformers' limit for
/// this model; its position table holds 512). The rest of a longer text is not read.
pub const MAX_TOKENS: usize = 256;

pub struct Tokens {
    tokenizer: Tokenizer,
}

impl Tokens {
    pub fn load(path: &Path) -> Result<Tokens> {
        let mut tokenizer = Tokenizer::from_file(path).map_err(|error| unusable(path, &*error))?;
        // The file pads every text to 128 tokens and cuts it there, for batches of one length.
        tokenizer.with_padding(None);
        tokenizer
            .with_truncation(Some(TruncationParams { max_length: MAX_TOKENS, ..TruncationParams::default() }))
            .map_err(|error| unusable(path, &*error))?;
        Ok(Tokens { tokenizer })
    }

    /// The token ids of `text`, as the model's inputs take them.
    pub fn ids(&self, text: &str) -> Result<Vec<i64>> {
        let encoding = self.tokenizer.encode(text, true).map_err(|error| crate::error::RecallError::new(crate::error::Code::Internal, format!("cannot tokenize a text: {error}")))?;
        Ok(encoding.get_ids().iter().map(|&id| i64::from(id)).collect())
    }
}
