/**
 * The server's `instructions`: which tool fits which need, the default scope, and the trust
 * boundary.
 */
import type { McpConfig } from "./config.js";
import { HISTORICAL } from "./results.js";

export function serverInstructions(config: McpConfig): string {
  const scope =
    config.defaultScope === "project"
      ? `The default scope is "project" (${config.projectDir ? "the configured project folder" : 'but no project folder is configured: pass scope: "all"'}).`
      : 'The default scope is "all" (every project).';
  return [
    "Recall of past Pi coding-agent sessions, from a full-text index.",
    "- A known complete session UUID: pi_session_find.",
    '- Known words or an exact "phrase": pi_session_search.',
    "- A focused question about one session: pi_session_context.",
    "- Reading a whole session: pi_session_read, again with next_cursor until has_more is false.",
    "- The latest sessions: pi_session_list.",
    "- Other sessions on the same topic as one: pi_session_related.",
    `- Search the project first; retry with scope: "all" explicitly for other projects. ${scope}`,
    ...(config.remote
      ? [
          '- Sessions of other machines and users: pi_session_search with scope: "remote" (the shared archive); read one with pi_session_read.',
        ]
      : []),
    "Reuse every session_ref and next_cursor exactly as returned.",
    HISTORICAL,
  ].join("\n");
}
