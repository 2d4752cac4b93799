//! The network: the BERT encoder of `model.onnx` (weights.rs, run by encoder.rs) on the calling
//! thread, on one text or on many together (the same vectors either way). A text's vector is the
//! mean of the last hidden states of its tokens, made unit.

use std::path::Path;

use crate::arithmetic::Arithmetic;
use crate::onnx::Graph;
use crate::package::{
    read_model_file, unusable, Result, MODEL_FILE, MODEL_FILE_LIMIT, TOKENIZER_FILE,
};
use crate::packed;
use crate::tokens::{Tokens, MAX_TOKENS};
use crate::vector::mean_normalized;
use crate::weights::Bert;

/// The floats of a vector.
pub const DIMENSIONS: usize = 384;
/// Tokens that go through the network together (a batch ends at the text that reaches it, so a
/// batch is one or two long texts or many short ones): enough rows that the integer product reads
/// each layer's weights once for hundreds of rows, few enough that a layer's activations stay
/// near the core (512 rows × 1,536 floats: 3 MB). With 2,048, every pass over them went out to
/// the shared cache, and a build embedded 13–15 % fewer texts a second.
pub const BATCH_TOKENS: usize = 512;

pub struct Model {
    bert: Bert,
    tokens: Tokens,
    arithmetic: Arithmetic,
}

impl Model {
    /// Loads the model of the package in `dir`, and checks that its parts fit together.
    pub fn load(dir: &Path, arithmetic: Arithmetic) -> Result<Model> {
        let tokens = Tokens::load(&dir.join(TOKENIZER_FILE))?;
        let path = dir.join(MODEL_FILE);
        let file = read_model_file(&path, MODEL_FILE_LIMIT)?;
        let mut bert = Graph::read(&file)
            .and_then(Bert::from_graph)
            .and_then(|bert| fits(&bert, &tokens).map(|()| bert))
            .map_err(|reason| unusable(&path, &reason))?;
        if arithmetic == Arithmetic::Int8 {
            bert.quantize();
        }
        Ok(Model {
            bert,
            tokens,
            arithmetic,
        })
    }

    /// `load`, through the pre-packed model at `packed` (packed.rs): read in place when it is
    /// whole and made from these model files, else made again from them (as `load` reads them)
    /// and written there for the next load; a cache that cannot be written only costs the time.
    pub fn load_packed(dir: &Path, arithmetic: Arithmetic, packed: &Path) -> Result<Model> {
        if let Some((tokens, bert)) = packed::load(packed, dir, arithmetic) {
            if fits(&bert, &tokens).is_ok() {
                return Ok(Model {
                    bert,
                    tokens,
                    arithmetic,
                });
            }
        }
        let model = Model::load(dir, arithmetic)?;
        let _ = packed::write(packed, dir, arithmetic, &model.tokens, &model.bert);
        Ok(model)
    }

    pub fn arithmetic(&self) -> Arithmetic {
        self.arithmetic
    }

    /// The vector of `text`: DIMENSIONS floats of length 1.
    pub fn embed(&self, text: &str) -> Vec<f32> {
        let ids = self.tokens.ids(text);
        mean_normalized(&self.bert.forward(&[&ids]), DIMENSIONS)
    }

    /// The vector of each text, as `embed` gives it: the texts go through the network together,
    /// up to BATCH_TOKENS tokens at a time (see encoder.rs).
    pub fn embed_all<S: AsRef<str>>(&self, texts: &[S]) -> Vec<Vec<f32>> {
        let ids: Vec<Vec<u32>> = texts
            .iter()
            .map(|text| self.tokens.ids(text.as_ref()))
            .collect();
        let mut vectors = Vec::with_capacity(texts.len());
        let mut batch: Vec<&[u32]> = Vec::new();
        let mut tokens = 0;
        for (n, text) in ids.iter().enumerate() {
            batch.push(text);
            tokens += text.len();
            if tokens >= BATCH_TOKENS || n + 1 == ids.len() {
                let hidden = self.bert.forward(&batch);
                let mut first = 0;
                for text in &batch {
                    vectors.push(mean_normalized(
                        &hidden[first * DIMENSIONS..(first + text.len()) * DIMENSIONS],
                        DIMENSIONS,
                    ));
                    first += text.len();
                }
                batch.clear();
                tokens = 0;
            }
        }
        vectors
    }
}

/// Whether the network gives DIMENSIONS floats a token, and has an embedding for every token id
/// and position the tokenizer gives.
fn fits(bert: &Bert, tokens: &Tokens) -> std::result::Result<(), String> {
    if bert.hidden != DIMENSIONS {
        return Err(format!(
            "it gives {} floats a token, not {DIMENSIONS}",
            bert.hidden
        ));
    }
    let (words, positions) = (
        bert.words.len() / bert.hidden,
        bert.positions.len() / bert.hidden,
    );
    if tokens.largest_id() as usize >= words {
        return Err(format!(
            "it has {words} token embeddings, fewer than the tokenizer's vocabulary"
        ));
    }
    if positions < MAX_TOKENS {
        return Err(format!(
            "it reads {positions} tokens at most, fewer than {MAX_TOKENS}"
        ));
    }
    Ok(())
}
