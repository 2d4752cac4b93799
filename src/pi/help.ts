/** The in-session manual: `/recall help` (also `?`, `manual`, `-h`, `--help`). */
export const HELP_WORDS = ["help", "?", "manual", "-h", "--help"] as const;

export function helpText(configFile: string): string {
  return `recall: find and resume earlier Pi sessions

/recall [query]          open the picker, searching for query as you type
/recall search <query>   the same, for a query that starts with a command word
/recall tag #a #b        tag the current session (the # is optional)
/recall untag #a         remove tags from the current session
/recall tags             show the current session's tags
/recall autotag          tag the current session with a model
/recall autotag --all-untagged
                         tag every session without tags (asks first; Esc stops)
/recall model            choose the model auto-tagging and asking use
/recall help             this manual (also ?, manual, -h, --help)
/recall-reindex          rebuild the search index from the session files (tags are kept)

Picker keys
  type          search (the unfinished last word also matches as a prefix)
  ↑ ↓ PgUp PgDn move            Enter   resume the selected session here
  Tab           this folder ↔ all projects
  Shift+Tab     the conversation only ↔ also tool calls, tool output and thinking
  Ctrl+R        the sessions related to the selected one (sharing its distinctive words) ↔ the search
  Ctrl+T        by words ↔ by words and meaning (needs the model package recall-pi-model-minilm)
  Esc           close

Queries: words match whole, case- and accent-insensitively, and any word may match; sessions
with more of the words, or the exact phrase, rank first, and recent ones get a boost. A "quoted
phrase" must appear as written. A word found nowhere is read as the nearest word that is, one
typo away (pyhton finds python). #tag keeps only sessions with that tag, -#tag drops them.

Auto-tagging sends a bounded excerpt of each session (at most 12,000 characters) to the chosen
model (or the one this session uses), whose provider may charge for it; the tags it gives are
saved as automatic tags. Manual tags always win, and a tag you removed is never added back.

The model has a \`recall\` tool too (search, list, read, related, tag, ask), and pi_session_query to ask
a model about one session; what they read back is marked as historical data, not instructions.

The picker opens on all projects; to open it on this folder, put
  { "picker": { "scope": "current" } }
in ${configFile}.

The index is the one the \`recall\` command line uses; both keep it up to date.`;
}
