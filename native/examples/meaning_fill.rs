//! For bench/meaning-search.mjs: fills the meaning store of an index with synthetic vectors, one per
//! unit the index holds, so that a search by meaning can be timed on a corpus too large to embed
//! on the bench machine. The vectors are random unit vectors (a search's cost does not depend on
//! what they point at); the model is not run.
//!
//!   cargo run --release --example meaning_fill -- <cache folder> <model identity>

use std::path::Path;

use recall_native::engine::Engine;
use recall_native::meaning::store::Store;
use recall_native::meaning::DIMENSIONS;
use recall_native::search::by_meaning::live_keys;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, cache, identity] = &args[..] else {
        return Err("usage: meaning_fill <cache folder> <model identity>".into());
    };
    let engine = Engine::open(&Path::new(cache).join("index"))?;
    let keys = live_keys(&engine.searcher(), engine.fields())?;
    let mut store = Store::open(&Path::new(cache).join("meaning"), identity)?;
    let mut writer = store.writer()?;
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 40) as f32 / (1u64 << 24) as f32 - 0.5
    };
    let mut batch = Vec::new();
    let missing: Vec<u64> = keys
        .iter()
        .copied()
        .filter(|key| store.slot(*key).is_none())
        .collect();
    for key in missing {
        let raw: Vec<f32> = (0..DIMENSIONS).map(|_| next()).collect();
        let length = raw.iter().map(|x| x * x).sum::<f32>().sqrt();
        batch.push((key, raw.iter().map(|x| x / length).collect::<Vec<f32>>()));
        if batch.len() == 10_000 {
            store.append(&mut writer, &batch)?;
            batch.clear();
        }
    }
    store.append(&mut writer, &batch)?;
    println!("{} units, {} vectors", keys.len(), store.len());
    Ok(())
}
