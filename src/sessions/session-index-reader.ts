/**
 * Reads a Pi session file into what the index needs: the session's metadata and its normalized
 * messages. Handles every format version (v1 without ids, v2 tree with `hookMessage`, v3 and the
 * entry types added since) with Pi's migration semantics, and can resume from the start of the
 * last message of an earlier read, so an appended session costs only its new lines.
 *
 * Indexed by default: user and assistant text, custom messages, compaction and branch summaries.
 * Consecutive messages of the same role are joined into one (tool calls and results in between
 * do not separate them). Thinking, tool calls, tool output, images and system prompts are not.
 */
import { basename } from "node:path";
import { readJsonLines, type JsonLine, type MalformedLine } from "./lines.js";
import { contentText, oneLine, toMillis } from "./text.js";

export interface IndexedMessage {
  index: number;
  role: string;
  entryId: string;
  timestamp: number;
  text: string;
}

export interface SessionHeaderInfo {
  id: string;
  cwd: string;
  /** ms since epoch. */
  created: number;
  /** 1 for legacy files without a version field. */
  version: number;
  /** `parentSession`, or the pre-0.31 `branchedFrom`. */
  parent?: string;
  /** False when the file has no header line and the id comes from the file name. */
  hasHeader: boolean;
}

/** Everything a resumed read needs to continue exactly as a full read would. */
export interface ReadCheckpoint {
  offset: number;
  lineNo: number;
  nextIndex: number;
  messageCount: number;
  name: string | undefined;
  firstMessage: string;
  modified: number;
}

export interface SessionRead {
  header: SessionHeaderInfo;
  name: string | undefined;
  firstMessage: string;
  /** Last message time, or the header time for a session without messages. */
  modified: number;
  /** User and assistant messages in the file (all branches, copies from a fork parent included). */
  messageCount: number;
  /** Normalized messages read in this pass (from the checkpoint on, when resuming). */
  messages: IndexedMessage[];
  malformedLines: number;
  /** Which lines were skipped, the first ones (see MAX_MALFORMED_DETAILS). */
  malformedAt: MalformedLine[];
  recoveredLines: number;
  /** Where the next read should resume: the start of the last message, so it can be extended. */
  checkpoint: ReadCheckpoint;
  /** Bytes of complete lines read. */
  end: number;
}

export interface ReadOptions {
  /** Continue from an earlier read of the same file. */
  resume?: { header: SessionHeaderInfo; checkpoint: ReadCheckpoint };
  /** `copyKey`s of entries copied from a fork's parent: their text is indexed with the parent. */
  skipCopies?: ReadonlySet<string>;
}

const FIRST_MESSAGE_CHARS = 300;
const JOINABLE_ROLES = new Set(["user", "assistant", "custom"]);
/** Tool output dominates session bytes and is not indexed: skip such lines without parsing. */
const TOOL_RESULT_LINE = /"role"\s*:\s*"toolResult"/;

/** `2026-11-30T05-54-44-201Z_<id>.jsonl` → `<id>`; any other name → the name without `.jsonl`. */
export function idFromFileName(path: string): string {
  const name = basename(path, ".jsonl");
  const underscore = name.indexOf("_");
  return underscore > 0 && /^\d{4}-\d{2}-\d{2}T/.test(name) ? name.slice(underscore + 1) : name;
}

function fileNameTime(path: string): number | undefined {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z_/.exec(basename(path));
  return match ? toMillis(`${match[1]}T${match[2]}:${match[3]}:${match[4]}.${match[5]}Z`) : undefined;
}

/**
 * What identifies an entry copied into a fork: a fork copies entries verbatim, timestamps
 * included, and ids cannot be used because v1 entries have none.
 */
export function copyKey(entry: Record<string, unknown>): string {
  const message = entry.message as { role?: unknown; timestamp?: unknown } | undefined;
  return `${String(entry.type)}|${String(entry.timestamp)}|${String(message?.role)}|${String(message?.timestamp)}`;
}

/** The copy keys of every entry of a session file, for skipping them in its forks. */
export function readCopyKeys(path: string): Set<string> {
  const keys = new Set<string>();
  readJsonLines(path, 0, 1, (line) => keys.add(copyKey(line.value)), (head) => TOOL_RESULT_LINE.test(head));
  return keys;
}

interface OpenMessage extends IndexedMessage {
  parts: string[];
}

export function readSessionForIndex(path: string, options: ReadOptions = {}): SessionRead {
  const resume = options.resume;
  let header: SessionHeaderInfo | undefined = resume?.header;
  const state: ReadCheckpoint = resume
    ? { ...resume.checkpoint }
    : { offset: 0, lineNo: 1, nextIndex: 0, messageCount: 0, name: undefined, firstMessage: "", modified: 0 };
  let checkpoint: ReadCheckpoint = { ...state };
  // The state before the current line: where a resumed read would start if a message begins on it.
  let beforeLine: ReadCheckpoint = { ...state };
  const messages: IndexedMessage[] = [];
  let open: OpenMessage | undefined;
  let entryOrdinalOnLine = 0;
  let lastLineNo = -1;

  const close = () => {
    if (!open) return;
    messages.push({ index: open.index, role: open.role, entryId: open.entryId, timestamp: open.timestamp, text: open.parts.join("\n\n") });
    open = undefined;
  };

  const addText = (line: JsonLine, role: string, entryId: string, timestamp: number, text: string, joinable: boolean) => {
    if (!text.trim()) return;
    if (joinable && open && open.role === role) {
      open.parts.push(text);
      return;
    }
    close();
    // The read resumes from here next time: the state as it was before this message began.
    checkpoint = { ...beforeLine, offset: line.start, lineNo: line.lineNo };
    const message: OpenMessage = { index: state.nextIndex++, role, entryId, timestamp, text: "", parts: [text] };
    if (joinable) open = message;
    else messages.push({ ...message, text });
  };

  const onLine = (line: JsonLine) => {
    const value = line.value;
    if (line.lineNo === lastLineNo) {
      entryOrdinalOnLine++;
    } else {
      entryOrdinalOnLine = 0;
      lastLineNo = line.lineNo;
      beforeLine = { ...state };
    }
    if (value.type === "session" && !header) {
      header = {
        id: typeof value.id === "string" && value.id ? value.id : idFromFileName(path),
        cwd: typeof value.cwd === "string" ? value.cwd : "",
        created: toMillis(value.timestamp) ?? fileNameTime(path) ?? 0,
        version: typeof value.version === "number" ? value.version : 1,
        parent: typeof value.parentSession === "string" ? value.parentSession : typeof value.branchedFrom === "string" ? value.branchedFrom : undefined,
        hasHeader: true,
      };
      return;
    }
    if (value.type === "session") return;
    if (!header) {
      header = { id: idFromFileName(path), cwd: "", created: fileNameTime(path) ?? toMillis(value.timestamp) ?? 0, version: 3, hasHeader: false };
    }
    // v1 entries carry no ids: give them stable ones from their position (Pi's migration makes
    // random ids, which would change on every read).
    const entryId =
      header.version < 2 || typeof value.id !== "string"
        ? `L${line.lineNo}${entryOrdinalOnLine ? `.${entryOrdinalOnLine}` : ""}`
        : value.id;
    const entryTime = toMillis(value.timestamp) ?? header.created;
    const copied = options.skipCopies?.has(copyKey(value)) ?? false;

    switch (value.type) {
      case "message": {
        const message = value.message as Record<string, unknown> | undefined;
        if (!message || typeof message !== "object") return;
        let role = message.role;
        if (role === "hookMessage") role = "custom"; // v2 → v3 rename
        const time = toMillis(message.timestamp) ?? entryTime;
        if (role === "user" || role === "assistant") {
          state.messageCount++;
          state.modified = Math.max(state.modified, time);
        }
        const text = contentText(message.content);
        if (role === "user" && !state.firstMessage && text.trim()) state.firstMessage = oneLine(text, FIRST_MESSAGE_CHARS);
        if (!copied && typeof role === "string" && JOINABLE_ROLES.has(role)) addText(line, role, entryId, time, text, true);
        return;
      }
      case "custom_message":
        if (!copied) addText(line, "custom", entryId, entryTime, contentText(value.content), true);
        return;
      case "compaction":
      case "branch_summary":
        if (!copied && typeof value.summary === "string") addText(line, value.type, entryId, entryTime, value.summary, false);
        return;
      case "session_info":
        // The last one wins; an empty or missing name clears it.
        state.name = typeof value.name === "string" && value.name.trim() ? value.name.trim() : undefined;
        return;
      default:
        // Other entry types (model changes, labels, extension state, unknown ones) hold no
        // conversation text.
        return;
    }
  };

  const stats = readJsonLines(path, state.offset, state.lineNo, onLine, (head) => TOOL_RESULT_LINE.test(head));
  close();
  if (!header) {
    header = { id: idFromFileName(path), cwd: "", created: fileNameTime(path) ?? 0, version: 3, hasHeader: false };
  }
  if (!open && messages.length === 0 && !resume) {
    // No message yet: a later read starts after what was read, not from byte 0 again.
    checkpoint = { ...state, offset: stats.end, lineNo: stats.nextLineNo };
  }
  return {
    header,
    name: state.name,
    firstMessage: state.firstMessage,
    modified: state.modified || header.created,
    messageCount: state.messageCount,
    messages,
    malformedLines: stats.malformed,
    malformedAt: stats.malformedAt,
    recoveredLines: stats.recovered,
    checkpoint,
    end: stats.end,
  };
}
