/**
 * The kinds of session text besides the conversation, as the index holds them: thinking, tool
 * calls (the tool's name and its arguments) and tool output, with the files a call touched.
 * Searched only when asked for (`content`); see docs/search.md, "What is searched".
 */
import { isAbsolute, normalize, resolve } from "node:path";
import { contentText } from "./text.js";

export type OtherKind = "thinking" | "call" | "output";

/** What is indexed of one tool output: its first and its last characters. */
export const OUTPUT_HEAD_CHARS = 1500;
export const OUTPUT_TAIL_CHARS = 500;
/** What is indexed of each argument of a tool call (a `write` carries a whole file). */
export const CALL_ARGUMENT_CHARS = 500;
/** Tools whose `path` argument is a file they touch. */
const FILE_TOOLS = new Set(["read", "edit", "write"]);
/** Words of a bash command tried as paths, at most. */
const MAX_COMMAND_PATHS = 50;

/**
 * A long output as its first and last parts, so neither a command line echo nor the final error is
 * lost.
 */
export function cappedOutput(text: string): string {
  if (text.length <= OUTPUT_HEAD_CHARS + OUTPUT_TAIL_CHARS) return text;
  return `${text.slice(0, OUTPUT_HEAD_CHARS)}\n…\n${text.slice(text.length - OUTPUT_TAIL_CHARS)}`;
}

/**
 * The output a message holds, as indexed: a tool's result, or a command's the user ran with `!`;
 * `whole`: not cut yet (the archive redacts it first, then cuts it with `cappedOutput`).
 */
export function outputText(message: Record<string, unknown>, whole = false): string | undefined {
  const cut = whole ? (text: string) => text : cappedOutput;
  if (message.role === "toolResult") return cut(contentText(message.content));
  if (message.role === "bashExecution")
    return cut(typeof message.output === "string" ? message.output : "");
  return undefined;
}

/** The text of thinking blocks in assistant content (redacted ones hold nothing readable). */
export function thinkingText(content: unknown): string {
  if (!Array.isArray(content)) return "";
  const parts: string[] = [];
  for (const block of content as Record<string, unknown>[]) {
    if (
      block?.type === "thinking" &&
      !block.redacted &&
      typeof block.thinking === "string" &&
      block.thinking.trim()
    )
      parts.push(block.thinking);
  }
  return parts.join("\n\n");
}

export interface CallText {
  tool: string;
  text: string;
  /** Its argument values, whole: `text` is `callTextOf(tool, values)`. */
  values: string[];
  /** Absolute paths of the files it read, edited or wrote, or that its bash command names. */
  files: string[];
}

/**
 * A path as the session's folder resolves it; undefined for a relative path with no folder to
 * resolve it in.
 */
function absolute(path: string, cwd: string): string | undefined {
  if (isAbsolute(path)) return normalize(path);
  return isAbsolute(cwd) ? resolve(cwd, path) : undefined;
}

/** Words of a shell command that look like paths: with a slash, or a name with an extension. */
export function commandPaths(command: string, cwd: string): string[] {
  const found = new Set<string>();
  for (const word of command.split(/[\s;|&<>()`'"=]+/)) {
    if (found.size >= MAX_COMMAND_PATHS) break;
    if (!word || word.startsWith("-") || word.includes("://") || /^\.+\/?$/.test(word)) continue;
    if (!word.includes("/") && !/\.[A-Za-z0-9]+$/.test(word)) continue;
    const path = absolute(word.replace(/[:,]+$/, ""), cwd);
    if (path) found.add(path);
  }
  return [...found];
}

/**
 * A tool call from an assistant's content block: its name and argument values, and the files it
 * touched.
 */
export function callText(block: Record<string, unknown>, cwd: string): CallText | undefined {
  if (typeof block.name !== "string" || !block.name) return undefined;
  const args =
    block.arguments && typeof block.arguments === "object"
      ? (block.arguments as Record<string, unknown>)
      : {};
  const values = Object.values(args).filter(
    (v): v is string => typeof v === "string" && v.trim() !== "",
  );
  const text = callTextOf(block.name, values);
  const files = new Set<string>();
  const path = args.path ?? args.file_path;
  if (FILE_TOOLS.has(block.name) && typeof path === "string" && path.trim()) {
    const file = absolute(path.trim(), cwd);
    if (file) files.add(file);
  }
  if (block.name === "bash" && typeof args.command === "string")
    for (const file of commandPaths(args.command, cwd)) files.add(file);
  return { tool: block.name, text, values, files: [...files] };
}

/** A call's text as indexed: the tool's name and the start of each argument value. */
export function callTextOf(tool: string, values: readonly string[]): string {
  return [tool, ...values.map((v) => v.slice(0, CALL_ARGUMENT_CHARS))].join(" ");
}

/** The tool calls in assistant content. */
export function callsIn(content: unknown, cwd: string): CallText[] {
  if (!Array.isArray(content)) return [];
  return (content as Record<string, unknown>[])
    .filter((b) => b?.type === "toolCall")
    .flatMap((b) => callText(b, cwd) ?? []);
}

/** A file asked about (`--file`), as calls are recorded: absolute, against the caller's folder. */
export function fileAskedAbout(path: string, cwd: string): string {
  return resolve(cwd, path);
}
