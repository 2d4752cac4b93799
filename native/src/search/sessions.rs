//! Session documents on their own: listing sessions newest first, finding a session id's files.

use tantivy::collector::TopDocs;
use tantivy::query::{BooleanQuery, Occur, TermQuery};
use tantivy::schema::IndexRecordOption;
use tantivy::{Order, Searcher, TantivyDocument, Term};

use crate::error::Result;
use crate::index::schema::{kind_is, Fields, KIND_SESSION};
use crate::index::session::{session_from_document, SessionMeta};
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
