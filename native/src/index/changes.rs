//! The change set the TypeScript sync sends after reading session files: whole sessions to
//! replace, appended tails, removed files, the new records of the files read, and tag edits,
//! applied through one writer.

use serde::Deserialize;

use crate::index::files::FileRecord;
use crate::index::session::{MessageDoc, SessionMeta};

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChangeSet {
    /// Files that no longer exist: every document of theirs goes.
    #[serde(default)]
    pub remove_paths: Vec<String>,
    #[serde(default)]
    pub sessions: Vec<SessionUpdate>,
    /// New records of files, replacing their old ones.
    #[serde(default)]
    pub files: Vec<FileRecord>,
    #[serde(default)]
    pub tag_updates: Vec<TagUpdate>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(
    feature = "node",
    napi_derive::napi(object, js_name = "NativeSessionUpdate")
)]
pub struct SessionUpdate {
    // Named for the typings: napi-derive knows the JavaScript names only of types it expanded
    // before this one (session.rs comes after this module).
    #[cfg_attr(feature = "node", napi(ts_type = "NativeSession"))]
    pub session: SessionMeta,
    #[cfg_attr(feature = "node", napi(ts_type = "Array<NativeMessageDoc>"))]
    pub messages: Vec<MessageDoc>,
    /// Absent: replace every document of the session. A number k: an append; messages with an
    /// index below k stay, those from k on are replaced by `messages` (the last message is
    /// re-sent when the append continued it with the same role).
    #[serde(default)]
    pub replace_from: Option<u32>,
    /// True for a further part of a session read in parts (a large file, sent as several updates
    /// in order, with no commit between them): no message is deleted, its messages add to those
    /// of the parts before, and its session document replaces theirs. Only a session's first
    /// part replaces messages (`replaceFrom`, which a continued update does not read).
    #[serde(default)]
    pub continued: Option<bool>,
}

/// New merged tags for every indexed file of one session id. Only the session document is
/// rewritten; message documents are untouched.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(
    feature = "node",
    napi_derive::napi(object, js_name = "NativeTagUpdate")
)]
pub struct TagUpdate {
    pub session_id: String,
    pub tags: Vec<String>,
}
