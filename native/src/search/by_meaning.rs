//! The meaning index: the word index says which units exist now (each conversation message
//! document carries its text's key, `meaning_key`), the store (meaning/store.rs) holds a vector per key.
//! So the meaning index follows every sync of the word index for nothing — an appended message
//! is a key the store lacks, a deleted session's keys are no longer referenced, a fork's copied
//! messages are keys the store has — and the same files give the same answers whatever its
//! history.
//!
//! A meaning search is exact: the query's cosine with every vector held, then each message
//! document in scope takes its key's cosine, and each session its best message
//! (candidates.rs), weighed with its opening's cosine (meaning/unit.rs: each session document carries its
//! opening's key). A message whose vector is not there yet is not found by meaning. A search may
//! score some sessions only (`Scored::Only`), with the same products; `meaning_bounds` says the
//! most each session could score, for a search that scores only those that could be shown
//! (bounded.rs).
//!
//! A session's place in meaning is its centroid, the mean of its messages' vectors: the sessions
//! nearest another (`nearest_sessions`, for related.rs) are those whose centroids are nearest its.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tantivy::index::SegmentId;
use tantivy::query::{EnableScoring, Query, Weight};
use tantivy::schema::Field;
use tantivy::{DocAddress, DocId, DocSet, Searcher, SegmentReader, TantivyDocument, TERMINATED};

use crate::error::Result;
use crate::index::part::Part;
use crate::index::schema::{for_each_of_kind, kind_is, Fields, KIND_MESSAGE, KIND_SESSION};
use crate::meaning::store::{quantize, Generation, Store};
use crate::meaning::unit::weighed;
use crate::meaning::DIMENSIONS;
use crate::path_key::{path_key_after, ByPathKey, PathKeys};
use crate::search::candidates::{BySession, Candidate, Origin, SessionCandidates};
use crate::search::cosine_sums::CosineSums;
use crate::search::kept_lengths;
use crate::search::query::{filtered, Filters};
use tantivy::schema::document::Value;

/// How many of the messages in scope the store has a vector for.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Coverage {
    pub embedded: u64,
    pub messages: u64,
}

/// A message document in scope: its session, position, key, time and address.
struct Unit {
    path_key: u64,
    msg_index: u64,
    key: u64,
    ts: i64,
    address: DocAddress,
}

/// Visits every live conversation message matching `filters`.
fn for_each_unit(
    searcher: &Searcher,
    fields: &Fields,
    filters: &Filters,
    visit: impl FnMut(Unit),
) -> Result<()> {
    for_each_unit_of(searcher, fields, filters, None, visit)
}

/// Visits every live conversation message matching `filters`, of one segment or all.
fn for_each_unit_of(
    searcher: &Searcher,
    fields: &Fields,
    filters: &Filters,
    only: Option<usize>,
    mut visit: impl FnMut(Unit),
) -> Result<()> {
    let query = filtered(kind_is(fields, KIND_MESSAGE), filters, fields);
    let weight = query.weight(EnableScoring::disabled_from_searcher(searcher))?;
    for (segment_ord, segment) in searcher.segment_readers().iter().enumerate() {
        if only.is_some_and(|only| only != segment_ord) {
            continue;
        }
        let fast = segment.fast_fields();
        let (path_keys, keys, indexes, times) = (
            fast.u64("path_key")?,
            fast.u64("meaning_key")?,
            fast.u64("msg_index")?,
            fast.i64("ts")?,
        );
        let alive = segment.alive_bitset();
        let mut docs = weight.scorer(segment, 1.0)?;
        let mut doc = docs.doc();
        while doc != TERMINATED {
            if alive.is_none_or(|alive| alive.is_alive(doc)) {
                if let (Some(path_key), Some(key)) = (path_keys.first(doc), keys.first(doc)) {
                    let msg_index = indexes.first(doc).unwrap_or(0);
                    let ts = times.first(doc).unwrap_or(0);
                    visit(Unit {
                        path_key,
                        msg_index,
                        key,
                        ts,
                        address: DocAddress::new(segment_ord as u32, doc),
                    });
                }
            }
            doc = docs.advance();
        }
    }
    Ok(())
}

/// A session's opening (unit.rs): its session's path key, its key, the session's last activity.
struct Opening {
    path_key: u64,
    key: u64,
    ts: i64,
    address: DocAddress,
}

/// Visits the opening of every live session document that has one.
fn for_each_opening(
    searcher: &Searcher,
    fields: &Fields,
    visit: impl FnMut(Opening),
) -> Result<()> {
    for_each_opening_of(searcher, fields, None, visit)
}

/// Visits the opening of every live session document that has one, of one segment or all.
fn for_each_opening_of(
    searcher: &Searcher,
    fields: &Fields,
    only: Option<usize>,
    mut visit: impl FnMut(Opening),
) -> Result<()> {
    let columns = |segment: &SegmentReader| {
        let fast = segment.fast_fields();
        Ok((
            fast.u64("path_key")?,
            fast.u64("meaning_key")?,
            fast.i64("ts")?,
        ))
    };
    for_each_of_kind(
        searcher,
        fields,
        KIND_SESSION,
        columns,
        |(path_keys, keys, times), address| {
            if only.is_some_and(|only| only != address.segment_ord as usize) {
                return;
            }
            if let (Some(path_key), Some(key)) =
                (path_keys.first(address.doc_id), keys.first(address.doc_id))
            {
                visit(Opening {
                    path_key,
                    key,
                    ts: times.first(address.doc_id).unwrap_or(0),
                    address,
                });
            }
        },
    )
}

/// What the store lacks, as `pending` finds it.
pub struct Pending {
    /// Up to the limit asked for: key and text, messages and sessions' openings, newest first,
    /// each key once.
    pub texts: Vec<(u64, String)>,
    /// The coverage of the whole index (messages).
    pub coverage: Coverage,
    /// The messages not covered that these texts' vectors will cover (a text may be several
    /// messages'): the coverage once they are stored, without reading the index again.
    pub covered_by_texts: u64,
}

/// Up to `limit` texts whose vectors the store lacks, and the coverage (see `Pending`).
pub fn pending(
    searcher: &Searcher,
    fields: &Fields,
    store: &Store,
    limit: usize,
) -> Result<Pending> {
    let mut coverage = Coverage::default();
    // Time, key, document, and the field its text is in.
    let mut missing: Vec<(i64, u64, DocAddress, Field)> = Vec::new();
    for_each_unit(searcher, fields, &Filters::default(), |unit| {
        coverage.messages += 1;
        match store.slot(unit.key) {
            Some(_) => coverage.embedded += 1,
            None => missing.push((unit.ts, unit.key, unit.address, fields.content)),
        }
    })?;
    for_each_opening(searcher, fields, |opening| {
        if store.slot(opening.key).is_none() {
            missing.push((opening.ts, opening.key, opening.address, fields.opening));
        }
    })?;
    missing.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut seen = PathKeys::default();
    let mut texts = Vec::new();
    for &(_, key, address, field) in &missing {
        if texts.len() == limit {
            break;
        }
        if seen.insert(key) {
            let doc: TantivyDocument = searcher.doc(address)?;
            let text = doc
                .get_first(field)
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default();
            texts.push((key, text));
        }
    }
    let covered_by_texts = missing
        .iter()
        .filter(|(_, key, _, field)| *field == fields.content && seen.contains(key))
        .count() as u64;
    Ok(Pending {
        texts,
        coverage,
        covered_by_texts,
    })
}

/// The keys of every live unit: what a compaction keeps.
pub fn live_keys(searcher: &Searcher, fields: &Fields) -> Result<PathKeys> {
    let mut keys = PathKeys::default();
    for_each_unit(searcher, fields, &Filters::default(), |unit| {
        keys.insert(unit.key);
    })?;
    for_each_opening(searcher, fields, |opening| {
        keys.insert(opening.key);
    })?;
    Ok(keys)
}

/// The units of one segment as a search by meaning reads them, taken from its fast columns once
/// (a segment never changes; which of its documents are alive is asked at each search), and
/// where each unit's vector is in the store as last looked up.
struct SegmentUnits {
    docs: Vec<DocId>,
    path_keys: Vec<u64>,
    /// Each unit's session as a number of this segment's (an index into `sessions`), and each
    /// session's path key: a search of a few sessions asks a bit per unit, not a hash.
    session_of: Vec<u32>,
    sessions: Vec<u64>,
    /// Each session's runs of units, by its number: where its messages lie, start and end.
    runs: Vec<Vec<(u32, u32)>>,
    indexes: Vec<u64>,
    keys: Vec<u64>,
    lookup: Mutex<Option<(Generation, u32, Arc<Lookup>)>>,
    /// The segment's session documents with an opening: document, path key, the opening's key.
    openings: Vec<(DocId, u64, u64)>,
}

/// A unit the store holds no vector of.
const NO_SLOT: u32 = u32::MAX;

/// Where each of one segment's units' vectors is in the store (NO_SLOT: none yet), whatever the
/// query.
struct Lookup {
    slots: Vec<u32>,
}

impl SegmentUnits {
    /// The lookup of these units in `store`, made again only when the store or the segment's
    /// deletions changed (a new lookup is what tells `UnitCache::lengths` to sum again).
    fn lookup(&self, store: &Store, segment: &SegmentReader) -> Arc<Lookup> {
        let mut held = self
            .lookup
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let generation = store.generation();
        let deleted = segment.num_deleted_docs();
        if let Some((seen, seen_deleted, lookup)) = held.as_ref() {
            if *seen == generation && *seen_deleted == deleted {
                return Arc::clone(lookup);
            }
        }
        let slots: Vec<u32> = self
            .keys
            .iter()
            .map(|key| store.slot(*key).unwrap_or(NO_SLOT))
            .collect();
        let lookup = Arc::new(Lookup { slots });
        *held = Some((generation, deleted, Arc::clone(&lookup)));
        lookup
    }
}

/// The units of each segment read so far, kept between searches by the meaning index's handle:
/// without it a search spent more time reading the columns than comparing vectors.
#[derive(Default)]
pub struct UnitCache {
    segments: Mutex<HashMap<SegmentId, Arc<SegmentUnits>>>,
    /// The length of each session's sum of its live messages' vectors (its centroid, unnormed: the
    /// query's cosine with the centroid is the sum of the messages' cosines over it), over every
    /// segment its messages lie in (a sync's indexing threads and a later append spread a session
    /// over segments), made again when a segment's lookup was.
    lengths: Mutex<Option<Kept<ByPathKey<f32>>>>,
    outlines: Mutex<Option<Kept<Outlines>>>,
    covered: Mutex<Option<Kept<Covered>>>,
    /// How many times outlines were asked for: not made for a process's first search.
    outlines_asked: AtomicUsize,
}

/// The sessions with a message in scope the store has a vector of, and the coverage (`in_scope`).
#[derive(Default)]
struct Covered {
    sessions: PathKeys,
    coverage: Coverage,
}

/// What was made for some lookups, kept while they are the same (`same`).
type Kept<T> = (Vec<Arc<Lookup>>, Arc<T>);

/// What bounds each session's score by meaning without a product with each of its messages'
/// vectors (`meaning_bounds`): its centroid of unit length in codes as the store keeps a vector,
/// how far those codes are from it, and the length of its longest message vector. Summed from
/// every vector (~10 ms at 65 k) when the lookups change, so made only for a process's second
/// search on: a warm process (the MCP server, serve, Pi) pays it once, a command line never.
struct Outlines {
    /// Each session's number: its place in the columns below.
    numbers: ByPathKey<u32>,
    scales: Vec<f32>,
    codes: Vec<i8>,
    errors: Vec<f32>,
    longest: Vec<f32>,
    /// Each session's opening as the store keeps it (scale, None where the store has none, and
    /// codes), copied side by side so that bounding reads them in one sweep.
    opening_scales: Vec<Option<f32>>,
    opening_codes: Vec<i8>,
}

impl Outlines {
    /// The opening of session `n`, if the store holds its vector.
    fn opening(&self, n: usize) -> Option<(f32, &[i8])> {
        let scale = self.opening_scales[n]?;
        Some((
            scale,
            &self.opening_codes[n * DIMENSIONS..(n + 1) * DIMENSIONS],
        ))
    }
}

impl UnitCache {
    /// The units of each segment of `searcher`, in segment order; segments gone are forgotten.
    fn units(&self, searcher: &Searcher, fields: &Fields) -> Result<Vec<Arc<SegmentUnits>>> {
        let mut segments = self
            .segments
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let current: HashSet<SegmentId> = searcher
            .segment_readers()
            .iter()
            .map(SegmentReader::segment_id)
            .collect();
        segments.retain(|id, _| current.contains(id));
        let mut units = Vec::with_capacity(current.len());
        for (segment_ord, segment) in searcher.segment_readers().iter().enumerate() {
            if let Some(read) = segments.get(&segment.segment_id()) {
                units.push(Arc::clone(read));
                continue;
            }
            let mut read = SegmentUnits {
                docs: Vec::new(),
                path_keys: Vec::new(),
                session_of: Vec::new(),
                sessions: Vec::new(),
                runs: Vec::new(),
                indexes: Vec::new(),
                keys: Vec::new(),
                lookup: Mutex::new(None),
                openings: Vec::new(),
            };
            let mut numbers: ByPathKey<u32> = ByPathKey::default();
            for_each_unit_of(
                searcher,
                fields,
                &Filters::default(),
                Some(segment_ord),
                |unit| {
                    let number = *numbers.entry(unit.path_key).or_insert_with(|| {
                        read.sessions.push(unit.path_key);
                        read.sessions.len() as u32 - 1
                    });
                    read.session_of.push(number);
                    read.docs.push(unit.address.doc_id);
                    read.path_keys.push(unit.path_key);
                    read.indexes.push(unit.msg_index);
                    read.keys.push(unit.key);
                },
            )?;
            read.runs = vec![Vec::new(); read.sessions.len()];
            for (i, &number) in read.session_of.iter().enumerate() {
                let runs = &mut read.runs[number as usize];
                match runs.last_mut() {
                    Some((_, end)) if *end == i as u32 => *end += 1,
                    _ => runs.push((i as u32, i as u32 + 1)),
                }
            }
            for_each_opening_of(searcher, fields, Some(segment_ord), |opening| {
                read.openings
                    .push((opening.address.doc_id, opening.path_key, opening.key))
            })?;
            let read = Arc::new(read);
            segments.insert(segment.segment_id(), Arc::clone(&read));
            units.push(read);
        }
        Ok(units)
    }

    /// The length of each session's centroid, unnormed (`UnitCache::lengths`), for the segments'
    /// `lookups`: kept, read from the meaning folder (kept_lengths.rs), or from `sums` where the
    /// caller has them, else summed.
    fn lengths(
        &self,
        searcher: &Searcher,
        store: &Store,
        segments: &[Arc<SegmentUnits>],
        lookups: &[Arc<Lookup>],
        sums: Option<&Sums>,
    ) -> Arc<ByPathKey<f32>> {
        kept(&self.lengths, lookups, || {
            let fingerprint = lengths_fingerprint(searcher, store);
            if let Some(kept) = kept_lengths::read(store.dir(), fingerprint) {
                return Some(kept);
            }
            let lengths = match sums {
                Some(sums) => lengths_of(sums),
                None => lengths_of(&summed(searcher, store, segments, lookups)),
            };
            kept_lengths::write(store.dir(), fingerprint, &lengths);
            Some(lengths)
        })
        .unwrap_or_default()
    }

    /// Whether outlines are made: a search of both's first page is then bounded (bounded.rs).
    pub fn outlined(&self) -> bool {
        self.outlines
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .is_some()
    }

    /// The sessions' outlines for the segments' `lookups`, made when they changed, from the
    /// second time they are asked for on (`Outlines`).
    fn outlines(
        &self,
        searcher: &Searcher,
        store: &Store,
        segments: &[Arc<SegmentUnits>],
        lookups: &[Arc<Lookup>],
    ) -> Option<Arc<Outlines>> {
        kept(&self.outlines, lookups, || {
            if self.outlines_asked.fetch_add(1, Ordering::Relaxed) == 0 {
                return None;
            }
            let sums = summed(searcher, store, segments, lookups);
            // The same sums give the lengths, when those are not kept already.
            self.lengths(searcher, store, segments, lookups, Some(&sums));
            Some(outlined(sums, searcher, store, segments))
        })
    }
}

/// Each session's outline (`Outlines`) from its sum and longest vector, and its opening's vector
/// (that of its live opening unit, the last segment's where several hold one).
fn outlined(
    sums: Sums,
    searcher: &Searcher,
    store: &Store,
    segments: &[Arc<SegmentUnits>],
) -> Outlines {
    let mut outlines = Outlines {
        numbers: ByPathKey::default(),
        scales: Vec::new(),
        codes: Vec::new(),
        errors: Vec::new(),
        longest: Vec::new(),
        opening_scales: Vec::new(),
        opening_codes: Vec::new(),
    };
    for (key, (sum, longest)) in sums {
        let length = length_of(&sum);
        if length == 0.0 {
            continue;
        }
        let centroid: Vec<f32> = sum.iter().map(|x| x / length).collect();
        let (scale, codes) = quantize(&centroid);
        let error = centroid
            .iter()
            .zip(&codes)
            .map(|(x, &code)| (x - f32::from(code) * scale).powi(2))
            .sum::<f32>()
            .sqrt();
        outlines.numbers.insert(key, outlines.scales.len() as u32);
        outlines.scales.push(scale);
        outlines.codes.extend_from_slice(&codes);
        outlines.errors.push(error);
        outlines.longest.push(longest);
    }
    let sessions = outlines.scales.len();
    outlines.opening_scales = vec![None; sessions];
    outlines.opening_codes = vec![0; sessions * DIMENSIONS];
    for (path_key, key) in live_openings(searcher, segments) {
        let (Some(&n), Some(slot)) = (outlines.numbers.get(&path_key), store.slot(key)) else {
            continue;
        };
        let (n, (scale, codes)) = (n as usize, store.vector(slot));
        outlines.opening_scales[n] = Some(scale);
        outlines.opening_codes[n * DIMENSIONS..(n + 1) * DIMENSIONS].copy_from_slice(codes);
    }
    outlines
}

/// Each live opening unit's session and text key, segment by segment in the searcher's order.
fn live_openings<'a>(
    searcher: &'a Searcher,
    segments: &'a [Arc<SegmentUnits>],
) -> impl Iterator<Item = (u64, u64)> + 'a {
    segments
        .iter()
        .enumerate()
        .flat_map(move |(segment_ord, units)| {
            let alive = searcher.segment_reader(segment_ord as u32).alive_bitset();
            units
                .openings
                .iter()
                .filter(move |&&(doc, _, _)| alive.is_none_or(|alive| alive.is_alive(doc)))
                .map(|&(_, path_key, key)| (path_key, key))
        })
}

/// What the lengths of the centroids depend on: the segments of the index and their deletions,
/// and which vectors the store shows (kept_lengths.rs).
fn lengths_fingerprint(searcher: &Searcher, store: &Store) -> u64 {
    let (file, shown) = store.generation();
    let (device, inode) = file.unwrap_or_default();
    let mut fingerprint = [device, inode, shown as u64]
        .iter()
        .fold(0, |hash, n| path_key_after(hash, n.to_le_bytes()));
    for segment in searcher.segment_readers() {
        fingerprint = path_key_after(fingerprint, segment.segment_id().uuid_string());
        fingerprint = path_key_after(fingerprint, segment.num_deleted_docs().to_le_bytes());
    }
    fingerprint
}

/// The length of each session's centroid, unnormed: of its sum.
fn lengths_of(sums: &Sums) -> ByPathKey<f32> {
    sums.iter()
        .map(|(key, (sum, _))| (*key, length_of(sum)))
        .collect()
}

/// The length of a vector of floats.
fn length_of(vector: &[f32]) -> f32 {
    vector.iter().map(|x| x * x).sum::<f32>().sqrt()
}

/// Each session's sum of its live messages' vectors, and the length of the longest of them.
type Sums = ByPathKey<(Vec<f32>, f32)>;

/// The sessions' `Sums`, over every segment their messages lie in.
fn summed(
    searcher: &Searcher,
    store: &Store,
    segments: &[Arc<SegmentUnits>],
    lookups: &[Arc<Lookup>],
) -> Sums {
    let mut sums = Sums::default();
    for (segment_ord, (units, lookup)) in segments.iter().zip(lookups).enumerate() {
        let alive = searcher.segment_reader(segment_ord as u32).alive_bitset();
        // A session's messages mostly lie in runs: its sum is looked up once a run.
        let mut run: Option<(u64, (Vec<f32>, f32))> = None;
        for (i, &doc) in units.docs.iter().enumerate() {
            let slot = lookup.slots[i];
            if slot == NO_SLOT || alive.is_some_and(|alive| !alive.is_alive(doc)) {
                continue;
            }
            let key = units.path_keys[i];
            let sum = match &mut run {
                Some((session, sum)) if *session == key => sum,
                _ => {
                    if let Some((session, sum)) = run.take() {
                        sums.insert(session, sum);
                    }
                    let sum = sums
                        .remove(&key)
                        .unwrap_or_else(|| (vec![0f32; DIMENSIONS], 0.0));
                    &mut run.insert((key, sum)).1
                }
            };
            store.add_to(slot, &mut sum.0);
            sum.1 = sum.1.max(store.length(slot));
        }
        if let Some((session, sum)) = run {
            sums.insert(session, sum);
        }
    }
    sums
}

/// Where each segment's units' vectors are in `store` (`SegmentUnits::lookup`), in segment order.
fn lookups(searcher: &Searcher, store: &Store, segments: &[Arc<SegmentUnits>]) -> Vec<Arc<Lookup>> {
    segments
        .iter()
        .enumerate()
        .map(|(segment_ord, units)| {
            units.lookup(store, searcher.segment_reader(segment_ord as u32))
        })
        .collect()
}

/// What `held` keeps for `lookups` (the very same ones), else what `make` makes, then kept; None
/// where `make` makes nothing. The lock is held while it makes, so two searches make it once.
fn kept_for<T, E>(
    held: &Mutex<Option<Kept<T>>>,
    lookups: &[Arc<Lookup>],
    make: impl FnOnce() -> std::result::Result<Option<T>, E>,
) -> std::result::Result<Option<Arc<T>>, E> {
    let mut held = held
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((seen, made)) = held.as_ref() {
        let same =
            seen.len() == lookups.len() && seen.iter().zip(lookups).all(|(a, b)| Arc::ptr_eq(a, b));
        if same {
            return Ok(Some(Arc::clone(made)));
        }
    }
    let Some(made) = make()?.map(Arc::new) else {
        return Ok(None);
    };
    *held = Some((lookups.to_vec(), Arc::clone(&made)));
    Ok(Some(made))
}

/// `kept_for` where making cannot fail.
fn kept<T>(
    held: &Mutex<Option<Kept<T>>>,
    lookups: &[Arc<Lookup>],
    make: impl FnOnce() -> Option<T>,
) -> Option<Arc<T>> {
    let Ok(kept) = kept_for(held, lookups, || Ok::<_, std::convert::Infallible>(make()));
    kept
}

/// With filters, a weight of the messages they keep (read segment by segment by `kept_by`).
fn scope(
    searcher: &Searcher,
    fields: &Fields,
    filters: &Filters,
) -> Result<Option<Box<dyn Weight>>> {
    if filters.clauses(fields).is_empty() {
        return Ok(None);
    }
    let messages = filtered(kind_is(fields, KIND_MESSAGE), filters, fields);
    Ok(Some(
        messages.weight(EnableScoring::disabled_from_searcher(searcher))?,
    ))
}

/// The documents of one segment that `scope` (a weight of the messages the filters keep) keeps,
/// as bits by document id.
fn kept_by(scope: &dyn Weight, segment: &SegmentReader) -> Result<Vec<u64>> {
    let mut kept = vec![0u64; (segment.max_doc() as usize).div_ceil(64)];
    scope.for_each_no_score(segment, &mut |docs| {
        for &doc in docs {
            kept[doc as usize / 64] |= 1 << (doc % 64);
        }
    })?;
    Ok(kept)
}

/// Which sessions a search by meaning scores: all, or only these (those the words found, when
/// no other session could be a hit): the same scores for them, without a product for the rest.
#[derive(Clone, Copy)]
pub enum Scored<'a> {
    All,
    Only(&'a PathKeys),
}

/// Each session's best message by meaning (cosine with `query`, a vector of length 1) among the
/// messages matching `filters`, of the sessions `scored`, and how many of the messages in scope
/// the store covers, of those sessions (`meaning_coverage`: of all).
pub fn meaning_candidates(
    searcher: &Searcher,
    fields: &Fields,
    store: &Store,
    cache: &UnitCache,
    query: &[f32],
    filters: &Filters,
    scored: Scored,
) -> Result<(BySession, Coverage)> {
    // Every vector's cosine in one pass, or one vector's at a time: the same products.
    let (all, one) = match scored {
        Scored::All => (store.scores(query), None),
        Scored::Only(_) => (Vec::new(), Some(store.scorer(query))),
    };
    let score = |slot: u32| match &one {
        Some(scorer) => scorer.score(slot),
        None => all[slot as usize],
    };
    let mut found = BySession::default();
    let mut coverage = Coverage::default();
    // With filters, the messages they keep; built once, read segment by segment.
    let scope = scope(searcher, fields, filters)?;
    let segments = cache.units(searcher, fields)?;
    let lookups = lookups(searcher, store, &segments);
    let lengths = cache.lengths(searcher, store, &segments, &lookups, None);
    // The sum of each session's messages' cosines, in scope or not (its centroid's, unnormed),
    // over all its segments: added up a run of a session's messages at a time, in their order.
    let mut towards = CosineSums::default();
    for (segment_ord, (units, lookup)) in segments.iter().zip(&lookups).enumerate() {
        let segment = searcher.segment_reader(segment_ord as u32);
        let alive = segment.alive_bitset();
        let kept = match &scope {
            Some(scope) => Some(kept_by(scope.as_ref(), segment)?),
            None => None,
        };
        let slots = &lookup.slots;
        // The units read: all, or the runs of the sessions scored, in the order of the segment.
        let read: Vec<(u32, u32)> = match scored {
            Scored::All => vec![(0, units.docs.len() as u32)],
            Scored::Only(keys) => {
                let mut runs: Vec<(u32, u32)> = units
                    .sessions
                    .iter()
                    .zip(&units.runs)
                    .filter(|(key, _)| keys.contains(key))
                    .flat_map(|(_, runs)| runs.iter().copied())
                    .collect();
                runs.sort_unstable();
                runs
            }
        };
        let units_read = || {
            read.iter()
                .flat_map(|&(start, end)| start as usize..end as usize)
        };
        // Scored one at a time, the vector PREFETCHED units ahead is brought in meanwhile.
        let mut ahead =
            units_read()
                .skip(PREFETCHED)
                .take(if one.is_some() { usize::MAX } else { 0 });
        // A session's messages mostly lie in runs: each run of them is one entry of `found`.
        let mut run: Option<(u64, SessionCandidates)> = None;
        for i in units_read() {
            if let Some(slot) = ahead
                .next()
                .map(|i| slots[i])
                .filter(|&slot| slot != NO_SLOT)
            {
                store.prefetch(slot);
            }
            let doc = units.docs[i];
            if alive.is_some_and(|alive| !alive.is_alive(doc)) {
                continue;
            }
            let slot = slots[i];
            let in_scope = kept
                .as_ref()
                .is_none_or(|kept| kept[doc as usize / 64] & (1 << (doc % 64)) != 0);
            let path_key = units.path_keys[i];
            if run.as_ref().is_some_and(|(key, _)| *key != path_key) {
                if let Some((key, candidates)) = run.take() {
                    found.entry(key).or_default().merge(candidates);
                }
            }
            // One product per unit: its cosine counts towards the centroid and as a candidate.
            let cosine = match slot {
                NO_SLOT => 0.0,
                slot => score(slot),
            };
            if slot != NO_SLOT {
                towards.add(path_key, cosine);
            }
            if !in_scope {
                continue;
            }
            coverage.messages += 1;
            if slot == NO_SLOT {
                continue;
            }
            coverage.embedded += 1;
            let candidate = Candidate {
                message: Some(units.indexes[i]),
                score: cosine,
                origin: Origin {
                    part: Part::Main,
                    address: DocAddress::new(segment_ord as u32, doc),
                },
            };
            run.get_or_insert_with(|| (path_key, SessionCandidates::default()))
                .1
                .offer(candidate);
        }
        if let Some((key, candidates)) = run {
            found.entry(key).or_default().merge(candidates);
        }
    }
    // Each session's centroid's cosine with the query.
    let centroids: ByPathKey<f32> = towards
        .sums()
        .into_iter()
        .filter_map(|(key, sum)| {
            let length = *lengths.get(&key).filter(|length| **length > 0.0)?;
            Some((key, sum / length))
        })
        .collect();
    // Each session found is weighed with its opening, when the store holds its vector.
    let mut openings: ByPathKey<f32> = ByPathKey::default();
    for (path_key, key) in live_openings(searcher, &segments) {
        if let (true, Some(slot)) = (found.contains_key(&path_key), store.slot(key)) {
            openings.insert(path_key, score(slot));
        }
    }
    for (path_key, session) in found.iter_mut() {
        let Some(best) = session.best.as_mut() else {
            continue;
        };
        let opening = openings.get(path_key).copied();
        best.score = weighed(best.score, opening, centroids.get(path_key).copied());
    }
    Ok((found, coverage))
}

/// How many units ahead of the one scored its vector is prefetched, when sessions are scored one
/// at a time (`Store::prefetch`).
const PREFETCHED: usize = 16;

/// What `meaning_bounds` finds.
pub struct Bounds {
    /// The most each session bounded could score by meaning, before recency.
    pub by_session: ByPathKey<f32>,
    /// How many of the messages in scope the store covers, of all sessions.
    pub coverage: Coverage,
    /// How many sessions the store has a vector of a message of, in scope or not.
    pub sessions: usize,
}

/// What the f32 sums of a session's cosines may differ by from its outline's product, at most
/// (a few hundred roundings of numbers under 1), beyond the outline's own error.
const ROUNDING: f32 = 1e-3;

/// The most each session could score by meaning for `query` (a vector of length 1), `weighed` as
/// `meaning_candidates` weighs it before recency, of the sessions that have a message in scope
/// (`filters`) with a vector: its opening's cosine as it is, its best message's at most the
/// query's length times its longest vector's, its centroid's at most its outline's product plus
/// the outline's error; of the sessions `bounded`. And the coverage of all sessions, as
/// `meaning_candidates` counts it. None while the outlines are not made (a process's first
/// search): then the sessions are scored.
pub fn meaning_bounds(
    searcher: &Searcher,
    fields: &Fields,
    store: &Store,
    cache: &UnitCache,
    query: &[f32],
    filters: &Filters,
    bounded: Scored,
) -> Result<Option<Bounds>> {
    let segments = cache.units(searcher, fields)?;
    let lookups = lookups(searcher, store, &segments);
    let Some(outlines) = cache.outlines(searcher, store, &segments, &lookups) else {
        return Ok(None);
    };
    let scorer = store.scorer(query);
    let query_length = scorer.query_length();
    let covered = in_scope(searcher, fields, cache, &segments, &lookups, filters)?;
    let only: PathKeys;
    let found = match bounded {
        Scored::All => &covered.sessions,
        Scored::Only(keys) => {
            only = keys
                .iter()
                .filter(|key| covered.sessions.contains(*key))
                .copied()
                .collect();
            &only
        }
    };
    let bounds = found
        .iter()
        .map(|&key| {
            let bound = match outlines.numbers.get(&key) {
                Some(&n) => {
                    let n = n as usize;
                    let opening = outlines
                        .opening(n)
                        .map(|(scale, codes)| scorer.score_codes(scale, codes));
                    let codes = &outlines.codes[n * DIMENSIONS..(n + 1) * DIMENSIONS];
                    let centroid = scorer.score_codes(outlines.scales[n], codes)
                        + query_length * outlines.errors[n]
                        + ROUNDING;
                    let best = query_length * outlines.longest[n] + ROUNDING;
                    weighed(best, opening, Some(centroid))
                }
                // A session with a vector has an outline; were it missing, nothing is bounded.
                None => f32::INFINITY,
            };
            (key, bound)
        })
        .collect();
    Ok(Some(Bounds {
        by_session: bounds,
        coverage: covered.coverage,
        sessions: outlines.scales.len(),
    }))
}

/// How many of the messages in scope (`filters`) the store covers, of all sessions.
pub fn meaning_coverage(
    searcher: &Searcher,
    fields: &Fields,
    store: &Store,
    cache: &UnitCache,
    filters: &Filters,
) -> Result<Coverage> {
    let segments = cache.units(searcher, fields)?;
    let lookups = lookups(searcher, store, &segments);
    Ok(in_scope(searcher, fields, cache, &segments, &lookups, filters)?.coverage)
}

/// The sessions with a message in scope (`filters`) the store has a vector of, and how many of
/// the messages in scope the store covers: without filters, counted once for the same lookups.
fn in_scope(
    searcher: &Searcher,
    fields: &Fields,
    cache: &UnitCache,
    segments: &[Arc<SegmentUnits>],
    lookups: &[Arc<Lookup>],
    filters: &Filters,
) -> Result<Arc<Covered>> {
    let count = || counted(searcher, fields, segments, lookups, filters).map(Some);
    let covered = match filters.clauses(fields).is_empty() {
        true => kept_for(&cache.covered, lookups, count)?,
        false => count()?.map(Arc::new),
    };
    Ok(covered.unwrap_or_default())
}

/// `in_scope`'s count.
fn counted(
    searcher: &Searcher,
    fields: &Fields,
    segments: &[Arc<SegmentUnits>],
    lookups: &[Arc<Lookup>],
    filters: &Filters,
) -> Result<Covered> {
    let scope = scope(searcher, fields, filters)?;
    let mut covered = Covered::default();
    for (segment_ord, (units, lookup)) in segments.iter().zip(lookups).enumerate() {
        let segment = searcher.segment_reader(segment_ord as u32);
        let alive = segment.alive_bitset();
        let kept = match &scope {
            Some(scope) => Some(kept_by(scope.as_ref(), segment)?),
            None => None,
        };
        let mut embedded = vec![false; units.sessions.len()];
        for (i, &doc) in units.docs.iter().enumerate() {
            let in_scope = alive.is_none_or(|alive| alive.is_alive(doc))
                && kept
                    .as_ref()
                    .is_none_or(|kept| kept[doc as usize / 64] & (1 << (doc % 64)) != 0);
            if in_scope {
                covered.coverage.messages += 1;
                if lookup.slots[i] != NO_SLOT {
                    covered.coverage.embedded += 1;
                    embedded[units.session_of[i] as usize] = true;
                }
            }
        }
        covered.sessions.extend(
            units
                .sessions
                .iter()
                .zip(embedded)
                .filter_map(|(key, embedded)| embedded.then_some(*key)),
        );
    }
    Ok(covered)
}

/// A session's messages as `nearest_sessions` adds them up.
struct Centroid {
    /// The sum of its messages' vectors.
    sum: Vec<f32>,
    /// The sum of their cosines with the session asked about: the sum's dot product with it.
    towards: f32,
    nearest: SessionCandidates,
}

/// The sessions in scope (`filters`) nearest in meaning to the session of the file `path`: each
/// scored by the cosine of its centroid with that session's, its best message the one nearest
/// that centroid; and how many of the messages in scope the store covers. None when the store
/// holds no vector of that session's messages.
pub fn nearest_sessions(
    searcher: &Searcher,
    fields: &Fields,
    store: &Store,
    path: &str,
    filters: &Filters,
) -> Result<(Option<BySession>, Coverage)> {
    let mut centre = vec![0f32; DIMENSIONS];
    let own = Filters {
        paths: Some(vec![path.to_owned()]),
        ..Filters::default()
    };
    for_each_unit(searcher, fields, &own, |unit| {
        if let Some(slot) = store.slot(unit.key) {
            store.add_to(slot, &mut centre);
        }
    })?;
    let mut coverage = Coverage::default();
    let length = centre.iter().map(|x| x * x).sum::<f32>().sqrt();
    if length == 0.0 {
        return Ok((None, coverage));
    }
    centre.iter_mut().for_each(|x| *x /= length);
    let scores = store.scores(&centre);
    let mut sessions: ByPathKey<Centroid> = ByPathKey::default();
    for_each_unit(searcher, fields, filters, |unit| {
        coverage.messages += 1;
        let Some(slot) = store.slot(unit.key) else {
            return;
        };
        coverage.embedded += 1;
        let score = scores[slot as usize];
        let session = sessions.entry(unit.path_key).or_insert_with(|| Centroid {
            sum: vec![0f32; DIMENSIONS],
            towards: 0.0,
            nearest: SessionCandidates::default(),
        });
        store.add_to(slot, &mut session.sum);
        session.towards += score;
        session.nearest.offer(Candidate {
            message: Some(unit.msg_index),
            score,
            origin: Origin {
                part: Part::Main,
                address: unit.address,
            },
        });
    })?;
    let found = sessions
        .into_iter()
        .filter_map(|(key, session)| {
            let length = session.sum.iter().map(|x| x * x).sum::<f32>().sqrt();
            let message = session.nearest.best_message.filter(|_| length > 0.0)?;
            let best = Candidate {
                score: session.towards / length,
                ..message
            };
            Some((
                key,
                SessionCandidates {
                    best: Some(best),
                    best_message: Some(message),
                },
            ))
        })
        .collect();
    Ok((Some(found), coverage))
}
