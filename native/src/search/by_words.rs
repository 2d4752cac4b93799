//! The word index as a candidate source (candidates.rs): each index part searched with its part
//! of the query, all weighted with one set of BM25 statistics, each document scored once and
//! kept only if it is its session's best (best_per_session.rs), once no better than the best
//! `limit` sessions' need (session_floor.rs) not even looked up. Nothing is cut to a window of
//! documents first, so a session with thousands of matching messages cannot crowd out the others.

use tantivy::query::{BooleanQuery, ConstScoreQuery, EnableScoring, Occur, Query, TermQuery};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::Term;

use crate::error::Result;
use crate::index::part::Part;
use crate::search::best_per_session::collect_segment;
use crate::search::candidates::{BySession, Candidate};
use crate::search::searchers::Searchers;
use crate::search::session_floor::SessionFloor;
use crate::search::statistics::LiveStatistics;

/// The word index as a source: each part searched with its query (parts not read are skipped).
/// Documents that cannot change the best `floor` sessions are skipped, so a session kept may lack
/// its best message when its tags outscore it: `best_message_of` finds it again.
/// (Reading the two parts on two threads was tried: no faster on two cores.)
pub fn word_candidates(
    searchers: &Searchers,
    statistics: &LiveStatistics,
    queries: &[(Part, Box<dyn Query>)],
    floor: &mut SessionFloor,
) -> Result<BySession> {
    let mut found = BySession::default();
    for (part, query) in queries {
        let Some(searcher) = searchers.of(*part) else {
            continue;
        };
        let weight = query.weight(EnableScoring::enabled_from_statistics_provider(
            statistics, searcher,
        ))?;
        for (ord, segment) in searcher.segment_readers().iter().enumerate() {
            collect_segment(
                weight.as_ref(),
                *part,
                ord as u32,
                segment,
                &mut found,
                floor,
            )?;
        }
    }
    Ok(found)
}

/// The best message of one session file among the documents `queries` match, none skipped.
pub fn best_message_of(
    searchers: &Searchers,
    statistics: &LiveStatistics,
    queries: &[(Part, Box<dyn Query>)],
    path_key: Field,
    key: u64,
) -> Result<Option<Candidate>> {
    let of_session: Box<dyn Query> = Box::new(ConstScoreQuery::new(
        Box::new(TermQuery::new(
            Term::from_field_u64(path_key, key),
            IndexRecordOption::Basic,
        )),
        0.0,
    ));
    let mut found = BySession::default();
    for (part, query) in queries {
        let Some(searcher) = searchers.of(*part) else {
            continue;
        };
        let query = BooleanQuery::new(vec![
            (Occur::Must, query.box_clone()),
            (Occur::Must, of_session.box_clone()),
        ]);
        let weight = query.weight(EnableScoring::enabled_from_statistics_provider(
            statistics, searcher,
        ))?;
        for (ord, segment) in searcher.segment_readers().iter().enumerate() {
            collect_segment(
                weight.as_ref(),
                *part,
                ord as u32,
                segment,
                &mut found,
                &mut SessionFloor::none(),
            )?;
        }
    }
    Ok(found
        .get(&key)
        .and_then(|candidates| candidates.best_message))
}
