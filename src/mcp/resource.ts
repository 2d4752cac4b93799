/**
 * The conversation of a session as a resource, `pi-session://sessions/{session_ref}/conversation`:
 * at most RESOURCE_CHARS characters in all, framing included, ending with the cursor to continue
 * with pi_session_read. Never unbounded. A reference the server did not make, or whose session
 * is gone, is "resource not found" (-32602 with the URI), as for any unknown resource.
 */
import {
  ResourceNotFoundError,
  ResourceTemplate,
  type McpServer,
  type Resource,
} from "@modelcontextprotocol/server";
import { MIN_PAGE_CHARS, RESOURCE_CHARS } from "./schemas.js";
import type { SessionReader } from "./session-reader.js";
import { toToolError } from "./tool-error.js";

export const CONVERSATION_TEMPLATE = "pi-session://sessions/{session_ref}/conversation";

export function conversationUri(ref: string): string {
  return `pi-session://sessions/${ref}/conversation`;
}

/**
 * The first page of the conversation whose whole text fits RESOURCE_CHARS: the budget for
 * message text shrinks in proportion to what the framing of its messages added.
 */
async function firstPage(reader: SessionReader, ref: string): Promise<string> {
  let budget = RESOURCE_CHARS;
  for (;;) {
    const { text } = await reader.read({ session_ref: ref, max_chars: budget });
    if (text.length <= RESOURCE_CHARS || budget === MIN_PAGE_CHARS) return text;
    budget = Math.max(MIN_PAGE_CHARS, Math.floor((budget * RESOURCE_CHARS * 0.98) / text.length));
  }
}

/**
 * `recent`: the latest sessions of the default scope, for clients that browse resources
 * (resources/list).
 */
export function registerConversationResource(
  server: McpServer,
  reader: SessionReader,
  recent: () => Promise<Resource[]>,
): void {
  server.registerResource(
    "pi-session-conversation",
    new ResourceTemplate(CONVERSATION_TEMPLATE, {
      list: async () => ({ resources: await recent() }),
    }),
    {
      title: "Pi session conversation",
      description: `The start of a session's conversation, at most ${RESOURCE_CHARS.toLocaleString("en")} characters in all; continue with pi_session_read and the next_cursor it names`,
      mimeType: "text/plain",
    },
    async (uri, variables) => {
      const ref = String(variables.session_ref ?? "");
      try {
        return {
          contents: [{ uri: uri.href, mimeType: "text/plain", text: await firstPage(reader, ref) }],
        };
      } catch (error) {
        const toolError = toToolError(error);
        const words = `${toolError.code}: ${toolError.message}. Next: ${toolError.recovery}.`;
        if (
          toolError.code === "INVALID_SESSION_REF" ||
          toolError.code === "SESSION_NOT_FOUND" ||
          toolError.code === "SESSION_REPLACED"
        )
          throw new ResourceNotFoundError(uri.href, words);
        throw new Error(words);
      }
    },
  );
}
