//! The index schema: one document per normalized message, one per session, and one per session
//! file the sync has seen.
//!
//! Message documents carry the searchable text, one kind of it each (text_kind.rs); session documents carry the session's metadata,
//! its merged tags (exact filter values and boosted searchable text) and its recency. Both kinds
//! repeat `path`, `session_id` and `cwd`, so a scope or tag filter applies to either kind and a
//! whole session is deleted with one term. File documents are the sync's record of each file
//! (its signature and where a resumed read continues): they hold no searchable text, and a file
//! with no message (header only) has one too.

use tantivy::query::{EnableScoring, Query, TermQuery};
use tantivy::schema::{
    Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions, FAST, INDEXED, STORED, STRING,
};
use tantivy::{DocAddress, Searcher, SegmentReader, Term};

use crate::error::Result;
use crate::index::text_kind::TextKind;
use crate::words::tokenizer::ANALYZER;

/// Bump when the schema, the analyzer or the meaning of a field changes; an index written with
/// another version is rebuilt from the session files.
pub const SCHEMA_VERSION: u32 = 7;

pub const KIND_MESSAGE: &str = "message";
pub const KIND_SESSION: &str = "session";
pub const KIND_FILE: &str = "file";

#[derive(Clone, Copy)]
pub struct Fields {
    pub kind: Field,
    pub path: Field,
    /// Stable 64-bit hash of `path`: the fast column results are grouped by.
    pub path_key: Field,
    pub session_id: Field,
    pub cwd: Field,
    // Message documents.
    pub content: Field,
    pub role: Field,
    pub msg_index: Field,
    pub entry_id: Field,
    /// The key of a conversation message's text in the meaning index (meaning/unit.rs): which
    /// vector is its own. Absent on other documents.
    pub meaning_key: Field,
    /// Byte offset of the line of the entry a message document's text came from (tool output).
    pub line_offset: Field,
    /// Message time on message documents, last activity on session documents (ms since epoch).
    pub ts: Field,
    /// The text of message documents of the other kinds (see text_kind.rs), one field each.
    pub thinking: Field,
    pub call: Field,
    pub output: Field,
    /// `thinking`, `call` or `output`; absent on conversation documents.
    pub text_kind: Field,
    /// The tool a call or output document belongs to.
    pub tool: Field,
    /// Absolute paths of the files a call read, edited or wrote, or its bash command named.
    pub touched: Field,
    // Session documents.
    /// The session's tags and its name, searchable.
    pub tag_text: Field,
    pub tags: Field,
    pub name: Field,
    pub created: Field,
    pub message_count: Field,
    pub first_message: Field,
    pub opening: Field,
    pub parent: Field,
    // File documents.
    pub file_size: Field,
    /// Modification time in ms since epoch, with the fraction the file system gives.
    pub file_mtime: Field,
    pub file_ino: Field,
    /// File name of the session a fork was copied from: finds the forks of a file that came or went.
    pub parent_name: Field,
    /// The caller's own record of the file (opaque JSON).
    pub file_state: Field,
}

pub fn build_schema() -> Schema {
    let mut builder = Schema::builder();
    let searchable = |stored: bool, positions: bool| {
        let record = if positions {
            IndexRecordOption::WithFreqsAndPositions
        } else {
            IndexRecordOption::WithFreqs
        };
        let indexing = TextFieldIndexing::default()
            .set_tokenizer(ANALYZER)
            .set_index_option(record);
        let options = TextOptions::default().set_indexing_options(indexing);
        if stored {
            options.set_stored()
        } else {
            options
        }
    };
    builder.add_text_field("kind", STRING);
    builder.add_text_field("path", STRING | STORED);
    builder.add_u64_field("path_key", INDEXED | FAST);
    builder.add_text_field("session_id", STRING | STORED);
    builder.add_text_field("cwd", STRING | STORED);
    builder.add_text_field("content", searchable(true, true));
    // Role is indexed so that a later content scope (thinking, tool output) can filter on it.
    builder.add_text_field("role", STRING | STORED);
    builder.add_u64_field("msg_index", INDEXED | FAST | STORED);
    builder.add_text_field("entry_id", STORED);
    builder.add_u64_field("meaning_key", INDEXED | FAST);
    builder.add_u64_field("line_offset", STORED);
    builder.add_i64_field("ts", INDEXED | FAST | STORED);
    builder.add_text_field("thinking", searchable(true, true));
    builder.add_text_field("call", searchable(true, true));
    let whole = TextKind::Output.kept_whole();
    builder.add_text_field("output", searchable(whole, whole));
    builder.add_text_field("text_kind", STRING | STORED);
    builder.add_text_field("tool", STORED);
    builder.add_text_field("touched", STRING | STORED);
    builder.add_text_field("tag_text", searchable(false, true));
    builder.add_text_field("tags", STRING | STORED);
    builder.add_text_field("name", STORED);
    builder.add_i64_field("created", STORED);
    builder.add_u64_field("message_count", STORED);
    builder.add_text_field("first_message", STORED);
    builder.add_text_field("opening", STORED);
    builder.add_text_field("parent", STORED);
    builder.add_u64_field("file_size", FAST | STORED);
    builder.add_f64_field("file_mtime", FAST | STORED);
    builder.add_u64_field("file_ino", FAST | STORED);
    builder.add_text_field("parent_name", STRING);
    builder.add_text_field("file_state", STORED);
    builder.build()
}

impl Fields {
    pub fn from_schema(schema: &Schema) -> tantivy::Result<Fields> {
        let f = |name: &str| schema.get_field(name);
        Ok(Fields {
            kind: f("kind")?,
            path: f("path")?,
            path_key: f("path_key")?,
            session_id: f("session_id")?,
            cwd: f("cwd")?,
            content: f("content")?,
            role: f("role")?,
            msg_index: f("msg_index")?,
            entry_id: f("entry_id")?,
            meaning_key: f("meaning_key")?,
            line_offset: f("line_offset")?,
            ts: f("ts")?,
            thinking: f("thinking")?,
            call: f("call")?,
            output: f("output")?,
            text_kind: f("text_kind")?,
            tool: f("tool")?,
            touched: f("touched")?,
            tag_text: f("tag_text")?,
            tags: f("tags")?,
            name: f("name")?,
            created: f("created")?,
            message_count: f("message_count")?,
            first_message: f("first_message")?,
            opening: f("opening")?,
            parent: f("parent")?,
            file_size: f("file_size")?,
            file_mtime: f("file_mtime")?,
            file_ino: f("file_ino")?,
            parent_name: f("parent_name")?,
            file_state: f("file_state")?,
        })
    }
}

/// The documents of one kind (`KIND_MESSAGE`, `KIND_SESSION` or `KIND_FILE`).
pub fn kind_is(fields: &Fields, kind: &str) -> Box<dyn Query> {
    Box::new(TermQuery::new(
        Term::from_field_text(fields.kind, kind),
        IndexRecordOption::Basic,
    ))
}

/// Visits every live document of one kind, segment by segment: `open` gives what `visit` needs of
/// a segment (its fast columns, opened once). Cheaper than a query collecting the documents'
/// addresses when many of them are wanted.
pub fn for_each_of_kind<S>(
    searcher: &Searcher,
    fields: &Fields,
    kind: &str,
    open: impl Fn(&SegmentReader) -> Result<S>,
    mut visit: impl FnMut(&S, DocAddress),
) -> Result<()> {
    let documents =
        kind_is(fields, kind).weight(EnableScoring::disabled_from_searcher(searcher))?;
    for (segment_ord, segment) in searcher.segment_readers().iter().enumerate() {
        let opened = open(segment)?;
        let alive = segment.alive_bitset();
        documents.for_each_no_score(segment, &mut |docs| {
            for &doc in docs {
                if alive.is_none_or(|alive| alive.is_alive(doc)) {
                    visit(&opened, DocAddress::new(segment_ord as u32, doc));
                }
            }
        })?;
    }
    Ok(())
}

/// The field that holds each kind of text.
impl TextKind {
    pub fn field(self, fields: &Fields) -> Field {
        match self {
            TextKind::Conversation => fields.content,
            TextKind::Thinking => fields.thinking,
            TextKind::Call => fields.call,
            TextKind::Output => fields.output,
        }
    }
}
