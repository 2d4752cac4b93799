//! The kinds of text a session holds, each indexed in a field of its own (schema.rs says which:
//! `TextKind::field`): the conversation (what
//! user and assistant said, the only kind a search reads by default), the assistant's thinking, its
//! tool calls (tool name and arguments) and their output. A document holds one kind.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextKind {
    Conversation,
    Thinking,
    Call,
    Output,
}

impl TextKind {
    pub const ALL: [TextKind; 4] = [
        TextKind::Conversation,
        TextKind::Thinking,
        TextKind::Call,
        TextKind::Output,
    ];

    /// The name callers use, and the value of `text_kind` on documents other than conversation.
    pub fn name(self) -> &'static str {
        match self {
            TextKind::Conversation => "conversation",
            TextKind::Thinking => "thinking",
            TextKind::Call => "call",
            TextKind::Output => "output",
        }
    }

    pub fn parse(name: &str) -> Option<TextKind> {
        TextKind::ALL.into_iter().find(|kind| kind.name() == name)
    }

    /// What a match in this kind of text is worth against the same match in the conversation:
    /// what was said outranks what a tool was asked to do, which outranks what it printed.
    pub fn weight(self) -> f32 {
        match self {
            TextKind::Conversation => 1.0,
            TextKind::Thinking | TextKind::Call => 0.8,
            TextKind::Output => 0.6,
        }
    }

    /// Whether the index keeps this kind's text whole: stored (for snippets) and with word
    /// positions (for phrases). Tool output, the bulk of a session, keeps neither: its snippet is
    /// made from the session file (`line_offset`), and a phrase in it matches as all its words
    /// (query.rs).
    pub fn kept_whole(self) -> bool {
        self != TextKind::Output
    }

    /// Whether `kinds` is what a search reads unless told otherwise: the conversation alone.
    pub fn conversation_only(kinds: &[TextKind]) -> bool {
        kinds.iter().all(|kind| *kind == TextKind::Conversation)
    }
}
