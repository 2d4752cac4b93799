//! Of the documents a query matches in one segment, the best of each session file (and its best
//! message): each document that can still matter (session_floor.rs) is scored and kept only
//! while it is its session's best, so what is kept grows with the sessions found, not with the
//! documents.

use tantivy::query::Weight;
use tantivy::{DocAddress, SegmentOrdinal, SegmentReader};

use crate::index::part::Part;
use crate::search::candidates::{BySession, Candidate, Origin};
use crate::search::session_floor::SessionFloor;

/// Adds the segment's best documents per session to `found`, skipping what `floor` rules out.
///
/// Every matching document is scored: Tantivy's own pruning (`for_each_pruning`, block-WAND) is
/// not used, because the block maxima it skips by were chosen when each segment was written, for
/// that segment's BM25 statistics, not the live ones a search scores with (statistics.rs), so it
/// can skip a document that scores above the threshold. What the floor saves is the lookups.
pub fn collect_segment(
    weight: &dyn Weight,
    part: Part,
    segment: SegmentOrdinal,
    reader: &SegmentReader,
    found: &mut BySession,
    floor: &mut SessionFloor,
) -> tantivy::Result<()> {
    let fast = reader.fast_fields();
    let path_keys = fast.u64("path_key")?;
    let message_indexes = fast.u64("msg_index")?;
    let alive = reader.alive_bitset();
    let mut threshold = floor.threshold();
    weight.for_each(reader, &mut |doc, score| {
        // Deleted documents are still in the postings until their segment is merged.
        if score <= threshold || alive.is_some_and(|alive| !alive.is_alive(doc)) {
            return;
        }
        // Every document of a session file has its path key; file records are never matched.
        let Some(key) = path_keys.first(doc) else {
            return;
        };
        let origin = Origin {
            part,
            address: DocAddress::new(segment, doc),
        };
        let candidates = found.entry(key).or_insert_with(|| {
            floor.admit(score);
            threshold = floor.threshold();
            Default::default()
        });
        candidates.offer(Candidate {
            message: message_indexes.first(doc),
            score,
            origin,
        });
    })
}
