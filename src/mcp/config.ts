/**
 * The server's startup configuration: trusted operator input from flags and the environment,
 * never from a tool argument. Flags win over the environment (the names the seed gives);
 * `~/` is expanded and relative paths are taken from the process folder.
 */
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import type { RecallOptions } from "../index.js";

export const SCOPES = ["project", "all"] as const;
export type Scope = (typeof SCOPES)[number];

export interface McpFlags {
  agentDir?: string;
  sessionsDir?: string;
  projectDir?: string;
  defaultScope?: string;
  allowTagging?: boolean;
}

export interface McpConfig {
  /** How to open the library: the sessions folder and where the index is. */
  recall: RecallOptions;
  /** The project folder `scope: "project"` means; none configured: project scope is unavailable. */
  projectDir: string | undefined;
  defaultScope: Scope;
  allowTagging: boolean;
}

function absolute(path: string, cwd: string): string {
  const expanded = path === "~" ? homedir() : path.startsWith("~/") ? join(homedir(), path.slice(2)) : path;
  return isAbsolute(expanded) ? expanded : resolve(cwd, expanded);
}

/** The configuration, or an Error whose message is one line for the operator. */
export function mcpConfig(flags: McpFlags, env: NodeJS.ProcessEnv, cwd: string): McpConfig {
  const agentDir = flags.agentDir ?? env.PI_CODING_AGENT_DIR;
  const sessionsDir = flags.sessionsDir ?? env.PI_CODING_AGENT_SESSION_DIR;
  const projectDir = flags.projectDir ?? env.PI_SESSION_RECALL_PROJECT_DIR;
  const scope = flags.defaultScope ?? env.PI_SESSION_RECALL_DEFAULT_SCOPE ?? "project";
  if (!(SCOPES as readonly string[]).includes(scope)) throw new Error(`the default scope must be project or all, not "${scope}"`);
  return {
    recall: {
      env: { ...env, ...(agentDir ? { PI_CODING_AGENT_DIR: absolute(agentDir, cwd) } : {}) },
      sessionsDir: sessionsDir ? absolute(sessionsDir, cwd) : undefined,
      cwd,
      // Syncs and session reads on a worker thread: a request never waits behind JSONL parsing.
      background: true,
      // The session folders watched: a request checks the files only after a change.
      live: true,
    },
    projectDir: projectDir ? absolute(projectDir, cwd) : undefined,
    defaultScope: scope as Scope,
    allowTagging: flags.allowTagging ?? false,
  };
}
