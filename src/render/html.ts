/**
 * A session as one self-contained HTML file: no script, nothing fetched, one style element that
 * the page's Content-Security-Policy allows by its hash (and nothing else: no other style, image,
 * font, frame, form or connection). Every text of the session is escaped, or is Markdown rendered
 * without raw HTML (markdown-html.ts). Tool calls with their output, thinking, shell commands and
 * compactions are collapsed (`details`), open without a script.
 */
import { createHash } from "node:crypto";
import type { DocumentBlock, DocumentEntry } from "../sessions/session-document.js";
import {
  argumentsGist,
  conversationOf,
  KIND_LABELS,
  oneLine,
  plainText,
  type Conversation,
} from "./conversation.js";
import { escapeHtml as esc } from "./escape.js";
import type { ExportedSession } from "./exported-session.js";
import { codeBlock, markdownHtml } from "./markdown-html.js";
import { headerFields, sessionTitle, utcTime } from "./session-header.js";
import { stylesheet } from "./stylesheet.js";
import { RECALL_VERSION } from "../version.js";

/** The policy, given the hash of the one style element. */
export function contentSecurityPolicy(styleHash: string): string {
  return `default-src 'none'; style-src '${styleHash}'; img-src 'none'; font-src 'none'; connect-src 'none'; media-src 'none'; object-src 'none'; frame-src 'none'; child-src 'none'; worker-src 'none'; manifest-src 'none'; base-uri 'none'; form-action 'none'`;
}

export function renderHtml(session: ExportedSession): string {
  const css = stylesheet();
  const hash = `sha256-${createHash("sha256").update(css, "utf8").digest("base64")}`;
  const title = sessionTitle(session);
  const fields = headerFields(session)
    .map(
      (f) =>
        `<dt>${esc(f.label)}</dt><dd>${f.label === "Tags" && session.tags.length > 0 ? session.tags.map((t) => `<span class="tag">#${esc(t)}</span>`).join("") : f.code ? `<code>${esc(f.value)}</code>` : esc(f.value)}</dd>`,
    )
    .join("\n");
  return [
    "<!DOCTYPE html>",
    `<html lang="en">`,
    "<head>",
    `<meta charset="utf-8">`,
    `<meta http-equiv="Content-Security-Policy" content="${esc(contentSecurityPolicy(hash))}">`,
    `<meta name="referrer" content="no-referrer">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>${esc(title)}</title>`,
    `<style>${css}</style>`,
    "</head>",
    "<body>",
    `<header>\n<h1>${esc(title)}</h1>\n<dl class="fields">\n${fields}\n</dl>\n</header>`,
    `<main>\n${conversationHtml(session)}</main>`,
    `<footer>Exported by recall ${esc(RECALL_VERSION)}. Session text is shown as text: nothing in it runs or is fetched.</footer>`,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

function conversationHtml(session: ExportedSession): string {
  return conversationParts(session)
    .map((part) => part.html)
    .join("\n");
}

/**
 * One shown entry of a session as HTML, with the ids of the entries it shows (a call's result is in
 * its call's part).
 */
export interface ConversationPart {
  /** Rendered on first read. */
  readonly html: string;
  entryIds: string[];
}

/**
 * The conversation a part per shown entry, in order, so that a long session can be shown a part
 * at a time (`recall serve`) and an export is the parts joined. An entry of a branch left behind
 * is marked as such, the first of each run with a note.
 */
export function conversationParts(session: ExportedSession): ConversationPart[] {
  const conversation = conversationOf(session);
  return conversation.shown.map(({ entry, branchStarts }) => {
    const answered = entry.blocks.flatMap((block) => {
      const result = block.type === "toolCall" ? conversation.resultOf.get(block.id) : undefined;
      return result ? [result.id] : [];
    });
    // Rendered when first asked for: a page of a long session renders only the parts it sends.
    let html: string | undefined;
    return {
      get html() {
        html ??=
          (branchStarts
            ? `<p class="branch-note">Branch left behind: not on the branch Pi continues</p>\n`
            : "") + entryHtml(entry, conversation);
        return html;
      },
      entryIds: [entry.id, ...answered],
    };
  });
}

function entryHtml(entry: DocumentEntry, conversation: Conversation): string {
  const meta: string[] = [];
  if (entry.model) meta.push(entry.model);
  if (entry.toolName) meta.push(entry.toolName);
  if (entry.kind === "compaction" && entry.tokensBefore !== undefined)
    meta.push(`${entry.tokensBefore.toLocaleString("en-US")} tokens summarized`);
  const tokens = entry.usage
    ? entry.usage.input + entry.usage.output + entry.usage.cacheRead + entry.usage.cacheWrite
    : 0;
  if (tokens > 0) meta.push(`${tokens.toLocaleString("en-US")} tokens`);
  const heading = `<h2><span class="role">${esc(KIND_LABELS[entry.kind])}</span>${meta.map((m) => ` <span class="meta">${esc(m)}</span>`).join("")} <time datetime="${esc(new Date(entry.timestamp).toISOString())}">${esc(utcTime(entry.timestamp))}</time></h2>`;
  const abandoned = entry.branch === "abandoned" ? " abandoned" : "";
  return `<article class="entry ${entry.kind}${abandoned}" id="entry-${esc(entry.id)}">\n${heading}\n${entryBody(entry, conversation)}</article>`;
}

function entryBody(entry: DocumentEntry, conversation: Conversation): string {
  switch (entry.kind) {
    case "bashExecution": {
      const status = entry.exitCode ? ` (exit ${entry.exitCode})` : "";
      return collapsed(
        `Ran <code>${esc(oneLine(entry.command ?? ""))}</code>${esc(status)}`,
        codeBlock(`$ ${entry.command ?? ""}\n${plainText(entry.blocks)}`, "bash"),
        entry.isError === true,
      );
    }
    case "toolResult":
      return collapsed(
        `Output${entry.isError ? " (failed)" : ""}`,
        codeBlock(plainText(entry.blocks), ""),
        entry.isError === true,
      );
    case "compaction":
    case "branch_summary":
      return collapsed(
        "Summary",
        `<div class="markdown">${markdownHtml(plainText(entry.blocks))}</div>`,
        false,
      );
    default:
      return (
        entry.blocks.map((block) => blockHtml(block, conversation)).join("") +
        (entry.error ? `<p class="error">Error: ${esc(entry.error)}</p>\n` : "")
      );
  }
}

function blockHtml(block: DocumentBlock, conversation: Conversation): string {
  switch (block.type) {
    case "text":
      return `<div class="markdown">${markdownHtml(block.text)}</div>\n`;
    case "image":
      return `<p class="image-ref">[image${block.mimeType ? ` ${esc(block.mimeType)}` : ""}]</p>\n`;
    case "thinking":
      return block.redacted
        ? `<p class="image-ref">[thinking, redacted]</p>\n`
        : collapsed("Thinking", `<div class="markdown">${markdownHtml(block.text)}</div>`, false);
    case "toolCall": {
      const result = conversation.resultOf.get(block.id);
      const failed = result?.isError === true;
      const output = result
        ? `<p>Output${failed ? " (failed)" : ""}:</p>\n${codeBlock(plainText(result.blocks), "")}`
        : `<p class="image-ref">No output recorded.</p>\n`;
      const summary = `Tool call <code>${esc(block.name)}</code> <span class="gist">${esc(argumentsGist(block.arguments))}</span>${failed ? " (failed)" : ""}`;
      return collapsed(summary, `${codeBlock(block.arguments, "json")}${output}`, failed);
    }
  }
}

/** A `details` element, closed: `summary` and `body` are HTML already. */
function collapsed(summary: string, body: string, failed: boolean): string {
  return `<details${failed ? ` class="failed"` : ""}><summary>${summary}</summary>\n<div class="body">\n${body}</div>\n</details>\n`;
}

/**
 * A message as an archive keeps it (one text of one role), for `recall serve`'s page of an archived
 * session.
 */
export interface PlainMessage {
  entryId: string;
  role: string;
  /** ms since epoch */
  timestamp: number;
  text: string;
  toolName?: string;
  isError?: boolean;
}

/**
 * A part of an archived session: its text rendered from Markdown (said and thought) or shown as
 * code in a collapsed box (calls, output).
 */
export function plainMessagePart(message: PlainMessage): ConversationPart {
  const kind = message.role in KIND_LABELS ? (message.role as keyof typeof KIND_LABELS) : "custom";
  const label = KIND_LABELS[kind];
  const meta = message.toolName ? ` <span class="meta">${esc(message.toolName)}</span>` : "";
  const heading = `<h2><span class="role">${esc(label)}</span>${meta} <time datetime="${esc(new Date(message.timestamp).toISOString())}">${esc(utcTime(message.timestamp))}</time></h2>`;
  const body =
    kind === "toolResult" || kind === "bashExecution"
      ? collapsed(
          `Output${message.isError ? " (failed)" : ""}`,
          codeBlock(message.text, ""),
          message.isError === true,
        )
      : `<div class="markdown">${markdownHtml(message.text)}</div>\n`;
  return {
    html: `<article class="entry ${kind}" id="entry-${esc(message.entryId)}">\n${heading}\n${body}</article>`,
    entryIds: [message.entryId],
  };
}
