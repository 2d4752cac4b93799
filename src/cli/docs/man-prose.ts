/**
 * The man pages' hand-written prose: what the command definitions do not say. Everything else in
 * the pages (synopsis, description, options, examples) comes from the definitions.
 */
export const OVERVIEW = `recall finds Pi coding agent sessions by what was said in them, and reopens them. It indexes the JSONL session files Pi writes under ~/.pi/agent/sessions/ with Tantivy, keeps the index up to date by itself (only new and changed files are read), and answers in milliseconds. Every command prints data on standard output and diagnostics on standard error; --json (or --format) makes the output JSON Lines for jq, and --format tsv feeds fzf and awk.`;

export const EXIT_STATUS: [string, string][] = [
  ["0", "Something was found or done."],
  ["1", "Nothing was found (search, list, context, related)."],
  [
    "2",
    "An error: bad arguments, an unknown session, an unusable index. A one-line message is printed on standard error.",
  ],
];

export const ENVIRONMENT: [string, string][] = [
  ["PI_CODING_AGENT_DIR", "Pi's agent directory (default ~/.pi/agent)."],
  [
    "PI_CODING_AGENT_SESSION_DIR",
    "Read sessions from this flat directory instead of <agent dir>/sessions (as Pi does).",
  ],
  [
    "RECALL_CACHE_DIR",
    "Where the index and the file signatures live (default <agent dir>/cache/recall).",
  ],
  ["RECALL_DATA_DIR", "Where tags live (default <agent dir>/recall)."],
  ["NO_COLOR", "When set to a non-empty value, --color auto prints no colors."],
  ["RECALL_DEBUG", "When set, an internal error also prints its stack trace."],
];

export const FILES: [string, string][] = [
  [
    "~/.pi/agent/sessions/",
    "Pi's sessions, read only. A sessionDir setting in ~/.pi/agent/settings.json is honoured too.",
  ],
  [
    "~/.pi/agent/cache/recall/",
    "The index (index/), which also records what recall read of each session file. Safe to delete: it is rebuilt.",
  ],
  ["~/.pi/agent/recall/", "Tags: user data, kept across rebuilds."],
];

const SESSION_FIELDS = `Each session object has: id, path (absolute; what pi --session takes), cwd, name (or null), created and modified (ISO 8601; modified is the last message), messageCount, firstMessage, parent (the session it was forked from, or null) and tags.`;

/** What each command prints with --json. Fields may be added; none are removed or renamed. */
export const JSON_OUTPUT: Record<string, string> = {
  search: `One object per session, best first. ${SESSION_FIELDS} A search hit adds score, message (the best matching message: role, index, entryId, timestamp; null when only tags matched), snippet (about 200 characters) and spans (matched words in the snippet as [start, end) UTF-8 byte offsets).`,
  related: `One object per session, best first, as search prints them, plus shared (the distinctive words of the session asked about that this one holds too, the most distinctive first).`,
  list: `One object per session, most recently active first. ${SESSION_FIELDS}`,
  index: `One {"type":"failed","path","reason"} object per file that could not be read, one {"type":"malformed","path","line","reason"} object per skipped line (at most 100 per file), then one {"type":"summary"} object with discovered, indexed, appended, removed, unchanged, failed, malformedLines, rebuilt, elapsedMs, sessionsDir and indexDir.`,
  read: `One {"type":"message"} object per message (index, entryId, role, timestamp, text; branch with --all-branches; toolName and isError for tool output in raw mode), then one {"type":"page"} object with the session's id, path, cwd, name, mode, total, from, count, chars and nextCursor (null on the last page).`,
  context: `One {"type":"message"} object per chosen message (as read prints them, plus score and clipped), then one {"type":"context"} object with id, path, question, terms, matched, total, chars and maxChars.`,
  resume: `{"argv": ["pi", "--session", path], "cwd": the session's folder}.`,
  tag: `One object per session: id, path, and its manual, auto, suppressed and merged tags.`,
  untag: `One object per session: id, path, and its manual, auto, suppressed and merged tags.`,
  tags: `With a session: its manual, auto, suppressed and merged tags. Without: one {"tag","sessions"} object per tag.`,
  doctor: `One {"type":"check","name","ok","message","fix"} object per check (name: sessions, index, tags, config, watcher; fix: the command that fixes it, or null), then one {"type":"summary","ok","checks","failed"} object.`,
};
