/**
 * The progress notifications an MCP server writes, counted where the client's transport reads
 * them. The SDK's client hands a notification to `onprogress` a microtask after reading it but
 * settles a response read in the same chunk at once, dropping the call's progress handler: a
 * notification written just before the answer can miss `onprogress`. It cannot miss the transport.
 * Call after `client.connect(transport)`, which installs the transport's `onmessage`.
 */
import type { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

export interface ProgressOnWire {
  /** The progress values read since the last call. */
  take(): number[];
}

export function watchProgress(transport: StdioClientTransport): ProgressOnWire {
  let seen: number[] = [];
  const deliver = transport.onmessage!;
  transport.onmessage = (message) => {
    if ("method" in message && message.method === "notifications/progress")
      seen.push(Number(message.params?.progress));
    deliver(message);
  };
  return {
    take: () => {
      const taken = seen;
      seen = [];
      return taken;
    },
  };
}
