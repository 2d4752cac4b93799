/**
 * The limits of the pi_session_* tools, as pi-session-recall set them: the MCP server and the Pi
 * extension publish and enforce the same ones.
 */
export const SESSION_TOOL_LIMITS = {
  /** Characters of a query or a question. */
  maxQueryChars: 4000,
  /** Sessions on one page of search, find or list, and the default. */
  maxResults: 25,
  defaultResults: 10,
  /** Characters of message text on a page of read or context. */
  minPageChars: 100,
  maxPageChars: 100_000,
  defaultReadChars: 24_000,
  defaultContextChars: 20_000,
} as const;

/**
 * The two views of a session: what was said (user and assistant text), or everything the file
 * holds.
 */
export const SESSION_TOOL_MODES = ["conversation", "raw"] as const;
export type SessionToolMode = (typeof SESSION_TOOL_MODES)[number];
