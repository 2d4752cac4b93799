/**
 * The conversation of a session as a resource, `pi-session://sessions/{session_ref}/conversation`:
 * its first RESOURCE_CHARS characters, then the cursor to continue with pi_session_read. Never
 * unbounded.
 */
import { ResourceTemplate, type McpServer } from "@modelcontextprotocol/server";
import { RESOURCE_CHARS } from "./schemas.js";
import type { SessionReader } from "./session-reader.js";
import { toToolError } from "./tool-error.js";

export const CONVERSATION_TEMPLATE = "pi-session://sessions/{session_ref}/conversation";

export function conversationUri(ref: string): string {
  return `pi-session://sessions/${ref}/conversation`;
}

export function registerConversationResource(server: McpServer, reader: SessionReader): void {
  server.registerResource(
    "pi-session-conversation",
    new ResourceTemplate(CONVERSATION_TEMPLATE, { list: undefined }),
    {
      title: "Pi session conversation",
      description: `The first ${RESOURCE_CHARS.toLocaleString("en")} characters of a session's conversation; continue with pi_session_read and the next_cursor it names`,
      mimeType: "text/plain",
    },
    async (uri, variables) => {
      const ref = String(variables.session_ref ?? "");
      try {
        const page = await reader.read({ session_ref: ref, max_chars: RESOURCE_CHARS });
        return { contents: [{ uri: uri.href, mimeType: "text/plain", text: page.text }] };
      } catch (error) {
        const toolError = toToolError(error);
        throw new Error(`${toolError.code}: ${toolError.message}. Next: ${toolError.recovery}.`);
      }
    },
  );
}
