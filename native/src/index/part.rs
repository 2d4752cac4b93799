//! The Tantivy indexes a cache folder holds (its parts), and how each is opened.
//!
//! The main index, in the folder itself, holds all a default search reads: the conversation,
//! the session documents and the sync's file records. The depth index, in its `depth` folder,
//! holds the other kinds of text (thinking, tool calls, tool output: three documents in four,
//! most of the bytes). Kept apart, a conversation search opens and walks only the main index's
//! segments, and its cost does not grow with how much tools printed.
//!
//! Both have the same schema and commit together (engine.rs: depth first, then main, whose
//! payload holds the file records' state), so that a crash between the two commits only leaves
//! the depth index ahead of files the main index will see as changed and index again.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use tantivy::directory::{Directory, META_LOCK};
use tantivy::schema::{Field, Schema};
use tantivy::{Index, IndexReader, ReloadPolicy, Searcher};

use crate::error::{Code, RecallError, Result};
use crate::index::directory::IndexDirectory;
use crate::index::schema::{build_schema, Fields, SCHEMA_VERSION};
use crate::index::text_kind::TextKind;
use crate::words::tokenizer;

/// Which of the indexes. What a part is (which text it holds, its folder) is said here; the
/// engine, its writer and the searchers iterate `Part::ALL`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Part {
    Main,
    Depth,
}

impl Part {
    /// Every part, the main one first.
    pub const ALL: [Part; 2] = [Part::Main, Part::Depth];

    /// The parts besides the main one: each opened when first needed, and committed before the
    /// main one.
    pub fn others() -> impl Iterator<Item = Part> {
        Part::ALL.into_iter().filter(|part| *part != Part::Main)
    }

    /// The index that holds a kind of text.
    pub fn of(kind: TextKind) -> Part {
        if kind == TextKind::Conversation {
            Part::Main
        } else {
            Part::Depth
        }
    }

    /// Whether this part's documents may hold terms of `field`: a kind of text lives in one part,
    /// tags (session documents) in the main one, and the fields every document has in both.
    pub fn holds(self, field: Field, fields: &Fields) -> bool {
        match TextKind::ALL
            .into_iter()
            .find(|kind| kind.field(fields) == field)
        {
            Some(kind) => Part::of(kind) == self,
            None => field != fields.tag_text || self == Part::Main,
        }
    }

    /// The name of this part's folder inside the main index's; none for the main one.
    pub fn folder_name(self) -> Option<&'static str> {
        match self {
            Part::Main => None,
            Part::Depth => Some("depth"),
        }
    }

    /// The folder of this part of the cache in `dir`.
    pub fn folder(self, dir: &Path) -> PathBuf {
        match self.folder_name() {
            None => dir.to_path_buf(),
            Some(name) => dir.join(name),
        }
    }
}

/// What a commit records next to the segments: the schema version, a stamp that names the
/// commit, and the caller's own state (opaque JSON) as of that commit.
#[derive(Debug, Serialize, Deserialize)]
pub struct Payload {
    pub schema: u32,
    pub stamp: String,
    #[serde(default)]
    pub state: String,
}

/// One open index and its reader.
pub struct IndexPart {
    pub index: Index,
    pub reader: IndexReader,
}

impl IndexPart {
    /// Opens the index in `dir` (made if `create` and the folder holds none); `None` when there
    /// is none and `create` is false.
    pub fn open(dir: &Path, create: bool) -> Result<Option<IndexPart>> {
        let io_error =
            |e: std::io::Error| RecallError::new(Code::Io, format!("{}: {e}", dir.display()));
        if create {
            std::fs::create_dir_all(dir).map_err(io_error)?;
        } else if !dir.is_dir() {
            return Ok(None);
        }
        let directory =
            IndexDirectory::open(dir).map_err(|e| RecallError::new(Code::Io, e.to_string()))?;
        let index = if index_exists(&directory)? {
            Index::open(directory)?
        } else if create {
            create_once(directory)?
        } else {
            return Ok(None);
        };
        IndexPart::of(index).map(Some)
    }

    pub fn in_memory() -> Result<IndexPart> {
        IndexPart::of(Index::create_in_ram(build_schema()))
    }

    fn of(index: Index) -> Result<IndexPart> {
        check_compatible(&index)?;
        tokenizer::register(&index);
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()?;
        Ok(IndexPart { index, reader })
    }

    pub fn searcher(&self) -> Searcher {
        self.reader.searcher()
    }

    pub fn payload(&self) -> Result<Option<Payload>> {
        read_payload(&self.index)
    }
}

fn index_exists(directory: &IndexDirectory) -> Result<bool> {
    Index::exists(directory).map_err(|e| RecallError::new(Code::Corrupt, e.to_string()))
}

/// Creates the index, unless another process did since `open` looked. Creating writes an empty
/// `meta.json`, so two processes that both found none would otherwise race, and the slower one
/// would wipe out what the faster one had committed in the meantime. The lock is the one readers
/// hold while they open segments; it is released before this process opens its own reader.
fn create_once(directory: IndexDirectory) -> Result<Index> {
    let _creating = directory
        .acquire_lock(&META_LOCK)
        .map_err(|e| RecallError::new(Code::Io, e.to_string()))?;
    if index_exists(&directory)? {
        return Ok(Index::open(directory)?);
    }
    Ok(Index::create(
        directory,
        build_schema(),
        tantivy::IndexSettings::default(),
    )?)
}

fn check_compatible(index: &Index) -> Result<()> {
    let expected = build_schema();
    if !same_fields(&index.schema(), &expected) {
        return Err(RecallError::new(
            Code::Incompatible,
            "the index was written with another schema",
        ));
    }
    if let Some(payload) = read_payload(index)? {
        if payload.schema != SCHEMA_VERSION {
            return Err(RecallError::new(
                Code::Incompatible,
                format!(
                    "the index has schema version {}, this recall uses {SCHEMA_VERSION}",
                    payload.schema
                ),
            ));
        }
    }
    Ok(())
}

fn same_fields(a: &Schema, b: &Schema) -> bool {
    let names = |s: &Schema| {
        s.fields()
            .map(|(_, e)| (e.name().to_owned(), format!("{:?}", e.field_type())))
            .collect::<Vec<_>>()
    };
    names(a) == names(b)
}

fn read_payload(index: &Index) -> Result<Option<Payload>> {
    let metas = index.load_metas()?;
    match metas.payload {
        None => Ok(None),
        Some(text) => serde_json::from_str(&text).map(Some).map_err(|e| {
            RecallError::new(Code::Corrupt, format!("unreadable commit payload: {e}"))
        }),
    }
}
