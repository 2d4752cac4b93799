/**
 * Tool errors as the MCP surface names them: a stable code, one line saying what happened and
 * the concrete next step, returned as a tool result with `isError` (in text and in
 * `structuredContent`). Library errors are mapped here; no message names a path.
 */
import { RecallError } from "../index.js";

export const ERROR_CODES = [
  "INVALID_ARGUMENT",
  "INVALID_SESSION_REF",
  "STALE_CURSOR",
  "SESSION_REPLACED",
  "SESSION_NOT_FOUND",
  "PROJECT_SCOPE_UNAVAILABLE",
  "STORAGE_UNAVAILABLE",
  "FILE_TOO_LARGE",
  "REMOTE_SCOPE_UNAVAILABLE",
  "REMOTE_UNAVAILABLE",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export class ToolError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly recovery: string,
  ) {
    super(message);
  }
}

const SEARCH_AGAIN =
  "search again (pi_session_search or pi_session_find) and use the session_ref it returns, unchanged";
const RESTART = "call the tool again without a cursor to start from the first page";

export const invalidRef = () =>
  new ToolError(
    "INVALID_SESSION_REF",
    "session_ref is not a reference this server made (it must be an exact sref_ value)",
    SEARCH_AGAIN,
  );
export const remoteScopeUnavailable = () =>
  new ToolError(
    "REMOTE_SCOPE_UNAVAILABLE",
    "this server was not started with an archive, so scope remote is unavailable",
    'retry with scope "project" or "all", or ask the operator to start the server with --remote NAME',
  );
export const archivedOnlyRead = () =>
  new ToolError(
    "INVALID_ARGUMENT",
    "this session_ref names a session of the archive: only pi_session_read (and the conversation resource) read it",
    "read it with pi_session_read and this session_ref, unchanged",
  );
export const invalidCursor = () =>
  new ToolError(
    "INVALID_ARGUMENT",
    "cursor is not a cursor this server made for this call (it must be the exact mcur_ value returned by the previous page)",
    `${RESTART}, or pass next_cursor unchanged with the same other arguments`,
  );

/** A library error (or anything else thrown) as a tool error. */
export function toToolError(error: unknown): ToolError {
  if (error instanceof ToolError) return error;
  if (!(error instanceof RecallError))
    return new ToolError(
      "STORAGE_UNAVAILABLE",
      "the session index could not answer",
      "retry shortly; if it persists, the operator should run `recall index` and check the server's stderr",
    );
  switch (error.code) {
    case "STALE_CURSOR":
      return new ToolError(
        "STALE_CURSOR",
        "the results or the session changed since this cursor was made",
        RESTART,
      );
    case "BAD_CURSOR":
    case "CURSOR_MISMATCH":
      return invalidCursor();
    case "BAD_INPUT":
      return new ToolError(
        "INVALID_ARGUMENT",
        error.message,
        error.hint ?? "correct the argument and call again",
      );
    case "MODEL_UNAVAILABLE":
      return new ToolError(
        "INVALID_ARGUMENT",
        error.message,
        'leave match out (or pass "words"); meaning search needs the operator to install the model package beside recall',
      );
    case "NOT_FOUND":
    case "AMBIGUOUS":
      return new ToolError(
        "SESSION_NOT_FOUND",
        "no session with this reference exists any more",
        SEARCH_AGAIN,
      );
    case "SESSION_REPLACED":
      return new ToolError(
        "SESSION_REPLACED",
        "the session's file was replaced since this reference was made",
        SEARCH_AGAIN,
      );
    case "FILE_TOO_LARGE":
      return new ToolError(
        "FILE_TOO_LARGE",
        error.message,
        "this session is skipped by design; pick another result",
      );
    case "UNSAFE_FILE":
      return new ToolError(
        "INVALID_SESSION_REF",
        "the session's file fails the safety checks (a link, not a regular file, or outside the sessions folder) and is not read",
        "pick another result",
      );
    case "REMOTE_UNAVAILABLE":
      // The facade's remote errors name the remote only, never its host.
      return new ToolError(
        "REMOTE_UNAVAILABLE",
        error.message,
        'retry later; this machine\'s sessions answer meanwhile with scope "project" or "all"',
      );
    case "IO":
      if (error.field === "sessionsDir") {
        return new ToolError(
          "STORAGE_UNAVAILABLE",
          "the sessions folder this server was started with does not exist or is not a folder, so there is nothing to search",
          "tell the operator to restart the server with --sessions-dir or --agent-dir naming Pi's sessions (or to fix PI_CODING_AGENT_DIR / PI_CODING_AGENT_SESSION_DIR); retrying will not help",
        );
      }
      return storageUnavailable();
    default:
      return storageUnavailable();
  }
}

function storageUnavailable(): ToolError {
  return new ToolError(
    "STORAGE_UNAVAILABLE",
    "the session index is unavailable right now",
    "retry shortly; if it persists, the operator should run `recall index` and check the server's stderr",
  );
}
