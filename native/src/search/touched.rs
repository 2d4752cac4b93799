//! The tool calls that touched a file: what `--file` finds sessions by. The caller resolves the
//! paths (each call's against its session's folder, the asked-for one against its own), so a
//! match is one exact term.

use tantivy::collector::DocSetCollector;
use tantivy::query::TermQuery;
use tantivy::schema::document::Value;
use tantivy::schema::IndexRecordOption;
use tantivy::{Searcher, TantivyDocument, Term};

use crate::error::Result;
use crate::index::schema::Fields;

#[derive(Debug, Clone, PartialEq)]
pub struct FileCall {
    /// The session file the call is in.
    pub session_path: String,
    pub tool: String,
    pub entry_id: String,
    pub timestamp: i64,
}

/// Every indexed call that touched `file` (an absolute path), in session order.
pub fn calls_touching(searcher: &Searcher, fields: &Fields, file: &str) -> Result<Vec<FileCall>> {
    let query = TermQuery::new(
        Term::from_field_text(fields.touched, file),
        IndexRecordOption::Basic,
    );
    let mut addresses: Vec<_> = searcher
        .search(&query, &DocSetCollector)?
        .into_iter()
        .collect();
    addresses.sort();
    let mut calls = Vec::with_capacity(addresses.len());
    for address in addresses {
        let doc: TantivyDocument = searcher.doc(address)?;
        let text = |field| {
            doc.get_first(field)
                .and_then(|v| v.as_str())
                .unwrap_or_default()
                .to_owned()
        };
        calls.push(FileCall {
            session_path: text(fields.path),
            tool: text(fields.tool),
            entry_id: text(fields.entry_id),
            timestamp: doc
                .get_first(fields.ts)
                .and_then(|v| v.as_i64())
                .unwrap_or(0),
        });
    }
    calls.sort_by(|a, b| {
        a.session_path
            .cmp(&b.session_path)
            .then(a.timestamp.cmp(&b.timestamp))
    });
    Ok(calls)
}
