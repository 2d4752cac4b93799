/** The in-session manual: `/recall help` (also `?`, `manual`, `-h`, `--help`). */
export const HELP_WORDS = ["help", "?", "manual", "-h", "--help"] as const;

export function helpText(configFile: string): string {
  return `recall: find and resume earlier Pi sessions

/recall [query]          open the picker, searching for query as you type
/recall search <query>   the same, for a query that starts with a command word
/recall tag #a #b        tag the current session (the # is optional)
/recall untag #a         remove tags from the current session
/recall tags             show the current session's tags
/recall help             this manual (also ?, manual, -h, --help)
/recall-reindex          rebuild the search index from the session files (tags are kept)

Picker keys
  type          search (the unfinished last word also matches as a prefix)
  ↑ ↓ PgUp PgDn move            Enter   resume the selected session here
  Tab           this folder ↔ all projects
  Esc           close

Queries: words match whole, case- and accent-insensitively, and any word may match; sessions
with more of the words, or the exact phrase, rank first, and recent ones get a boost. A "quoted
phrase" must appear as written. #tag keeps only sessions with that tag, -#tag drops them.

The model has a \`recall\` tool too (search, list, read, tag); what it reads back is marked as
historical data, not instructions.

The picker opens on all projects; to open it on this folder, put
  { "picker": { "scope": "current" } }
in ${configFile}.

The index is the one the \`recall\` command line uses; both keep it up to date.`;
}
