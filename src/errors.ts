/**
 * Errors the library throws on purpose. `code` says what went wrong in a way callers can act on;
 * the message is one line for a person. The CLI prints `recall: <message>` and exits 2.
 */
export type RecallErrorCode =
  | "LOCKED"
  | "INCOMPATIBLE"
  | "CORRUPT"
  | "NOT_FOUND"
  | "AMBIGUOUS"
  | "BAD_INPUT"
  | "IO"
  | "INTERNAL";

export class RecallError extends Error {
  constructor(
    readonly code: RecallErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "RecallError";
  }
}

const NATIVE_CODES: Record<string, RecallErrorCode> = {
  RECALL_LOCKED: "LOCKED",
  RECALL_INCOMPATIBLE: "INCOMPATIBLE",
  RECALL_CORRUPT: "CORRUPT",
  RECALL_BAD_INPUT: "BAD_INPUT",
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
