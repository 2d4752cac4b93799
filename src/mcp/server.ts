/**
 * `recall mcp`: the read-only MCP server over stdio. stdout carries only JSON-RPC; diagnostics go
 * to stderr and never hold session text or paths. The library stays open for the life of the
 * process and keeps the index fresh: a query syncs first when the session folders changed.
 */
import { McpServer } from "@modelcontextprotocol/server";
import { Recall } from "../index.js";
import type { McpConfig } from "./config.js";
import { serverInstructions } from "./instructions.js";
import { registerPriorDecisionPrompt } from "./prompt.js";
import { registerConversationResource } from "./resource.js";
import { SessionPages } from "./session-pages.js";
import { SessionReader } from "./session-reader.js";
import { LineStdioTransport } from "./stdio-transport.js";
import { McpSessions } from "./sessions.js";
import { Tokens } from "./tokens.js";
import { registerTools } from "./tools.js";

export function createMcpServer(
  config: McpConfig,
  version: string,
): { server: McpServer; recall: Recall } {
  const recall = Recall.open(config.recall);
  // Tokens are keyed by the sessions folder: the same after a restart, refused by a server of
  // another folder.
  const key = `recall-mcp:${recall.locations.sessionsDir}`;
  const tokens = new Tokens(key);
  const sessions = new McpSessions(recall, tokens, key, config.remote);
  const reader = new SessionReader(sessions, tokens);
  const pages = new SessionPages(config, sessions, tokens);
  // The tools, the template and the prompt are fixed for the life of the server: no list ever
  // changes.
  const unchanging = { listChanged: false };
  const server = new McpServer(
    { name: "recall", version },
    {
      instructions: serverInstructions(config),
      capabilities: { tools: unchanging, resources: unchanging, prompts: unchanging },
    },
  );
  // A first index of a large history takes minutes: it runs in the background, and calls meanwhile
  // answer from what is indexed. With the model package, the meaning index follows it there too
  // (one thread, lowest priority).
  server.server.oninitialized = () => {
    recall.sessionTools.startIndexing();
    recall.meaning.follow(meaningFailure());
  };
  registerTools(server, { config, pages, reader, sessions });
  registerConversationResource(server, reader, () => pages.recent());
  registerPriorDecisionPrompt(server, tokens);
  return { server, recall };
}

/**
 * Says on stderr, once each, why the meaning index could not be built (its model file, never
 * session text).
 */
function meaningFailure(): (error: unknown) => void {
  const said = new Set<string>();
  return (error) => {
    const message = error instanceof Error ? error.message : String(error);
    if (said.has(message)) return;
    said.add(message);
    process.stderr.write(
      `recall-mcp: the meaning index could not be brought up to date: ${message}\n`,
    );
  };
}

/** Serves on stdin/stdout until the client closes stdin. */
export async function serveMcp(config: McpConfig, version: string): Promise<void> {
  const { server, recall } = createMcpServer(config, version);
  const transport = new LineStdioTransport();
  await server.connect(transport);
  await new Promise<void>((resolve) => {
    server.server.onclose = resolve;
  });
  recall.close();
}
