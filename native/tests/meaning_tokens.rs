//! recall's WordPiece (meaning/tokens.rs) gives the ids Hugging Face's tokenizers gives for the
//! model's tokenizer.json, text for text, over a broad fixture (accents, CJK, emoji, control and
//! white-space characters, punctuation of many scripts, added tokens written in the text, code,
//! long words, a text far over 256 tokens): test/fixtures/meaning/tokens.json, made by
//! scripts/meaning-reference.py --tokens. Needs the model package (scripts/model-package.sh);
//! without it the test says it is skipped and passes.

use std::path::{Path, PathBuf};

use recall_native::meaning::tokens::Tokens;

fn tokenizer_file() -> Option<PathBuf> {
    let dir = std::env::var_os("RECALL_MODEL_PACKAGE_DIR").map(PathBuf::from).unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../.cache/model-minilm"));
    let file = dir.join("tokenizer.json");
    if file.exists() {
        return Some(file);
    }
    eprintln!("skipped: the model package recall-pi-model-minilm is not at {} (run scripts/model-package.sh)", dir.display());
    None
}

#[test]
fn ids_equal_hugging_face_tokenizers() {
    let Some(file) = tokenizer_file() else { return };
    let tokens = Tokens::load(&file).unwrap();
    let fixture: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../test/fixtures/meaning/tokens.json")).unwrap()).unwrap();
    let texts = fixture["texts"].as_array().unwrap();
    assert!(texts.len() >= 38);
    let mut differing = Vec::new();
    for case in texts {
        let text = case["text"].as_str().unwrap();
        let expected: Vec<u32> = case["ids"].as_array().unwrap().iter().map(|id| id.as_u64().unwrap() as u32).collect();
        let ids = tokens.ids(text);
        if ids != expected {
            let at = ids.iter().zip(&expected).position(|(a, b)| a != b).unwrap_or(ids.len().min(expected.len()));
            differing.push(format!(
                "{:?}: from token {at}: {:?} instead of {:?}",
                text.chars().take(60).collect::<String>(),
                &ids[at..(at + 8).min(ids.len())],
                &expected[at..(at + 8).min(expected.len())]
            ));
        }
    }
    assert!(differing.is_empty(), "{} of {} texts differ:\n{}", differing.len(), texts.len(), differing.join("\n"));
}
