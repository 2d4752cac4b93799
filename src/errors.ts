/**
 * Errors the library throws on purpose, in domain terms: `code` says what went wrong in a way
 * callers can act on, `message` is one line for a person, `field` names the option it is about
 * (as the library's options name it: `maxChars`, `cursor`, `mode`), and `hint` says what to do.
 * Each adapter words them for its users: the CLI in flags (`--max-chars`), the Pi tool and the
 * MCP server in their argument names. Nothing here names a CLI flag.
 */
export type RecallErrorCode =
  | "LOCKED"
  | "INCOMPATIBLE"
  | "CORRUPT"
  | "NOT_FOUND"
  | "AMBIGUOUS"
  | "BAD_INPUT"
  /** Something given as a cursor that is not one (cut short when copied, say). */
  | "BAD_CURSOR"
  /** A cursor that no longer fits: the session changed, or another version of recall made it. */
  | "STALE_CURSOR"
  /** A cursor that continues another listing than the one asked for. */
  | "CURSOR_MISMATCH"
  /**
   * A session whose folder is gone (or unknown): it can be forked, not resumed; `value` is its
   * file.
   */
  | "FOLDER_GONE"
  /**
   * No model can be asked: no `pi` to run, an unknown model, no credentials; or a file of the
   * meaning model is missing or damaged (the message names it).
   */
  | "MODEL_UNAVAILABLE"
  /** The model was asked and failed (an HTTP error, no answer). */
  | "MODEL_FAILED"
  /**
   * A remote service (a network peer, an archive, an embedding server) could not be reached or
   * failed to answer; `cause` holds the underlying error. Never a sign of a damaged index.
   */
  | "REMOTE_UNAVAILABLE"
  /** Stopped by the caller's signal. */
  | "ABORTED"
  | "IO"
  /**
   * A session file a guarded read refuses: outside the sessions folder, a link, not a regular file.
   */
  | "UNSAFE_FILE"
  /** A session file over the size a guarded read accepts. */
  | "FILE_TOO_LARGE"
  /**
   * A session file that is no longer the file it was when it was named (replaced, not appended to).
   */
  | "SESSION_REPLACED"
  | "INTERNAL";

export interface RecallErrorDetails {
  /** The option the error is about, as the library names it. */
  field?: string;
  /** The value of that option the error is about, when the message alone does not carry it. */
  value?: string;
  /** What to do about it, in the library's terms. */
  hint?: string;
  /** The error this one stands for (a network error under REMOTE_UNAVAILABLE, say). */
  cause?: unknown;
}

export class RecallError extends Error {
  readonly field: string | undefined;
  readonly value: string | undefined;
  readonly hint: string | undefined;

  constructor(
    readonly code: RecallErrorCode,
    message: string,
    details: RecallErrorDetails = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = "RecallError";
    this.field = details.field;
    this.value = details.value;
    this.hint = details.hint;
  }
}

/**
 * `error` as the RecallError a caller gets: a RecallError as it is; a file that is gone as
 * NOT_FOUND and another refusal of the file system as IO, naming the file; anything else (a bug)
 * as INTERNAL. The original is the `cause`.
 */
export function asRecallError(error: unknown): RecallError {
  if (error instanceof RecallError) return error;
  const e = error as NodeJS.ErrnoException;
  if (e instanceof Error && typeof e.code === "string" && typeof e.path === "string") {
    if (e.code === "ENOENT")
      return new RecallError("NOT_FOUND", `${e.path} does not exist (any more)`, {
        value: e.path,
        cause: error,
      });
    return new RecallError("IO", `cannot read ${e.path}: ${e.code}`, {
      value: e.path,
      cause: error,
    });
  }
  return new RecallError("INTERNAL", error instanceof Error ? error.message : String(error), {
    cause: error,
  });
}

const NATIVE_CODES: Record<string, RecallErrorCode> = {
  RECALL_LOCKED: "LOCKED",
  RECALL_INCOMPATIBLE: "INCOMPATIBLE",
  RECALL_CORRUPT: "CORRUPT",
  RECALL_BAD_INPUT: "BAD_INPUT",
  RECALL_MODEL_UNUSABLE: "MODEL_UNAVAILABLE",
  RECALL_IO: "IO",
  RECALL_NOT_LOCKED: "INTERNAL",
  RECALL_INTERNAL: "INTERNAL",
};

/** Native errors arrive as `RECALL_<CODE>: message`; anything else is passed through. */
export function fromNative(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const match = /^(RECALL_[A-Z_]+): ([\s\S]*)$/.exec(error.message);
  if (!match) return error;
  return new RecallError(NATIVE_CODES[match[1]!] ?? "INTERNAL", match[2]!);
}

/** Runs a synchronous native call and rethrows its error as a RecallError. */
export function nativeSync<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    throw fromNative(error);
  }
}

/** Runs a native call and rethrows its error as a RecallError. */
export async function native<T>(call: () => Promise<T> | T): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw fromNative(error);
  }
}
