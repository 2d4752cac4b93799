//! From what the user typed to a Tantivy query. Any string is accepted: the text is cut with the
//! index's own analyzer, so `foo:bar (baz*` is just the words `foo bar baz`, never a syntax error.
//!
//! Rules (the seed's, kept): loose words are OR'ed; when there are two or more, the whole run of
//! loose words is also an exact-phrase clause boosted 10×; every word also matches tag text with a
//! 4× boost. Beyond the seed: a balanced `"quoted phrase"` is required; session names are
//! searchable with tags (the session document's tag text holds both); and with prefix matching
//! on, an unfinished last word also matches as a prefix, in messages and in tags and names,
//! weaker than whole words.

use std::ops::Bound;

use tantivy::collector::DocSetCollector;
use tantivy::query::{
    BooleanQuery, BoostQuery, ConstScoreQuery, EmptyQuery, Occur, PhraseQuery, Query, RangeQuery,
    TermQuery,
};
use tantivy::schema::document::Value;
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{Searcher, TantivyDocument, Term};

use crate::clauses::any_term::AnyTerm;
use crate::clauses::coordinated::Coordinated;
use crate::clauses::field_presence::{holds_terms, InField};
use crate::clauses::required_first::RequiredFirst;
use crate::index::schema::{kind_is, Fields, KIND_SESSION};
use crate::index::text_kind::TextKind;
use crate::search::coordination::Coordination;
use crate::words::tokenizer::words;

pub const PHRASE_BOOST: f32 = 10.0;
pub const TAG_BOOST: f32 = 4.0;
pub const PREFIX_BOOST: f32 = 0.5;
/// Added to a document's score for each distinct query word it contains, on top of BM25, times
/// how much the word tells (coordination.rs): a message holding more of the telling words ranks
/// above one holding fewer, while any single word still matches (OR recall is kept).
pub const DEFAULT_COORDINATION: f32 = 6.0;
/// A prefix shorter than this would expand to too much of the dictionary to mean anything.
pub const MIN_PREFIX_CHARS: usize = 2;
/// The prefix clause keeps the most frequent completions only.
pub const MAX_PREFIX_EXPANSIONS: usize = 50;

#[derive(Debug, Default, PartialEq)]
pub struct ParsedQuery {
    /// Unquoted words in query order, duplicates kept (for the phrase clause).
    pub loose: Vec<String>,
    /// Quoted parts, each required; one word is a required word, several a required phrase.
    pub required: Vec<Vec<String>>,
    /// The unfinished last word, when prefix matching applies.
    pub prefix: Option<String>,
}

impl ParsedQuery {
    pub fn is_empty(&self) -> bool {
        self.loose.is_empty() && self.required.is_empty()
    }

    /// Every distinct word of the query, in first-seen order.
    pub fn distinct_words(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for word in self.loose.iter().chain(self.required.iter().flatten()) {
            if !out.contains(word) {
                out.push(word.clone());
            }
        }
        out
    }
}

pub fn parse(text: &str, prefix: bool) -> ParsedQuery {
    let mut parsed = ParsedQuery::default();
    let mut unquoted = String::new();
    let quote_count = text.matches('"').count();
    // An odd quote count leaves the last quote unmatched: it is taken literally (and the
    // analyzer drops it), so an unfinished `"staging dep` still searches its words.
    let balanced_quotes = quote_count - quote_count % 2;
    let mut seen_quotes = 0;
    let mut in_quote = false;
    let mut quoted = String::new();
    for ch in text.chars() {
        if ch == '"' && seen_quotes < balanced_quotes {
            seen_quotes += 1;
            if in_quote {
                let phrase = words(&quoted);
                if !phrase.is_empty() {
                    parsed.required.push(phrase);
                }
                quoted.clear();
                unquoted.push(' ');
            }
            in_quote = !in_quote;
            continue;
        }
        if in_quote {
            quoted.push(ch);
        } else {
            unquoted.push(ch);
        }
    }
    parsed.loose = words(&unquoted);
    if prefix {
        parsed.prefix = unfinished_last_word(text, &parsed.loose);
    }
    parsed
}

/// The last loose word, if the text ends inside it (no trailing space or punctuation).
fn unfinished_last_word(text: &str, loose: &[String]) -> Option<String> {
    let last = loose.last()?;
    let ends_in_word = text.chars().last().is_some_and(char::is_alphanumeric);
    (ends_in_word && last.chars().count() >= MIN_PREFIX_CHARS).then(|| last.clone())
}

/// Restrictions applied inside the query, before the top documents are collected.
#[derive(Debug, Default, Clone)]
pub struct Filters {
    /// Only sessions whose cwd is one of these.
    pub cwds: Option<Vec<String>>,
    /// Only these session ids (from tag filters).
    pub session_ids: Option<Vec<String>>,
    pub exclude_session_ids: Vec<String>,
    /// Message time (or, on session documents, last activity) bounds, ms since epoch.
    pub since: Option<i64>,
    pub until: Option<i64>,
    /// Tags a session must all carry, and tags it must carry none of (exact, normalized).
    pub tags_all: Vec<String>,
    pub tags_none: Vec<String>,
    /// Only these session files (by path).
    pub paths: Option<Vec<String>>,
}

impl Filters {
    /// The tag filters as session id filters, from the tags on the session documents; None when
    /// no session carries every wanted tag (nothing can match).
    pub fn with_tags_resolved(
        &self,
        searcher: &Searcher,
        fields: &Fields,
    ) -> tantivy::Result<Option<Filters>> {
        let mut resolved = Filters {
            tags_all: Vec::new(),
            tags_none: Vec::new(),
            ..self.clone()
        };
        if !self.tags_all.is_empty() {
            let tagged = session_ids_tagged(searcher, fields, &self.tags_all, Occur::Must)?;
            let ids: Vec<String> = match &self.session_ids {
                Some(wanted) => tagged
                    .into_iter()
                    .filter(|id| wanted.contains(id))
                    .collect(),
                None => tagged,
            };
            if ids.is_empty() {
                return Ok(None);
            }
            resolved.session_ids = Some(ids);
        }
        if !self.tags_none.is_empty() {
            resolved.exclude_session_ids.extend(session_ids_tagged(
                searcher,
                fields,
                &self.tags_none,
                Occur::Should,
            )?);
        }
        Ok(Some(resolved))
    }

    pub fn clauses(&self, fields: &Fields) -> Vec<(Occur, Box<dyn Query>)> {
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        let set = |field, values: &[String]| -> Box<dyn Query> {
            Box::new(ConstScoreQuery::new(
                Box::new(AnyTerm::new(field, values)),
                0.0,
            ))
        };
        if let Some(cwds) = &self.cwds {
            clauses.push((Occur::Must, set(fields.cwd, cwds)));
        }
        if let Some(ids) = &self.session_ids {
            clauses.push((Occur::Must, set(fields.session_id, ids)));
        }
        if let Some(paths) = &self.paths {
            clauses.push((Occur::Must, set(fields.path, paths)));
        }
        if !self.exclude_session_ids.is_empty() {
            clauses.push((
                Occur::MustNot,
                set(fields.session_id, &self.exclude_session_ids),
            ));
        }
        if self.since.is_some() || self.until.is_some() {
            let bound = |v: Option<i64>| match v {
                Some(ms) => Bound::Included(Term::from_field_i64(fields.ts, ms)),
                None => Bound::Unbounded,
            };
            let range = RangeQuery::new(bound(self.since), bound(self.until));
            clauses.push((
                Occur::Must,
                Box::new(ConstScoreQuery::new(Box::new(range), 0.0)),
            ));
        }
        clauses
    }
}

/// Session ids of the session documents carrying every tag (`Occur::Must`) or any (`Occur::Should`).
fn session_ids_tagged(
    searcher: &Searcher,
    fields: &Fields,
    tags: &[String],
    occur: Occur,
) -> tantivy::Result<Vec<String>> {
    let mut clauses = vec![(Occur::Must, kind_is(fields, KIND_SESSION))];
    let tag_clauses: Vec<(Occur, Box<dyn Query>)> = tags
        .iter()
        .map(|tag| {
            (
                occur,
                term_clause(fields.tags, tag, IndexRecordOption::Basic),
            )
        })
        .collect();
    clauses.push((Occur::Must, Box::new(BooleanQuery::new(tag_clauses))));
    let mut ids = Vec::new();
    for address in searcher.search(&BooleanQuery::new(clauses), &DocSetCollector)? {
        let doc: TantivyDocument = searcher.doc(address)?;
        if let Some(id) = doc.get_first(fields.session_id).and_then(|v| v.as_str()) {
            ids.push(id.to_owned());
        }
    }
    ids.sort();
    ids.dedup();
    Ok(ids)
}

/// Completions of `prefix` in one field's dictionary, most frequent first.
pub fn prefix_expansions(
    searcher: &Searcher,
    field: Field,
    prefix: &str,
) -> tantivy::Result<Vec<String>> {
    let mut upper = prefix.as_bytes().to_vec();
    upper.push(0xff);
    let mut found: std::collections::HashMap<Vec<u8>, u64> = std::collections::HashMap::new();
    for segment in searcher
        .segment_readers()
        .iter()
        .filter(|segment| holds_terms(segment, field))
    {
        let inverted = segment.inverted_index(field)?;
        let mut stream = inverted
            .terms()
            .range()
            .ge(prefix.as_bytes())
            .lt(&upper)
            .into_stream()?;
        while stream.advance() {
            if stream.key() != prefix.as_bytes() {
                *found.entry(stream.key().to_vec()).or_default() +=
                    u64::from(stream.value().doc_freq);
            }
        }
    }
    let mut ranked: Vec<(Vec<u8>, u64)> = found.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    Ok(ranked
        .into_iter()
        .take(MAX_PREFIX_EXPANSIONS)
        .filter_map(|(bytes, _)| String::from_utf8(bytes).ok())
        .collect())
}

/// One term of `field`, as a clause that skips the segments without the field's terms.
fn term_clause(field: Field, text: &str, record: IndexRecordOption) -> Box<dyn Query> {
    Box::new(InField::new(
        field,
        Box::new(TermQuery::new(Term::from_field_text(field, text), record)),
    ))
}

/// `word` in `field`, scored (its frequencies read), skipping segments without terms of `field`.
pub fn term_query(field: Field, word: &str) -> Box<dyn Query> {
    term_clause(field, word, IndexRecordOption::WithFreqs)
}

/// `words` in a row; in text kept without positions (`TextKind::kept_whole`), all of them anywhere.
fn phrase_or_term(field: Field, words: &[String], positions: bool) -> Box<dyn Query> {
    if words.len() == 1 {
        return term_query(field, &words[0]);
    }
    if !positions {
        return Box::new(BooleanQuery::new(
            words
                .iter()
                .map(|w| (Occur::Must, term_query(field, w)))
                .collect(),
        ));
    }
    let terms = words
        .iter()
        .map(|w| Term::from_field_text(field, w))
        .collect();
    Box::new(InField::new(field, Box::new(PhraseQuery::new(terms))))
}

/// `query` with the weight of its kind of text (conversation, at 1, as it is).
fn weighted(kind: TextKind, boost: f32, query: Box<dyn Query>) -> Box<dyn Query> {
    let boost = boost * kind.weight();
    if boost == 1.0 {
        query
    } else {
        Box::new(BoostQuery::new(query, boost))
    }
}

/// The same query on the field of each kind, weighted: one clause for one kind, else any of them.
fn in_any_kind(kinds: &[TextKind], make: impl Fn(TextKind) -> Box<dyn Query>) -> Box<dyn Query> {
    if let [kind] = kinds {
        return weighted(*kind, 1.0, make(*kind));
    }
    let clauses = kinds
        .iter()
        .map(|kind| (Occur::Should, weighted(*kind, 1.0, make(*kind))))
        .collect();
    Box::new(BooleanQuery::new(clauses))
}

/// The text part of the query: which documents match and how they score before grouping. Each
/// document holds one kind of text, so a kind's weight scales everything its document scores by
/// its text. `expansions` holds the completions of the unfinished word in each kind's field, in
/// the order of `kinds`; `tags`, when session text (tags, names) is searched too, the completions
/// there.
pub fn text_query(
    parsed: &ParsedQuery,
    kinds: &[TextKind],
    expansions: &[Vec<String>],
    tags: Option<&[String]>,
    coordination: &Coordination,
    fields: &Fields,
) -> Box<dyn Query> {
    if parsed.is_empty() || (kinds.is_empty() && tags.is_none()) {
        return Box::new(EmptyQuery);
    }
    let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
    for phrase in &parsed.required {
        clauses.push((
            Occur::Must,
            in_any_kind(kinds, |kind| {
                phrase_or_term(kind.field(fields), phrase, kind.kept_whole())
            }),
        ));
    }
    let words = parsed.distinct_words();
    // With one word, coordination would add the same constant to every match: skip its cost.
    let coordinate = words.len() > 1;
    // The constant rides on the word's own clause: one reading of its postings (coordinated.rs).
    let coordinated = |query: Box<dyn Query>, constant: f32| -> Box<dyn Query> {
        if coordinate && constant > 0.0 {
            Box::new(Coordinated::new(query, constant))
        } else {
            query
        }
    };
    for word in words {
        for kind in kinds {
            let scored = weighted(*kind, 1.0, term_query(kind.field(fields), &word));
            clauses.push((
                Occur::Should,
                coordinated(
                    scored,
                    coordination.of(kind.field(fields), &word) * kind.weight(),
                ),
            ));
        }
        if tags.is_some() {
            let in_tags = Box::new(BoostQuery::new(
                term_query(fields.tag_text, &word),
                TAG_BOOST,
            ));
            clauses.push((
                Occur::Should,
                coordinated(in_tags, coordination.of(fields.tag_text, &word)),
            ));
        }
    }
    if parsed.loose.len() >= 2 {
        // Text without positions has no phrase to boost: coordination already rewards all the words.
        for kind in kinds.iter().filter(|kind| kind.kept_whole()) {
            let phrase = phrase_or_term(kind.field(fields), &parsed.loose, true);
            clauses.push((
                Occur::Should,
                Box::new(BoostQuery::new(phrase, PHRASE_BOOST * kind.weight())),
            ));
        }
    }
    for (kind, completions) in kinds.iter().zip(expansions) {
        if completions.is_empty() {
            continue;
        }
        let field = kind.field(fields);
        let union = Box::new(BooleanQuery::new(
            completions
                .iter()
                .map(|w| (Occur::Should, term_query(field, w)))
                .collect(),
        ));
        clauses.push((
            Occur::Should,
            Box::new(BoostQuery::new(union, PREFIX_BOOST * kind.weight())),
        ));
    }
    if let Some(tag_expansions) = tags.filter(|completions| !completions.is_empty()) {
        let union = tag_expansions
            .iter()
            .map(|w| (Occur::Should, term_query(fields.tag_text, w)))
            .collect();
        clauses.push((
            Occur::Should,
            Box::new(BoostQuery::new(
                Box::new(BooleanQuery::new(union)),
                PREFIX_BOOST * TAG_BOOST,
            )),
        ));
    }
    with_required_first(clauses)
}

/// `clauses` as one query: with a required clause (a quoted phrase), the optional ones are read
/// only where the required ones match (required_first.rs).
fn with_required_first(clauses: Vec<(Occur, Box<dyn Query>)>) -> Box<dyn Query> {
    let (mut required, optional): (Vec<_>, Vec<_>) = clauses
        .into_iter()
        .partition(|(occur, _)| *occur == Occur::Must);
    if required.is_empty() {
        return Box::new(BooleanQuery::new(optional));
    }
    let required = if required.len() == 1 {
        required.remove(0).1
    } else {
        Box::new(BooleanQuery::new(required))
    };
    Box::new(RequiredFirst::new(
        required,
        optional.into_iter().map(|(_, query)| query).collect(),
    ))
}

/// The text query intersected with the filters.
pub fn filtered(text: Box<dyn Query>, filters: &Filters, fields: &Fields) -> Box<dyn Query> {
    let filter_clauses = filters.clauses(fields);
    if filter_clauses.is_empty() {
        return text;
    }
    let mut clauses = vec![(Occur::Must, text)];
    clauses.extend(filter_clauses);
    Box::new(BooleanQuery::new(clauses))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owned(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn loose_words_and_quoted_phrases() {
        let parsed = parse(r#"deploy "staging cluster" nginx"#, false);
        assert_eq!(parsed.loose, owned(&["deploy", "nginx"]));
        assert_eq!(parsed.required, vec![owned(&["staging", "cluster"])]);
    }

    #[test]
    fn odd_syntax_degrades_to_words() {
        assert_eq!(
            parse(r#""unbalanced quote"#, false).loose,
            owned(&["unbalanced", "quote"])
        );
        assert_eq!(
            parse("field:value (paren* OR", false).loose,
            owned(&["field", "value", "paren", "or"])
        );
        assert!(parse("*** ( ) :", false).is_empty());
        assert!(parse("", false).is_empty());
    }

    #[test]
    fn prefix_only_for_an_unfinished_last_word() {
        assert_eq!(parse("staging dep", true).prefix.as_deref(), Some("dep"));
        assert_eq!(parse("staging dep ", true).prefix, None);
        assert_eq!(parse("staging d", true).prefix, None);
        assert_eq!(parse("staging dep", false).prefix, None);
        assert_eq!(parse("\"staging dep\"", true).prefix, None);
    }
}
