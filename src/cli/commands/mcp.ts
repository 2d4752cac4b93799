import { createRequire } from "node:module";
import { Command } from "clipanion";
import { Option } from "../options.js";
import { isEnum } from "typanion";
import type { RecallContext } from "../context.js";
import { Exit, type ExitCode } from "../exit.js";
import { VERSION } from "../main.js";

const SCOPES = ["project", "all"];

/** What dist/bundle/mcp.cjs (src/mcp/main.ts) exports. */
interface McpBundle {
  mcpConfig(flags: Record<string, unknown>, env: NodeJS.ProcessEnv, cwd: string): unknown;
  serveMcp(config: unknown, version: string): Promise<void>;
}

export class McpCommand extends Command<RecallContext> {
  static paths = [["mcp"]];

  static usage = Command.Usage({
    description: "serve Pi sessions to MCP clients (read-only, over stdio)",
    details: `
      Starts a Model Context Protocol server on stdin and stdout with the tools pi_session_search, pi_session_find, pi_session_list, pi_session_context, pi_session_read and pi_session_related, the resource template pi-session://sessions/{session_ref}/conversation and the prompt recall-prior-decision. \`recall-mcp\` starts the same server.

      Each option falls back to an environment variable: PI_CODING_AGENT_DIR, PI_CODING_AGENT_SESSION_DIR, PI_SESSION_RECALL_PROJECT_DIR, PI_SESSION_RECALL_DEFAULT_SCOPE. stdout carries only JSON-RPC; diagnostics go to stderr.

      Indexing starts in the background once a client has initialized the server; a call during that first index waits up to 5 seconds, then answers from what is indexed with index_complete false and a note saying how far indexing got. A sessions folder that does not exist or is a file is answered STORAGE_UNAVAILABLE. Every input line is answered: -32700 for text that is not JSON, -32600 for an invalid request, a batch, a line over 1 MiB or nested deeper than 64 levels; the server keeps serving. When stdin closes, it answers every request already received, then exits with status 0.

      With --remote NAME (a remote of recall's config.json, see \`recall remote\`), pi_session_search also takes scope "remote": the sessions pushed to that archive from every machine, each with the machine and user it lives on; pi_session_read and the conversation resource read them by their session_ref. The other scopes never wait for the archive; an archive that is down, slow or refuses the credentials is a REMOTE_UNAVAILABLE tool error within the remote's timeout, naming the remote, never its host.
    `,
    examples: [
      ["Serve the sessions of one project by default", "$0 mcp --project-dir ~/src/app"],
      ["Serve every project and allow tagging", "$0 mcp --default-scope all --allow-tagging"],
      ['Also search the team\'s archive with scope "remote"', "$0 mcp --remote team"],
    ],
  });

  agentDir = Option.String("--agent-dir", {
    description: "Pi's agent directory (default: PI_CODING_AGENT_DIR or ~/.pi/agent)",
  });
  sessionsDir = Option.String("--sessions-dir", {
    description: "Read sessions from this directory (flat layout) instead of <agent-dir>/sessions",
  });
  projectDir = Option.String("--project-dir", {
    description: 'The project folder scope "project" means',
  });
  defaultScope = Option.String("--default-scope", {
    description: "project (default) or all",
    validator: isEnum(SCOPES),
  });
  allowTagging = Option.Boolean("--allow-tagging", false, {
    description: "Also offer pi_session_tag (recall's tags; session files are never written)",
  });
  remote = Option.String("--remote", {
    description:
      'Let pi_session_search take scope "remote": this remote of recall\'s config.json (its host is never returned)',
  });

  async execute(): Promise<ExitCode> {
    // The server and its SDK are a bundle of their own, loaded only here.
    const server = createRequire(import.meta.url)(
      new URL("./mcp.cjs", import.meta.url).pathname,
    ) as McpBundle;
    let config;
    try {
      config = server.mcpConfig(
        {
          agentDir: this.agentDir,
          sessionsDir: this.sessionsDir,
          projectDir: this.projectDir,
          defaultScope: this.defaultScope,
          allowTagging: this.allowTagging,
          remote: this.remote,
        },
        this.context.env,
        this.context.cwd,
      );
    } catch (error) {
      this.context.stderr.write(`recall: ${(error as Error).message}\n`);
      return Exit.Error;
    }
    await server.serveMcp(config, VERSION);
    return Exit.Ok;
  }
}
