/**
 * Reads a Pi session file into what the index needs: the session's metadata and its normalized
 * messages. Handles every format version (v1 without ids, v2 tree with `hookMessage`, v3 and the
 * entry types added since) with Pi's migration semantics, and can resume from the start of the
 * last message of an earlier read, so an appended session costs only its new lines.
 *
 * The conversation: user and assistant text, custom messages, compaction and branch summaries.
 * Consecutive messages of the same role are joined into one (tool calls and results in between
 * do not separate them), which carries the last joined entry's id and time. Apart from it, as
 * their own kinds of text (other-text.ts): thinking, tool calls and tool output, each from the
 * entry it is in, at the position of the conversation message it came after. Images and system
 * prompts are not indexed.
 */
import { SessionEntries, type SessionHeader } from "./entries.js";
import { readJsonLines, type JsonLine, type MalformedLine } from "./lines.js";
import { callsIn, commandPaths, outputText, thinkingText, type OtherKind } from "./other-text.js";
import { clipLine, contentText, toMillis } from "./text.js";

export { idFromFileName } from "./entries.js";

export interface IndexedMessage {
  index: number;
  role: string;
  entryId: string;
  timestamp: number;
  text: string;
  /** Absent for the conversation. */
  kind?: OtherKind;
  /** The tool of a call or output. */
  tool?: string;
  /** Absolute paths of the files a call touched. */
  files?: string[];
  /**
   * Byte offset of the entry's line, for output: the index keeps its words only (entry-output.ts).
   */
  lineOffset?: number;
  /** With `ReadOptions.whole`, a tool call's argument values, whole (its `text` is whole too). */
  values?: string[];
}

/** Everything a resumed read needs to continue exactly as a full read would. */
export interface ReadCheckpoint {
  offset: number;
  lineNo: number;
  nextIndex: number;
  messageCount: number;
  name: string | undefined;
  firstMessage: string;
  opening: string;
  modified: number;
}

export interface SessionRead {
  header: SessionHeader;
  name: string | undefined;
  firstMessage: string;
  /**
   * The start of its conversation, for the meaning index (`OPENING_CHARS`); "" unless
   * `ReadOptions.opening`.
   */
  opening: string;
  /** Last message time, or the header time for a session without messages. */
  modified: number;
  /** User and assistant messages in the file (all branches, copies from a fork parent included). */
  messageCount: number;
  /** Normalized messages read in this pass (from the checkpoint on, when resuming). */
  messages: IndexedMessage[];
  malformedLines: number;
  /** Which lines were skipped, the first ones (see MAX_MALFORMED_DETAILS). */
  malformedAt: MalformedLine[];
  /** Where the next read should resume: the start of the last message, so it can be extended. */
  checkpoint: ReadCheckpoint;
  /** Bytes of complete lines read. */
  end: number;
}

export interface ReadOptions {
  /** Continue from an earlier read of the same file. */
  resume?: { header: SessionHeader; checkpoint: ReadCheckpoint };
  /** `copyKey`s of entries copied from a fork's parent: their text is indexed with the parent. */
  skipCopies?: ReadonlySet<string>;
  /**
   * Keep the session's opening (for the index's session document, and in the checkpoint, so that
   * a resumed read goes on with it); without it the opening is "", as readers that never use it
   * (the archive, whose watermarks keep every checkpoint) want.
   */
  opening?: boolean;
  /**
   * Tool calls and output whole, not cut as the index cuts them (other-text.ts): for the archive,
   * which redacts them before it cuts them, so that no cut leaves part of a secret unrecognized.
   */
  whole?: boolean;
}

export const FIRST_MESSAGE_CHARS = 300;
/**
 * A session's opening: its user and assistant messages joined, cut here. The meaning index
 * embeds it as the session's own unit (native/src/meaning/unit.rs), of which the model reads 256
 * tokens, some 1,000 to 1,500 characters of prose; it stops changing once this long.
 */
export const OPENING_CHARS = 2_000;
const JOINABLE_ROLES = new Set(["user", "assistant", "custom"]);

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
  readJsonLines(path, 0, 1, (line) => {
    keys.add(copyKey(line.value));
  });
  return keys;
}

/**
 * `opening` with one more message, cut at OPENING_CHARS (after a surrogate pair it would cut in
 * two).
 */
function openingWith(opening: string, text: string): string {
  const joined = opening ? `${opening}\n${text.trim()}` : text.trim();
  if (joined.length <= OPENING_CHARS) return joined;
  const end = /[\uD800-\uDBFF]/.test(joined[OPENING_CHARS - 1]!)
    ? OPENING_CHARS + 1
    : OPENING_CHARS;
  return joined.slice(0, end);
}

interface OpenMessage extends IndexedMessage {
  parts: string[];
}

export function readSessionForIndex(path: string, options: ReadOptions = {}): SessionRead {
  const parts = readSessionInParts(path, options, Infinity);
  for (;;) {
    const next = parts.next();
    if (next.done) return next.value;
  }
}

/**
 * The read of `readSessionForIndex` a part at a time, for a file whose messages are too many to
 * hold at once: each part yielded holds the messages completed since the part before — at least
 * `partChars` characters of text — with what was read of the file so far; the last part, with
 * the rest and the whole read's metadata, malformed lines and checkpoint, is returned. A message
 * is in one part only; the parts' messages in order are those of a read in one piece.
 */
export function* readSessionInParts(
  path: string,
  options: ReadOptions,
  partChars: number,
): Generator<SessionRead, SessionRead> {
  const resume = options.resume;
  const state: ReadCheckpoint = resume
    ? { ...resume.checkpoint }
    : {
        offset: 0,
        lineNo: 1,
        nextIndex: 0,
        messageCount: 0,
        name: undefined,
        firstMessage: "",
        opening: "",
        modified: 0,
      };
  let checkpoint: ReadCheckpoint = { ...state };
  // The state before the current line: where a resumed read would start if a message begins on it.
  let beforeLine: ReadCheckpoint = { ...state };
  let messages: IndexedMessage[] = [];
  /** Characters of text in `messages`, and messages produced by the whole read. */
  let partTextChars = 0;
  let produced = 0;
  const push = (message: IndexedMessage) => {
    messages.push(message);
    partTextChars += message.text.length;
    produced++;
  };
  let open: OpenMessage | undefined;
  let lastLineNo = -1;

  const close = () => {
    if (!open) return;
    push({
      index: open.index,
      role: open.role,
      entryId: open.entryId,
      timestamp: open.timestamp,
      text: open.parts.join("\n\n"),
    });
    open = undefined;
  };

  const addText = (
    line: JsonLine,
    role: string,
    entryId: string,
    timestamp: number,
    text: string,
    joinable: boolean,
  ) => {
    if (!text.trim()) return;
    if (joinable && open && open.role === role) {
      open.parts.push(text);
      open.entryId = entryId;
      open.timestamp = timestamp;
      return;
    }
    close();
    // The read resumes from here next time: the state as it was before this message began.
    checkpoint = { ...beforeLine, offset: line.start, lineNo: line.lineNo };
    const message: OpenMessage = {
      index: state.nextIndex++,
      role,
      entryId,
      timestamp,
      text: "",
      parts: [text],
    };
    if (joinable) open = message;
    else push({ ...message, text });
  };

  /** Text of another kind: it neither joins nor ends the open message, and sits at its position. */
  const addOther = (
    kind: OtherKind,
    entryId: string,
    timestamp: number,
    text: string,
    tool?: string,
    files?: string[],
    lineOffset?: number,
    values?: string[],
  ) => {
    if (!text.trim()) return;
    const message: IndexedMessage = {
      index: Math.max(state.nextIndex - 1, 0),
      role: kind === "output" ? "toolResult" : "assistant",
      entryId,
      timestamp,
      text,
      kind,
    };
    if (tool !== undefined) message.tool = tool;
    if (files?.length) message.files = files;
    if (lineOffset !== undefined) message.lineOffset = lineOffset;
    if (values) message.values = values;
    push(message);
  };

  const whole = options.whole === true;
  const addOtherKinds = (
    message: Record<string, unknown>,
    entryId: string,
    time: number,
    cwd: string,
    line: JsonLine,
  ) => {
    switch (message.role) {
      case "assistant":
        addOther("thinking", entryId, time, thinkingText(message.content));
        for (const call of callsIn(message.content, cwd)) {
          if (whole)
            addOther(
              "call",
              entryId,
              time,
              [call.tool, ...call.values].join(" "),
              call.tool,
              call.files,
              undefined,
              call.values,
            );
          else addOther("call", entryId, time, call.text, call.tool, call.files);
        }
        return;
      case "toolResult":
        addOther(
          "output",
          entryId,
          time,
          outputText(message, whole) ?? "",
          typeof message.toolName === "string" ? message.toolName : undefined,
          undefined,
          line.start,
        );
        return;
      case "bashExecution": {
        // A command the user ran with `!`: a bash call and its output.
        const command = typeof message.command === "string" ? message.command : "";
        addOther(
          "call",
          entryId,
          time,
          command && `bash ${command}`,
          "bash",
          commandPaths(command, cwd),
        );
        addOther(
          "output",
          entryId,
          time,
          outputText(message, whole) ?? "",
          "bash",
          undefined,
          line.start,
        );
        return;
      }
    }
  };

  const entries = new SessionEntries(
    path,
    resume ? { from: { offset: state.offset, lineNo: state.lineNo, header: resume.header } } : {},
  );
  const soFar = (): SessionRead => ({
    header: entries.header,
    name: state.name,
    firstMessage: state.firstMessage,
    opening: state.opening,
    modified: state.modified || entries.header.created,
    messageCount: state.messageCount,
    messages,
    malformedLines: entries.stats.malformed,
    malformedAt: entries.stats.malformedAt,
    checkpoint,
    end: entries.stats.end,
  });
  const readEntry = (
    entryId: string,
    value: Record<string, unknown>,
    line: JsonLine,
    header: SessionHeader,
  ) => {
    if (line.lineNo !== lastLineNo) {
      lastLineNo = line.lineNo;
      beforeLine = { ...state };
    }
    const entryTime = toMillis(value.timestamp) ?? header.created;
    // As the file has it (copy keys of a parent are read unmigrated, see readCopyKeys).
    const copied = options.skipCopies?.has(copyKey(line.value)) ?? false;

    switch (value.type) {
      case "message": {
        const message = value.message as Record<string, unknown> | undefined;
        if (!message || typeof message !== "object") return;
        const role = message.role;
        const time = toMillis(message.timestamp) ?? entryTime;
        if (role === "user" || role === "assistant") {
          state.messageCount++;
          state.modified = Math.max(state.modified, time);
        }
        const text = contentText(message.content);
        if (role === "user" && !state.firstMessage && text.trim())
          state.firstMessage = clipLine(text, FIRST_MESSAGE_CHARS);
        // A fork's copied messages too: its conversation starts with them.
        if (
          options.opening &&
          (role === "user" || role === "assistant") &&
          text.trim() &&
          state.opening.length < OPENING_CHARS
        )
          state.opening = openingWith(state.opening, text);
        if (!copied && typeof role === "string" && JOINABLE_ROLES.has(role))
          addText(line, role, entryId, time, text, true);
        if (!copied) addOtherKinds(message, entryId, time, header.cwd, line);
        return;
      }
      case "custom_message":
        if (!copied) addText(line, "custom", entryId, entryTime, contentText(value.content), true);
        return;
      case "compaction":
      case "branch_summary":
        if (!copied && typeof value.summary === "string")
          addText(line, value.type, entryId, entryTime, value.summary, false);
        return;
      case "session_info":
        // The last one wins; an empty or missing name clears it.
        state.name =
          typeof value.name === "string" && value.name.trim() ? value.name.trim() : undefined;
        return;
      default:
        // Other entry types (model changes, labels, extension state, unknown ones) hold no
        // conversation text.
        return;
    }
  };

  for (const { id: entryId, value, line } of entries) {
    readEntry(entryId, value, line, entries.header);
    if (partTextChars >= partChars) {
      yield soFar();
      messages = [];
      partTextChars = 0;
    }
  }
  close();
  if (produced === 0 && !resume) {
    // No message yet: a later read starts after what was read, not from byte 0 again.
    checkpoint = { ...state, offset: entries.stats.end, lineNo: entries.stats.nextLineNo };
  }
  return soFar();
}
