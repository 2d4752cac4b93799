/**
 * A session as one Markdown document: a title, the session's fields, then each entry under a
 * heading with its role and time. Message text is Markdown already and goes in as it is; tool
 * calls, their output, shell commands and thinking go in fenced blocks or quotes, each fence
 * longer than any run of backticks in what it holds, so no text closes it early.
 */
import type { DocumentBlock, DocumentEntry } from "../sessions/session-document.js";
import {
  argumentsGist,
  conversationOf,
  KIND_LABELS,
  plainText,
  type Conversation,
} from "./conversation.js";
import type { ExportedSession } from "./exported-session.js";
import { headerFields, sessionTitle, utcTime } from "./session-header.js";

export function renderMarkdown(session: ExportedSession): string {
  const out: string[] = [`# ${inline(sessionTitle(session))}`, ""];
  for (const field of headerFields(session))
    out.push(`- **${field.label}:** ${field.code ? codeSpan(field.value) : inline(field.value)}`);
  const conversation = conversationOf(session);
  for (const { entry, branchStarts } of conversation.shown) {
    out.push("", "---", "");
    if (branchStarts)
      out.push("> **Branch left behind** — what follows is not on the branch Pi continues.", "");
    const lines = entryMarkdown(entry, conversation);
    while (lines[lines.length - 1] === "") lines.pop();
    out.push(...lines);
  }
  return `${out.join("\n").trimEnd()}\n`;
}

function entryMarkdown(entry: DocumentEntry, conversation: Conversation): string[] {
  const heading = [KIND_LABELS[entry.kind]];
  if (entry.model) heading.push(inline(entry.model));
  if (entry.toolName) heading.push(inline(entry.toolName));
  if (entry.isError) heading.push("(failed)");
  if (entry.kind === "compaction" && entry.tokensBefore !== undefined)
    heading.push(`(${entry.tokensBefore.toLocaleString("en-US")} tokens summarized)`);
  heading.push(`· ${utcTime(entry.timestamp)}`);
  const out = [`## ${heading.join(" ")}`, ""];
  if (entry.kind === "bashExecution") {
    out.push(
      ...fenced(
        `$ ${entry.command ?? ""}\n${plainText(entry.blocks)}${entry.exitCode ? `\n[exit ${entry.exitCode}]` : ""}`,
        "console",
      ),
      "",
    );
    return out;
  }
  if (entry.kind === "toolResult") {
    out.push(...fenced(plainText(entry.blocks), ""), "");
    return out;
  }
  for (const block of entry.blocks) out.push(...blockMarkdown(block, conversation), "");
  if (entry.error) out.push(`**Error:** ${inline(entry.error)}`, "");
  return out;
}

function blockMarkdown(block: DocumentBlock, conversation: Conversation): string[] {
  switch (block.type) {
    case "text":
      return [block.text.trimEnd()];
    case "image":
      return [`*[image${block.mimeType ? ` ${inline(block.mimeType)}` : ""}]*`];
    case "thinking":
      return block.redacted
        ? ["> *Thinking (redacted)*"]
        : [
            "> *Thinking*",
            ">",
            ...block.text.split("\n").map((line) => (line ? `> ${line}` : ">")),
          ];
    case "toolCall": {
      const out = [
        `**Tool call** ${codeSpan(block.name)}: ${inline(argumentsGist(block.arguments))}`,
        "",
        ...fenced(block.arguments, "json"),
      ];
      const result = conversation.resultOf.get(block.id);
      if (result)
        out.push(
          "",
          `**Output**${result.isError ? " (failed)" : ""}:`,
          "",
          ...fenced(plainText(result.blocks), ""),
        );
      return out;
    }
  }
}

function fenced(text: string, language: string): string[] {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return [`${fence}${language}`, text.replace(/\n+$/, ""), fence];
}

/** Text as an inline code span that no backtick in it ends. */
function codeSpan(text: string): string {
  const flat = text.replace(/\s*\n\s*/g, " ");
  const longest = Math.max(0, ...[...flat.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = "`".repeat(longest + 1);
  const pad = flat.startsWith("`") || flat.endsWith("`") ? " " : "";
  return `${ticks}${pad}${flat}${pad}${ticks}`;
}

/** Plain text on one line in Markdown: its punctuation escaped, so it stays the text it is. */
function inline(text: string): string {
  return text.replace(/\s+/g, " ").replace(/[\\`*_[\]<>|~&]/g, (ch) => `\\${ch}`);
}
