/**
 * What an archive holds is untrusted: anyone who may write its alias may put any document there,
 * shaped as a push never would. Before a value of it becomes a file name, a folder, a command
 * line to copy or a line of a page, it is checked to be what a push of Pi's session files writes:
 * a session id of the shape Pi gives, a plain file name, an absolute folder, numbers that are
 * numbers. A kept file that fails is refused whole (`pull` writes nothing); a message or hit
 * that fails is left out, so one crafted document never stops the rest.
 */
import { isAbsolute, normalize } from "node:path";
import { RecallError } from "../errors.js";
import type { ArchiveDocument } from "./documents.js";
import type { KeptFile } from "./kept-files.js";
import { PUSHED_CONTENT } from "./remotes.js";

/**
 * Pi's session id: a UUID, or a custom id as Pi's `assertValidSessionId` accepts it (never `.`,
 * `..` or a separator).
 */
const SESSION_ID = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;
/** Pi's file name `<time>_<id>.jsonl` holds at most 255 bytes. */
const MAX_ID_LENGTH = 255 - "2026-11-30T05-54-44-201Z_".length - ".jsonl".length;
/** Pi's name of a session file: the time the session began, then its id. */
const PI_FILE_NAME = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z_(.+)\.jsonl$/;
/** A character no file name holds: a separator, NUL or another control character. */
const NOT_IN_A_NAME = /[/\\\u0000-\u001f\u007f]/;

export function isSessionId(value: unknown): value is string {
  return typeof value === "string" && value.length <= MAX_ID_LENGTH && SESSION_ID.test(value);
}

const isText = (value: unknown): value is string => typeof value === "string";
const isWhole = (value: unknown): value is number =>
  Number.isSafeInteger(value) && (value as number) >= 0;
const isTime = (value: unknown): value is number =>
  typeof value === "number" && Number.isFinite(value) && Math.abs(value) <= 8.64e15;

/**
 * An absolute folder as Pi records a session's: normalized (no `.` or `..` part, no doubled
 * separator), without NUL.
 */
function isFolder(value: unknown): value is string {
  return isText(value) && isAbsolute(value) && normalize(value) === value && !value.includes("\0");
}

/**
 * Why a part 0 (`source`, stored as `id`) is not the start of a file a push keeps; undefined if it
 * is.
 */
function keptFileProblem(source: Record<string, unknown>, id: string): string | undefined {
  if (!isSessionId(source.session_id)) return "its session id is not one Pi gives";
  if (source.session_id !== id) return "its session id is not the id it is stored under";
  if (
    !isText(source.file_name) ||
    NOT_IN_A_NAME.test(source.file_name) ||
    source.file_name === "." ||
    source.file_name === ".."
  )
    return "its file name is not a plain file name";
  if (!isFolder(source.folder)) return "its folder is not an absolute, normalized path";
  if (
    ![source.project, source.machine, source.user, source.generation, source.content].every(isText)
  )
    return "a field that holds text holds something else";
  if (!isTime(source.session_created)) return "its time of creation is not a time";
  if (source.part !== 0 || source.from !== 0 || !isWhole(source.end))
    return "its part numbers are not those of a file's start";
  return headerProblem(source.content as string, source.session_id, source.folder);
}

/**
 * Why `content` does not open with the header of session `id` begun in `folder`; undefined if it
 * does.
 */
function headerProblem(content: string, id: string, folder: string): string | undefined {
  const end = content.indexOf("\n");
  let header: unknown;
  try {
    header = JSON.parse(end < 0 ? content : content.slice(0, end));
  } catch {
    return "its first line is not a session header";
  }
  const fields =
    header !== null && typeof header === "object" ? (header as Record<string, unknown>) : {};
  if (fields.type !== "session") return "its first line is not a session header";
  if (fields.id !== id) return "its header names another session";
  if (fields.cwd !== folder) return "its header names another folder";
  return undefined;
}

/** The error of a kept file `pull` refuses: nothing is written. */
export function refusedKeptFile(remote: string, id: string, why: string): RecallError {
  return new RecallError(
    "UNSAFE_FILE",
    `remote ${remote} keeps session ${id} as no push would (${why}): nothing was written`,
    {
      field: "session",
      value: id,
      hint: "someone who may write to the archive put it there",
    },
  );
}

/**
 * Part 0 of a kept file, stored as `id`, if it is one a push writes; a RecallError saying why not
 * otherwise.
 */
export function checkedKeptFile(source: unknown, id: string, remote: string): KeptFile {
  const fields =
    source !== null && typeof source === "object" ? (source as Record<string, unknown>) : {};
  const why = keptFileProblem(fields, id);
  if (why !== undefined) throw refusedKeptFile(remote, id, why);
  return fields as unknown as KeptFile;
}

/**
 * Whether `source`, found as part `part` of `first`, is that part: undefined when it is not one
 * (gone, or left by another version of the file, which a pull leaves out); the part when it
 * follows on from `end`; a RecallError when it claims to follow on and is not a part a push writes.
 */
export function followingPart(
  source: unknown,
  first: KeptFile,
  part: number,
  end: number,
  remote: string,
): KeptFile | undefined {
  const fields =
    source !== null && typeof source === "object" ? (source as Record<string, unknown>) : {};
  if (fields.generation !== first.generation || fields.from !== end) return undefined;
  const fine =
    fields.session_id === first.session_id &&
    fields.part === part &&
    isWhole(fields.end) &&
    fields.end > end &&
    isText(fields.content);
  if (!fine)
    throw refusedKeptFile(remote, first.session_id, `its part ${part} is not one a push writes`);
  return fields as unknown as KeptFile;
}

/**
 * A message of an archive (its `_source`), with or without its text, if every field a page or hit
 * shows is of its type.
 */
export function checkedDocument<T extends Partial<ArchiveDocument>>(
  source: unknown,
  withText: boolean,
): T | undefined {
  if (source === null || typeof source !== "object") return undefined;
  const d = source as Record<string, unknown>;
  const fine =
    isSessionId(d.session_id) &&
    [d.entry_id, d.role, d.project, d.folder, d.machine, d.user].every(isText) &&
    (PUSHED_CONTENT as readonly unknown[]).includes(d.kind) &&
    isWhole(d.position) &&
    isTime(d.timestamp) &&
    isTime(d.session_created) &&
    (d.tool === undefined || isText(d.tool)) &&
    (d.session_name === undefined || isText(d.session_name)) &&
    (d.tags === undefined || (Array.isArray(d.tags) && d.tags.every(isText))) &&
    (!withText || isText(d.text));
  return fine ? (d as T) : undefined;
}

/**
 * Pi's name for a kept file: the archive's when it is Pi's `<time>_<id>.jsonl` of this session,
 * else made as Pi makes it.
 */
export function piFileName(kept: KeptFile): string {
  if (PI_FILE_NAME.exec(kept.file_name)?.[1] === kept.session_id) return kept.file_name;
  return `${new Date(kept.session_created).toISOString().replace(/[:.]/g, "-")}_${kept.session_id}.jsonl`;
}
