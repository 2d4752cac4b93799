//! Session documents on their own: listing sessions newest first, finding a session id's files,
//! and those of the sessions a search found (their last activity and where they are).

use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, Occur, TermQuery};
use tantivy::schema::IndexRecordOption;
use tantivy::{DocAddress, Order, Searcher, SegmentReader, TantivyDocument, Term};

use crate::error::Result;
use crate::index::schema::{for_each_of_kind, kind_is, Fields, KIND_SESSION};
use crate::index::session::{session_from_document, SessionMeta};
use crate::path_key::{ByPathKey, PathKeys};
use crate::search::query::Filters;

/// Sessions matching the filters, most recently active first.
pub fn list(
    searcher: &Searcher,
    fields: &Fields,
    filters: &Filters,
    limit: usize,
) -> Result<Vec<SessionMeta>> {
    if limit == 0 {
        return Ok(Vec::new());
    }
    let Some(filters) = filters.with_tags_resolved(searcher, fields)? else {
        return Ok(Vec::new());
    };
    let mut clauses = vec![(Occur::Must, kind_is(fields, KIND_SESSION))];
    clauses.extend(filters.clauses(fields));
    let query = BooleanQuery::new(clauses);
    // No more places than there are documents: a huge limit would be allocated up front.
    let places = limit.min(
        usize::try_from(searcher.num_docs())
            .unwrap_or(usize::MAX)
            .max(1),
    );
    let collector = TopDocs::with_limit(places).order_by_fast_field::<i64>("ts", Order::Desc);
    let top = searcher.search(&query, &collector)?;
    let mut out = Vec::with_capacity(top.len());
    for (_, address) in top {
        let doc: TantivyDocument = searcher.doc(address)?;
        out.push(session_from_document(fields, &doc));
    }
    Ok(out)
}

/// Every indexed session document with this session id (a copied file can share one).
pub fn documents_by_id(
    searcher: &Searcher,
    fields: &Fields,
    session_id: &str,
) -> Result<Vec<TantivyDocument>> {
    let query = BooleanQuery::new(vec![
        (Occur::Must, kind_is(fields, KIND_SESSION)),
        (
            Occur::Must,
            Box::new(TermQuery::new(
                Term::from_field_text(fields.session_id, session_id),
                IndexRecordOption::Basic,
            )),
        ),
    ]);
    let addresses = searcher.search(&query, &tantivy::collector::DocSetCollector)?;
    let mut docs = Vec::with_capacity(addresses.len());
    for address in addresses {
        docs.push(searcher.doc(address)?);
    }
    Ok(docs)
}

/// The session document of each session file (by path key), with its last activity read from the
/// fast columns: one pass over the session documents, instead of a lookup per result.
/// Every indexed session has its session document; one missing means a damaged index.
pub fn session_documents(
    searcher: &Searcher,
    fields: &Fields,
    wanted: &PathKeys,
) -> Result<ByPathKey<(i64, DocAddress)>> {
    if wanted.is_empty() {
        return Ok(ByPathKey::default());
    }
    let mut out = ByPathKey::with_capacity_and_hasher(wanted.len(), Default::default());
    let columns = |segment: &SegmentReader| {
        let fast = segment.fast_fields();
        Ok((fast.u64("path_key")?, fast.i64("ts")?))
    };
    for_each_of_kind(
        searcher,
        fields,
        KIND_SESSION,
        columns,
        |(keys, timestamps), address| {
            if let Some(key) = keys
                .first(address.doc_id)
                .filter(|key| wanted.contains(key))
            {
                if let Some(ts) = timestamps.first(address.doc_id) {
                    out.insert(key, (ts, address));
                }
            }
        },
    )?;
    Ok(out)
}

/// Each session's last activity, from its session document.
pub fn last_activities(session_docs: &ByPathKey<(i64, DocAddress)>) -> ByPathKey<i64> {
    session_docs
        .iter()
        .map(|(key, (ts, _))| (*key, *ts))
        .collect()
}
