//! Snippets: about `chars` characters of a matched text around its best-scoring matched words
//! (the rarer a word, the more it counts), with those words as byte ranges into the snippet. A
//! search makes them for the texts the index keeps; the text of a kind it does not keep (tool
//! output, `TextKind::kept_whole`) is read back from the session file by the caller and given to
//! `snippets_of`.

use std::collections::BTreeMap;

use tantivy::query::Bm25StatisticsProvider;
use tantivy::snippet::{collapse_overlapped_ranges, SnippetGenerator};
use tantivy::{Score, Term};

use crate::error::Result;
use crate::index::schema::Fields;
use crate::index::text_kind::TextKind;
use crate::search::correction::{corrected, searched_fields, Typos};
use crate::search::query::{parse, prefix_expansions, ParsedQuery};
use crate::search::searchers::Searchers;
use crate::search::statistics::LiveStatistics;
use crate::words::tokenizer::analyzer;

/// A snippet and the byte ranges of its matched words.
pub type Snippet = (String, Vec<(usize, usize)>);

/// The snippet of each of `texts`, text of `kind`, for `query` as a search of the `searched` kinds
/// (with `prefix` matching, and its `typos`) finds it.
#[allow(clippy::too_many_arguments)]
pub fn snippets_of(
    searchers: &Searchers,
    fields: &Fields,
    query: &str,
    prefix: bool,
    typos: Typos,
    kind: TextKind,
    searched: &[TextKind],
    texts: &[String],
    chars: usize,
) -> Result<Vec<Snippet>> {
    let statistics = LiveStatistics::new(searchers, fields);
    let parsed = corrected(
        parse(query, prefix),
        &statistics,
        searchers,
        &searched_fields(searched, fields),
        typos,
    )?
    .parsed;
    let field = kind.field(fields);
    let completions = match (&parsed.prefix, searchers.of_kind(kind)) {
        (Some(unfinished), Some(searcher)) => prefix_expansions(searcher, field, unfinished)?,
        _ => Vec::new(),
    };
    let generator = snippet_generator(&statistics, field, &parsed, &completions, chars)?;
    Ok(texts
        .iter()
        .map(|text| make_snippet(&generator, text, chars))
        .collect())
}

pub fn snippet_generator(
    statistics: &LiveStatistics,
    field: tantivy::schema::Field,
    parsed: &ParsedQuery,
    expansions: &[String],
    chars: usize,
) -> Result<SnippetGenerator> {
    let mut terms = BTreeMap::new();
    for word in parsed.distinct_words().iter().chain(expansions) {
        let doc_freq = statistics.doc_freq(&Term::from_field_text(field, word))?;
        if doc_freq > 0 {
            terms.insert(word.clone(), 1.0 / (1.0 + doc_freq as Score));
        }
    }
    Ok(SnippetGenerator::new(terms, analyzer(), field, chars))
}

/// Punctuation kept after a fragment's last word: enough for `!`, `?!` or `.)`, never a run of it.
const CLOSING_PUNCTUATION_CHARS: usize = 3;

/// `fragment`, found in `text`, with the punctuation that follows its last word there (`Thanks!`,
/// not `Thanks`): Tantivy ends a fragment where its last word ends.
fn with_closing_punctuation(text: &str, fragment: &str) -> String {
    let Some(start) = text.find(fragment) else {
        return fragment.to_owned();
    };
    let end = start + fragment.len();
    let closing: usize = text[end..]
        .chars()
        .take_while(|c| !c.is_whitespace() && !c.is_alphanumeric())
        .take(CLOSING_PUNCTUATION_CHARS)
        .map(char::len_utf8)
        .sum();
    text[start..end + closing].to_owned()
}

/// Texts longer than this are read a window at a time, and the snippet comes from the first
/// window that holds a matched word: finding the best fragment of a 260 KB pasted log once took a
/// search on corpus M about a millisecond, a third of its time.
const WINDOW_BYTES: usize = 16 * 1024;
/// How far a window reaches back into the one before: a word cut at the end of one is whole in
/// the next.
const WINDOW_OVERLAP_BYTES: usize = 1024;

/// A snippet around the matched words, or the message's opening when none of them is in it.
pub fn make_snippet(generator: &SnippetGenerator, text: &str, chars: usize) -> Snippet {
    let mut start = 0;
    loop {
        let end = char_boundary_at_or_before(text, start + WINDOW_BYTES);
        let window = &text[start..end];
        let snippet = generator.snippet(window);
        if !snippet.fragment().is_empty() && !snippet.highlighted().is_empty() {
            // Pairs of CJK characters overlap (`日本`, `本語`): overlapping marks are one.
            let spans = collapse_overlapped_ranges(snippet.highlighted())
                .into_iter()
                .map(|r| (r.start, r.end))
                .collect();
            return (with_closing_punctuation(window, snippet.fragment()), spans);
        }
        if end == text.len() {
            break;
        }
        start = char_boundary_at_or_before(text, end - WINDOW_OVERLAP_BYTES);
    }
    let end = text
        .char_indices()
        .nth(chars)
        .map_or(text.len(), |(i, _)| i);
    (text[..end].to_owned(), Vec::new())
}

/// The last character boundary of `text` at or before byte `at` (its end, past it).
fn char_boundary_at_or_before(text: &str, at: usize) -> usize {
    if at >= text.len() {
        return text.len();
    }
    (0..=at)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0)
}
