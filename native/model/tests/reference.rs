//! The model as the runtime runs it: the vectors of known texts equal those of the model's own
//! toolchain (onnxruntime and Hugging Face tokenizers, scripts/meaning-reference.py) within 1e-4,
//! and a missing or damaged model file is one clear line. Its WordPiece gives the ids Hugging
//! Face's tokenizers gives, text for text, over a broad fixture (accents, CJK, emoji, control and
//! white-space characters, punctuation of many scripts, added tokens written in the text, code,
//! long words, texts far over 256 tokens: test/fixtures/meaning/tokens.json, made by
//! scripts/meaning-reference.py --tokens).
//!
//! They need the model package (scripts/model-package.sh). Without it they say on stderr that they
//! are skipped, naming the package, and pass — unless the package must be there: where
//! `RECALL_REQUIRE_MODEL=1` (.ci/run sets it after assembling the package) or `CI` is set (as CI
//! services set it), a missing package fails every test.

use std::io::Write;
use std::path::{Path, PathBuf};

use recall_model::{Arithmetic, Model, Tokens, DIMENSIONS};

/// The repository's root, where the model package and the fixtures are.
fn repository() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// The assembled model package, where scripts/model-package.sh puts it; `None` (said on stderr)
/// when it is not there and need not be; a panic when it must be.
fn package() -> Option<PathBuf> {
    let dir = std::env::var_os("RECALL_MODEL_PACKAGE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repository().join(".cache/model-minilm"));
    if dir.join("model.onnx").exists() {
        return Some(dir);
    }
    let missing = format!(
        "the model package recall-pi-model-minilm is not at {} (run scripts/model-package.sh)",
        dir.display()
    );
    if let Some(why) = required() {
        panic!("{missing}, and {why} says it must be");
    }
    // Once, and past the test harness's capture of `eprintln!`, so that it shows when tests pass.
    static SAID: std::sync::Once = std::sync::Once::new();
    SAID.call_once(|| {
        let _ = writeln!(
            std::io::stderr(),
            "recall-model reference tests skipped: {missing}"
        );
    });
    None
}

/// What says the model package must be there, if anything does: `RECALL_REQUIRE_MODEL=1`, or a
/// `CI` variable other than empty, `0` or `false`.
fn required() -> Option<&'static str> {
    let set = |name: &str| {
        std::env::var(name).is_ok_and(|value| !matches!(value.trim(), "" | "0" | "false"))
    };
    if set("RECALL_REQUIRE_MODEL") {
        Some("RECALL_REQUIRE_MODEL")
    } else if set("CI") {
        Some("CI")
    } else {
        None
    }
}

/// The reference texts and their vectors (test/fixtures/meaning/reference.json).
fn references() -> Vec<(String, Vec<f32>)> {
    let fixture: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repository().join("test/fixtures/meaning/reference.json"))
            .unwrap(),
    )
    .unwrap();
    let references = fixture["references"].as_array().unwrap();
    assert_eq!(references.len(), 9);
    references
        .iter()
        .map(|r| {
            (
                r["text"].as_str().unwrap().to_string(),
                r["vector"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_f64().unwrap() as f32)
                    .collect(),
            )
        })
        .collect()
}

/// The arithmetics this processor has: float32 always, int8 with AVX-VNNI.
fn arithmetics() -> Vec<Arithmetic> {
    let mut all = vec![Arithmetic::Float32];
    match Arithmetic::named("int8") {
        Ok(int8) => all.push(int8),
        Err(reason) => {
            let _ = writeln!(std::io::stderr(), "int8 skipped: {reason}");
        }
    }
    all
}

#[test]
fn vectors_equal_the_reference_toolchain() {
    let Some(dir) = package() else { return };
    let model = Model::load(&dir, Arithmetic::Float32).unwrap();
    for (text, expected) in references() {
        let vector = model.embed(&text);
        assert_eq!(vector.len(), DIMENSIONS);
        let worst = vector
            .iter()
            .zip(&expected)
            .map(|(a, b)| (a - b).abs())
            .fold(0f32, f32::max);
        assert!(
            worst < 1e-4,
            "{text:?}: differs from the reference by {worst}"
        );
    }
}

#[test]
fn the_pre_packed_model_gives_the_same_vectors_and_is_made_again_when_damaged() {
    use std::os::unix::fs::{FileExt, MetadataExt};
    let Some(dir) = package() else { return };
    let cache = tempfile::tempdir().unwrap();
    let packed = cache.path().join("model-packed");
    let texts = [
        "fake timers fixed the flaky spec",
        "Ørsted 的 café naïve [MASK]",
        "ok",
    ];
    for arithmetic in arithmetics() {
        let expected = Model::load(&dir, arithmetic).unwrap().embed_all(&texts);
        let embeds_as_loaded = |why: &str| {
            let model = Model::load_packed(&dir, arithmetic, &packed).unwrap();
            assert_eq!(model.embed_all(&texts), expected, "{arithmetic:?}, {why}");
        };
        let inode = || std::fs::metadata(&packed).unwrap().ino();
        // Written by the first load, read by the second.
        embeds_as_loaded("made");
        let (made, size) = (inode(), std::fs::metadata(&packed).unwrap().len());
        embeds_as_loaded("read");
        assert_eq!(
            inode(),
            made,
            "{arithmetic:?}: a whole file is read, not made again"
        );
        // A byte of the weights garbled in place: found by the checksum, made again.
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&packed)
            .unwrap();
        let mut byte = [0u8];
        file.read_exact_at(&mut byte, size / 2).unwrap();
        file.write_all_at(&[byte[0] ^ 0x40], size / 2).unwrap();
        drop(file);
        embeds_as_loaded("garbled");
        assert_ne!(
            inode(),
            made,
            "{arithmetic:?}: a garbled file is made again"
        );
        // Cut short, and a file of another arithmetic or model: made again.
        let whole = inode();
        std::fs::OpenOptions::new()
            .write(true)
            .open(&packed)
            .unwrap()
            .set_len(size / 3)
            .unwrap();
        embeds_as_loaded("cut short");
        assert_ne!(
            inode(),
            whole,
            "{arithmetic:?}: a file cut short is made again"
        );
        assert_eq!(std::fs::metadata(&packed).unwrap().len(), size);
    }
    // A folder where the file belongs is left alone; the model loads from its files.
    std::fs::remove_file(&packed).unwrap();
    std::fs::create_dir(&packed).unwrap();
    let model = Model::load_packed(&dir, Arithmetic::Float32, &packed).unwrap();
    assert_eq!(
        model.embed_all(&texts),
        Model::load(&dir, Arithmetic::Float32)
            .unwrap()
            .embed_all(&texts)
    );
}

#[test]
fn int8_vectors_point_where_the_reference_toolchains_do() {
    let Some(dir) = package() else { return };
    let Ok(int8) = Arithmetic::named("int8") else {
        let _ = writeln!(std::io::stderr(), "skipped: this processor has no AVX-VNNI");
        return;
    };
    let model = Model::load(&dir, int8).unwrap();
    for (text, expected) in references() {
        let vector = model.embed(&text);
        let cosine: f32 = vector.iter().zip(&expected).map(|(a, b)| a * b).sum();
        assert!(
            cosine > 0.99,
            "{text:?}: cosine {cosine} with the reference"
        );
    }
}

#[test]
fn texts_embedded_together_get_the_vectors_they_get_alone() {
    let Some(dir) = package() else { return };
    for arithmetic in arithmetics() {
        let model = Model::load(&dir, arithmetic).unwrap();
        let long = "The readiness probe failed while the ingress kept routing to the old pods. "
            .repeat(40);
        let mut texts: Vec<String> = vec![
            "fake timers fixed the flaky spec".into(),
            "ok".into(),
            long.clone(),
            "Ørsted 的 café naïve".into(),
            String::new(),
        ];
        // Enough texts that they go through the network in more than one batch.
        texts.extend((0..30).map(|n| format!("message {n}: {long}")));
        let together = model.embed_all(&texts);
        assert_eq!(together.len(), texts.len());
        for (text, vector) in texts.iter().zip(&together) {
            let alone = model.embed(text);
            let worst = alone
                .iter()
                .zip(vector)
                .map(|(a, b)| (a - b).abs())
                .fold(0f32, f32::max);
            assert!(
                worst < 1e-6,
                "{arithmetic:?}, {:?}: differs by {worst} embedded with others",
                &text[..text.len().min(40)]
            );
        }
    }
}

#[test]
fn ids_equal_hugging_face_tokenizers() {
    let Some(dir) = package() else { return };
    let tokens = Tokens::load(&dir.join("tokenizer.json")).unwrap();
    let fixture: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repository().join("test/fixtures/meaning/tokens.json")).unwrap(),
    )
    .unwrap();
    let texts = fixture["texts"].as_array().unwrap();
    assert!(texts.len() >= 38);
    let mut differing = Vec::new();
    for case in texts {
        let text = case["text"].as_str().unwrap();
        let expected: Vec<u32> = case["ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|id| id.as_u64().unwrap() as u32)
            .collect();
        let ids = tokens.ids(text);
        if ids != expected {
            let at = ids
                .iter()
                .zip(&expected)
                .position(|(a, b)| a != b)
                .unwrap_or(ids.len().min(expected.len()));
            differing.push(format!(
                "{:?}: from token {at}: {:?} instead of {:?}",
                text.chars().take(60).collect::<String>(),
                &ids[at..(at + 8).min(ids.len())],
                &expected[at..(at + 8).min(expected.len())]
            ));
        }
    }
    assert!(
        differing.is_empty(),
        "{} of {} texts differ:\n{}",
        differing.len(),
        texts.len(),
        differing.join("\n")
    );
}

/// A copy of the package in a temporary folder, with `damage` done to it.
fn damaged_copy(dir: &Path, damage: impl FnOnce(&Path)) -> tempfile::TempDir {
    let copy = tempfile::tempdir().unwrap();
    for file in ["model.onnx", "tokenizer.json"] {
        std::fs::copy(dir.join(file), copy.path().join(file)).unwrap();
    }
    damage(copy.path());
    copy
}

fn load_error(dir: &Path) -> String {
    let error = Model::load(dir, Arithmetic::fastest())
        .err()
        .expect("a damaged model must not load");
    let line = error.to_string();
    assert!(!line.contains('\n'), "not one line: {line}");
    line
}

#[test]
fn a_missing_or_damaged_model_file_is_one_line_naming_it() {
    let Some(dir) = package() else { return };
    let gone = damaged_copy(&dir, |d| {
        std::fs::remove_file(d.join("model.onnx")).unwrap()
    });
    let line = load_error(gone.path());
    assert_eq!(
        line,
        format!(
            "the meaning model's {} is missing",
            gone.path().join("model.onnx").display()
        )
    );

    let cut = damaged_copy(&dir, |d| {
        let bytes = std::fs::read(d.join("model.onnx")).unwrap();
        std::fs::write(d.join("model.onnx"), &bytes[..bytes.len() / 2]).unwrap();
    });
    let line = load_error(cut.path());
    assert!(line.contains("model.onnx is damaged: "), "{line}");

    // A whole ONNX file of another network: one Relu node, no weights.
    let other = damaged_copy(&dir, |d| {
        std::fs::write(
            d.join("model.onnx"),
            [0x3a, 8, 0x0a, 6, 0x22, 4, b'R', b'e', b'l', b'u'],
        )
        .unwrap()
    });
    let line = load_error(other.path());
    assert!(line.ends_with("model.onnx is damaged: it has no weights named embeddings.word_embeddings.weight: it is not the BERT encoder recall runs"), "{line}");

    let garbled = damaged_copy(&dir, |d| {
        std::fs::write(d.join("tokenizer.json"), "{\"version\": ").unwrap()
    });
    let line = load_error(garbled.path());
    assert!(line.contains("tokenizer.json is damaged: "), "{line}");

    let other_tokenizer = damaged_copy(&dir, |d| {
        let mut file: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(d.join("tokenizer.json")).unwrap())
                .unwrap();
        file["model"]["type"] = "BPE".into();
        std::fs::write(d.join("tokenizer.json"), file.to_string()).unwrap();
    });
    let line = load_error(other_tokenizer.path());
    assert!(
        line.ends_with("tokenizer.json is damaged: its model is BPE, not WordPiece"),
        "{line}"
    );

    let no_tokenizer = damaged_copy(&dir, |d| {
        std::fs::remove_file(d.join("tokenizer.json")).unwrap()
    });
    let line = load_error(no_tokenizer.path());
    assert_eq!(
        line,
        format!(
            "the meaning model's {} is missing",
            no_tokenizer.path().join("tokenizer.json").display()
        )
    );
}
