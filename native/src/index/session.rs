//! Sessions and messages as the index stores them: building their documents and reading a
//! session's metadata back from its stored document.

use serde::Deserialize;
use tantivy::schema::document::Value;
use tantivy::TantivyDocument;

use crate::index::schema::{Fields, KIND_MESSAGE, KIND_SESSION};
use crate::index::text_kind::TextKind;
use crate::meaning::unit::unit_key;
use crate::path_key::path_key;

/// A session's metadata: what list and search results show about it, and what a change set sends.
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "node", napi_derive::napi(object, js_name = "NativeSession"))]
pub struct SessionMeta {
    pub id: String,
    /// Absolute path of the session file: the identity of a session in the index.
    pub path: String,
    pub cwd: String,
    #[serde(default)]
    pub name: Option<String>,
    /// Header time, ms since epoch.
    pub created: i64,
    /// Last message time, ms since epoch.
    pub modified: i64,
    pub message_count: u32,
    #[serde(default)]
    pub first_message: String,
    /// The start of its conversation (meaning/unit.rs), as the meaning index embeds it; given when
    /// indexing, never read back.
    #[serde(default)]
    pub opening: Option<String>,
    /// Path of the session this one was forked from.
    #[serde(default)]
    pub parent: Option<String>,
    /// Merged manual and automatic tags, normalized by the caller.
    #[serde(default)]
    pub tags: Vec<String>,
}

/// One normalized message, ready to index: consecutive same-role conversation text joined, or one
/// piece of another kind of text (a thinking block, a tool call, a tool's output).
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(
    feature = "node",
    napi_derive::napi(object, js_name = "NativeMessageDoc")
)]
pub struct MessageDoc {
    /// Position among the session's indexed conversation messages, from 0; text of another kind
    /// has the position of the conversation message it came after (or during).
    pub index: u32,
    pub role: String,
    /// Pi entry id of the last joined entry (for v1 files, a line-based id).
    pub entry_id: String,
    /// ms since epoch.
    pub timestamp: i64,
    pub text: String,
    /// `thinking`, `call` or `output`; absent for conversation.
    #[serde(default)]
    pub kind: Option<String>,
    /// The tool of a call or output.
    #[serde(default)]
    pub tool: Option<String>,
    /// Absolute paths of the files a call touched.
    #[serde(default)]
    pub files: Option<Vec<String>>,
    /// Byte offset of the line of the entry the text came from, for text the index does not keep
    /// (`TextKind::kept_whole`): its snippet is made from the session file.
    #[serde(default)]
    pub line_offset: Option<i64>,
}

impl MessageDoc {
    pub fn text_kind(&self) -> TextKind {
        self.kind
            .as_deref()
            .and_then(TextKind::parse)
            .unwrap_or(TextKind::Conversation)
    }
}

pub fn session_document(fields: &Fields, session: &SessionMeta) -> TantivyDocument {
    let mut doc = TantivyDocument::default();
    doc.add_text(fields.kind, KIND_SESSION);
    add_identity(&mut doc, fields, session);
    doc.add_i64(fields.ts, session.modified);
    doc.add_i64(fields.created, session.created);
    doc.add_u64(fields.message_count, u64::from(session.message_count));
    doc.add_text(fields.first_message, &session.first_message);
    if let Some(opening) = session
        .opening
        .as_deref()
        .filter(|opening| !opening.trim().is_empty())
    {
        doc.add_text(fields.opening, opening);
        doc.add_u64(fields.meaning_key, unit_key(opening));
    }
    if let Some(name) = &session.name {
        doc.add_text(fields.name, name);
    }
    if let Some(parent) = &session.parent {
        doc.add_text(fields.parent, parent);
    }
    for tag in &session.tags {
        doc.add_text(fields.tags, tag);
    }
    // The name is searchable with the tags, weighted like them: the seed kept names out of
    // search, but a user looks a session up by the name `/resume` shows.
    let tag_text: Vec<&str> = session
        .tags
        .iter()
        .map(String::as_str)
        .chain(session.name.as_deref())
        .collect();
    if !tag_text.is_empty() {
        doc.add_text(fields.tag_text, tag_text.join(" "));
    }
    doc
}

pub fn message_document(
    fields: &Fields,
    session: &SessionMeta,
    message: &MessageDoc,
) -> TantivyDocument {
    let mut doc = TantivyDocument::default();
    doc.add_text(fields.kind, KIND_MESSAGE);
    add_identity(&mut doc, fields, session);
    let kind = message.text_kind();
    doc.add_text(kind.field(fields), &message.text);
    if kind != TextKind::Conversation {
        doc.add_text(fields.text_kind, kind.name());
    } else {
        doc.add_u64(fields.meaning_key, unit_key(&message.text));
    }
    if let Some(tool) = &message.tool {
        doc.add_text(fields.tool, tool);
    }
    for file in message.files.iter().flatten() {
        doc.add_text(fields.touched, file);
    }
    doc.add_text(fields.role, &message.role);
    doc.add_u64(fields.msg_index, u64::from(message.index));
    doc.add_text(fields.entry_id, &message.entry_id);
    if let Some(offset) = message.line_offset {
        doc.add_u64(fields.line_offset, offset.max(0) as u64);
    }
    doc.add_i64(fields.ts, message.timestamp);
    doc
}

fn add_identity(doc: &mut TantivyDocument, fields: &Fields, session: &SessionMeta) {
    doc.add_text(fields.path, &session.path);
    doc.add_u64(fields.path_key, path_key(&session.path));
    doc.add_text(fields.session_id, &session.id);
    doc.add_text(fields.cwd, &session.cwd);
}

fn text(doc: &TantivyDocument, field: tantivy::schema::Field) -> Option<String> {
    doc.get_first(field)
        .and_then(|v| v.as_str().map(str::to_owned))
}

fn int(doc: &TantivyDocument, field: tantivy::schema::Field) -> i64 {
    doc.get_first(field).and_then(|v| v.as_i64()).unwrap_or(0)
}

pub fn session_from_document(fields: &Fields, doc: &TantivyDocument) -> SessionMeta {
    SessionMeta {
        id: text(doc, fields.session_id).unwrap_or_default(),
        path: text(doc, fields.path).unwrap_or_default(),
        cwd: text(doc, fields.cwd).unwrap_or_default(),
        name: text(doc, fields.name),
        created: int(doc, fields.created),
        modified: int(doc, fields.ts),
        message_count: doc
            .get_first(fields.message_count)
            .and_then(|v| v.as_u64())
            .map_or(0, |n| u32::try_from(n).unwrap_or(u32::MAX)),
        first_message: text(doc, fields.first_message).unwrap_or_default(),
        opening: None,
        parent: text(doc, fields.parent),
        tags: doc
            .get_all(fields.tags)
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect(),
    }
}

/// A session document read back to be written again (a tag edit): with its opening.
pub fn session_to_rewrite(fields: &Fields, doc: &TantivyDocument) -> SessionMeta {
    SessionMeta {
        opening: text(doc, fields.opening),
        ..session_from_document(fields, doc)
    }
}

/// The stored fields of a matched message that a hit reports.
#[derive(Debug, Clone, PartialEq)]
pub struct MessageRef {
    pub index: u64,
    pub role: String,
    pub entry_id: String,
    pub timestamp: i64,
    /// The matched text; empty for a kind the index does not keep whole.
    pub text: String,
    pub kind: TextKind,
    pub tool: Option<String>,
    /// Where the entry's line starts in the session file, for a kind the index does not keep whole.
    pub line_offset: Option<u64>,
}

pub fn message_from_document(fields: &Fields, doc: &TantivyDocument) -> MessageRef {
    let kind = text(doc, fields.text_kind)
        .as_deref()
        .and_then(TextKind::parse)
        .unwrap_or(TextKind::Conversation);
    MessageRef {
        kind,
        tool: text(doc, fields.tool),
        index: doc
            .get_first(fields.msg_index)
            .and_then(|v| v.as_u64())
            .unwrap_or(0),
        role: text(doc, fields.role).unwrap_or_default(),
        entry_id: text(doc, fields.entry_id).unwrap_or_default(),
        timestamp: int(doc, fields.ts),
        text: text(doc, kind.field(fields)).unwrap_or_default(),
        line_offset: doc.get_first(fields.line_offset).and_then(|v| v.as_u64()),
    }
}
