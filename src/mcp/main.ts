/**
 * The MCP server's entry, bundled on its own (dist/bundle/mcp.cjs) so that the SDK never loads for
 * other commands.
 */
export { mcpConfig, SCOPES } from "./config.js";
export type { McpFlags } from "./config.js";
export { serveMcp } from "./server.js";
