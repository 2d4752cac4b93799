/**
 * Rendering a session for people to read elsewhere: Markdown, or one self-contained HTML file.
 * Loaded only when an export asks for it (the CLI bundles it on its own: scripts/bundle-cli.mjs).
 */
export {
  renderHtml,
  conversationParts,
  plainMessagePart,
  type ConversationPart,
  type PlainMessage,
} from "./html.js";
export { stylesheet } from "./stylesheet.js";
export { headerFields, resumeLine, sessionTitle, type HeaderField } from "./session-header.js";
export { renderMarkdown } from "./markdown.js";
export { warmRenderers } from "./markdown-html.js";
export type { ExportedSession, ExportFormat } from "./exported-session.js";
