//! File records: what the sync knew of each session file when it last read it. They live in the
//! index as `file` documents, committed with the messages they describe, so the index and the
//! sync's knowledge of the files can never disagree after a crash.

use serde::Deserialize;
use tantivy::collector::DocSetCollector;
use tantivy::query::{BooleanQuery, Occur, Query, RangeQuery, TermQuery};
use tantivy::schema::document::Value;
use tantivy::schema::IndexRecordOption;
use tantivy::{Searcher, TantivyDocument, Term};

use crate::clauses::any_term::AnyTerm;
use crate::error::Result;
use crate::index::schema::{kind_is, Fields, KIND_FILE};
use crate::path_key::path_key;

/// One file's record, as the caller sends it and reads it back.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct FileRecord {
    pub path: String,
    pub size: u64,
    pub mtime_ms: f64,
    pub ino: u64,
    /// The session id in the file's header (files without one have none).
    #[serde(default)]
    pub session_id: String,
    /// File name of the fork's parent session, if the file is a fork.
    #[serde(default)]
    pub parent_name: Option<String>,
    /// The caller's own data about the file, stored as given.
    pub state: String,
}

/// Which records to read.
pub enum Selector {
    All,
    Paths(Vec<String>),
    /// Forks of these parent file names.
    ParentNames(Vec<String>),
    /// Files whose session id starts with this.
    SessionIdPrefix(String),
}

pub fn file_document(fields: &Fields, record: &FileRecord) -> TantivyDocument {
    let mut doc = TantivyDocument::default();
    doc.add_text(fields.kind, KIND_FILE);
    doc.add_text(fields.path, &record.path);
    doc.add_u64(fields.path_key, path_key(&record.path));
    doc.add_text(fields.session_id, &record.session_id);
    doc.add_u64(fields.file_size, record.size);
    doc.add_f64(fields.file_mtime, record.mtime_ms);
    doc.add_u64(fields.file_ino, record.ino);
    if let Some(parent) = &record.parent_name {
        doc.add_text(fields.parent_name, parent);
    }
    doc.add_text(fields.file_state, &record.state);
    doc
}

fn record_from_document(fields: &Fields, doc: &TantivyDocument) -> FileRecord {
    let text = |field| {
        doc.get_first(field)
            .and_then(|v| v.as_str().map(str::to_owned))
    };
    FileRecord {
        path: text(fields.path).unwrap_or_default(),
        size: doc
            .get_first(fields.file_size)
            .and_then(|v| v.as_u64())
            .unwrap_or(0),
        mtime_ms: doc
            .get_first(fields.file_mtime)
            .and_then(|v| v.as_f64())
            .unwrap_or(0.0),
        ino: doc
            .get_first(fields.file_ino)
            .and_then(|v| v.as_u64())
            .unwrap_or(0),
        session_id: text(fields.session_id).unwrap_or_default(),
        // Indexed only: the caller's state holds the full parent path.
        parent_name: None,
        state: text(fields.file_state).unwrap_or_default(),
    }
}

fn any_of(field: tantivy::schema::Field, values: &[String]) -> Box<dyn Query> {
    Box::new(AnyTerm::new(field, values))
}

/// The file document of `path` (to replace it).
pub fn file_doc_query(fields: &Fields, path: &str) -> Box<dyn Query> {
    Box::new(BooleanQuery::new(vec![
        (Occur::Must, kind_is(fields, KIND_FILE)),
        (
            Occur::Must,
            Box::new(TermQuery::new(
                Term::from_field_text(fields.path, path),
                IndexRecordOption::Basic,
            )),
        ),
    ]))
}

pub fn read_records(
    searcher: &Searcher,
    fields: &Fields,
    selector: &Selector,
) -> Result<Vec<FileRecord>> {
    let mut clauses = vec![(Occur::Must, kind_is(fields, KIND_FILE))];
    match selector {
        Selector::All => {}
        Selector::Paths(paths) => clauses.push((Occur::Must, any_of(fields.path, paths))),
        Selector::ParentNames(names) => {
            clauses.push((Occur::Must, any_of(fields.parent_name, names)))
        }
        Selector::SessionIdPrefix(prefix) => {
            // Every string that starts with `prefix` sorts below `prefix` + the highest code point.
            let upper = format!("{prefix}\u{10FFFF}");
            clauses.push((
                Occur::Must,
                Box::new(RangeQuery::new(
                    std::ops::Bound::Included(Term::from_field_text(fields.session_id, prefix)),
                    std::ops::Bound::Excluded(Term::from_field_text(fields.session_id, &upper)),
                )),
            ));
        }
    }
    let addresses = searcher.search(&BooleanQuery::new(clauses), &DocSetCollector)?;
    let mut records = Vec::with_capacity(addresses.len());
    for address in addresses {
        let doc: TantivyDocument = searcher.doc(address)?;
        records.push(record_from_document(fields, &doc));
    }
    records.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(records)
}
