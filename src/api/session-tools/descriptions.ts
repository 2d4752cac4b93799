/**
 * What the pi_session_* tools and their arguments say to a model, in one place: the MCP server and
 * the Pi extension name their arguments differently (`session_ref`, `sessionPath`) and append
 * what they return, but describe the same behaviour with the same words.
 */
import { SESSION_TOOL_LIMITS as LIMITS } from "./limits.js";

export const SESSION_TOOL_TEXT = {
  search:
    'Ranked full-text search of past Pi sessions: words match whole, "exact phrases" as written, #tag keeps sessions with that tag and -#tag drops them. ' +
    'mode "raw" also searches thinking, tool calls and tool output; file keeps the sessions whose tool calls touched that file. ' +
    "A complete session UUID is looked up as pi_session_find does.",
  find: "Exact lookup of a session by its complete UUID (as in its file name).",
  list: "The latest sessions, most recently active first; since: 7d, 24h, 2w, today, yesterday or an ISO date.",
  context:
    "The messages of one session that bear on a question, within a character budget; deterministic, no model involved.",
  related:
    "The sessions nearest one session, best first: by the distinctive words they share with it (the words of its conversation that few other messages hold) and, where the meaning model is installed, by meaning (their messages' vectors, from the meaning index); each with the distinctive words it shares. The session itself, its copies, its parent and its forks are left out.",
  read: 'A session\'s active branch, oldest first, a page at a time: call again with the cursor it gives until has_more is false. mode "raw" also shows thinking, tool calls and tool output.',
  query: `Words, "exact phrases" or #tags (at most ${LIMITS.maxQueryChars} characters); a complete session UUID finds that session`,
  question: `What to look for in that session (at most ${LIMITS.maxQueryChars} characters)`,
  sessionId: "The session's complete UUID",
  limit: `Results per page, 1 to ${LIMITS.maxResults} (default ${LIMITS.defaultResults})`,
  cursor: 'The exact cursor the previous page gave; omit (or "start") for the first page',
  mode: '"conversation" (default): user and assistant text; "raw": also thinking, tool calls and tool output',
  match:
    '"words": the query\'s words; "meaning": the sessions nearest the query in meaning, whatever their words (needs the meaning model installed and its index built); "both": the two fused. Default: "both" where the meaning model is installed, else "words"',
  file: "Only sessions whose tool calls read, edited or wrote this file, or whose bash commands named it (an absolute path, or one relative to the folder recall runs in)",
  since: "Only sessions active from this time on: 7d, 24h, 2w, today, yesterday or an ISO date",
  maxChars: (fallback: number) =>
    `Characters of message text, ${LIMITS.minPageChars} to ${LIMITS.maxPageChars} (default ${fallback})`,
  /** Said with focused context asked for in mode "raw": it picks from the conversation only. */
  contextRawNote:
    'focused context is chosen from the conversation only; use pi_session_read with mode "raw" for tool calls and output',
  /** Said with a search whose query was a complete session id. */
  byIdNote: "the query is a complete session id: looked up as pi_session_find does",
} as const;
