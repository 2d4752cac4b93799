//! A panic while writing (a damaged segment file read by Tantivy's own threads: the segment
//! updater applying deletes at a commit, a merge thread) must become an error, never abort the
//! process. The damage keeps the file's time, so opening does not notice it first; the bytes
//! hit are chosen with a fixed seed. An abort would end this test binary.
//!
//! It runs without libtest (`harness = false` in Cargo.toml): the segment updater it stops holds
//! the panic hook's lock for good, and libtest takes the hook when it ends, which waited forever
//! (every run, after "test result: ok"). A failure is exit status 1.

use std::fs::OpenOptions;
use std::io::{Seek, SeekFrom, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::Duration;

use recall_native::engine::Engine;
use recall_native::index::changes::ChangeSet;

/// xorshift64*: a fixed sequence of offsets, the same on every run.
struct Seeded(u64);

impl Seeded {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n.max(1)
    }
}

fn session(n: usize) -> serde_json::Value {
    let text = format!("word{n} shared {}", "filler ".repeat(50));
    serde_json::json!({
        "session": { "id": format!("s{n}"), "path": format!("/s/{n}.jsonl"), "cwd": "/p", "created": 1, "modified": 2, "messageCount": 1 },
        "messages": [{ "index": 0, "role": "user", "entryId": "e0", "timestamp": 2, "text": text }],
    })
}

/// One commit per session: `segments` segments (merges are left to the test).
fn write(engine: &Engine, sessions: std::ops::Range<usize>) -> recall_native::error::Result<()> {
    for n in sessions {
        let changes: ChangeSet =
            serde_json::from_value(serde_json::json!({ "sessions": [session(n)] })).unwrap();
        engine.lock(Duration::from_secs(20), 1)?;
        let result = engine.apply(&changes).and_then(|_| engine.commit("t", ""));
        engine.unlock()?;
        result?;
    }
    Ok(())
}

fn files_with(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == extension))
        .collect();
    files.sort();
    files
}

/// Overwrites `count` runs of 8 bytes at seeded offsets, keeping the file's time.
fn damage(path: &Path, seed: &mut Seeded, count: usize) {
    let modified = std::fs::metadata(path).unwrap().modified().unwrap();
    let mut file = OpenOptions::new().write(true).open(path).unwrap();
    let len = file.metadata().unwrap().len();
    for _ in 0..count {
        file.seek(SeekFrom::Start(seed.below(len.saturating_sub(8))))
            .unwrap();
        file.write_all(&seed.below(u64::MAX).to_le_bytes()).unwrap();
    }
    file.set_modified(modified).unwrap();
}

/// Seven segments, one damaged file of the kind, then eight commits that replace every session:
/// each applies deletes to every segment on the segment updater thread, and the eighth segment
/// of a size makes Tantivy's policy merge them on a merge thread (whose panics Tantivy 0.27
/// catches itself).
fn main() {
    let mut seed = Seeded(20_261_202);
    let mut outcomes = Vec::new();
    // Segment ids are random, so where the seeded bytes land varies a little from run to run:
    // `.term` trials go on (up to 40) until one has reached the segment updater's panic.
    let kinds = ["idx", "pos", "fast", "store"]
        .iter()
        .flat_map(|e| [*e; 4])
        .chain(["term"; 40]);
    for extension in kinds {
        if extension == "term"
            && outcomes
                .iter()
                .any(|o: &String| o.contains("segment updater panicked"))
        {
            break;
        }
        {
            let dir = tempfile::tempdir().unwrap();
            write(&Engine::open(dir.path()).unwrap(), 0..7).unwrap();
            let files = files_with(dir.path(), extension);
            let target = files[seed.below(files.len() as u64) as usize].clone();
            damage(&target, &mut seed, 4);
            // A panic on this thread is the binding's to catch (binding/job.rs, replace.rs).
            let outcome = catch_unwind(AssertUnwindSafe(|| match Engine::open(dir.path()) {
                Err(error) => format!("open failed: {error}"),
                Ok(engine) => match write(&engine, 0..8) {
                    Ok(()) => format!(
                        "written, {} segments left",
                        files_with(dir.path(), "idx").len()
                    ),
                    Err(error) => format!("write failed: {error}"),
                },
            }))
            .unwrap_or_else(|_| "panicked on the calling thread".to_owned());
            outcomes.push(format!(".{extension}: {outcome}"));
        }
    }
    // The path this test is for was taken: without panics.rs, that trial aborts the binary.
    if !outcomes
        .iter()
        .any(|o| o.contains("segment updater panicked"))
    {
        eprintln!(
            "{}\nwriter_panics: FAILED, no trial reached a segment updater panic",
            outcomes.join("\n")
        );
        std::process::exit(1);
    }
    eprintln!("writer_panics: ok, {} trials", outcomes.len());
}
