/**
 * The server's startup configuration: trusted operator input from flags and the environment,
 * never from a tool argument. Flags win over the environment (the names the seed gives);
 * `~/` is expanded and relative paths are taken from the process folder.
 */
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { Recall, RecallError, type RecallOptions } from "../index.js";

export const SCOPES = ["project", "all"] as const;
export type Scope = (typeof SCOPES)[number];
/**
 * pi_session_search's scopes: also `remote`, the archive the server was started with (`--remote`).
 */
export const SEARCH_SCOPES = [...SCOPES, "remote"] as const;
export type SearchScope = (typeof SEARCH_SCOPES)[number];

export interface McpFlags {
  agentDir?: string;
  sessionsDir?: string;
  projectDir?: string;
  defaultScope?: string;
  allowTagging?: boolean;
  remote?: string;
}

export interface McpConfig {
  /** How to open the library: the sessions folder and where the index is. */
  recall: RecallOptions;
  /** The project folder `scope: "project"` means; none configured: project scope is unavailable. */
  projectDir: string | undefined;
  defaultScope: Scope;
  allowTagging: boolean;
  /**
   * The remote of recall's config.json that `scope: "remote"` searches; none: that scope is
   * unavailable.
   */
  remote: string | undefined;
}

function absolute(path: string, cwd: string): string {
  const expanded =
    path === "~" ? homedir() : path.startsWith("~/") ? join(homedir(), path.slice(2)) : path;
  return isAbsolute(expanded) ? expanded : resolve(cwd, expanded);
}

/** The configuration, or an Error whose message is one line for the operator. */
export function mcpConfig(flags: McpFlags, env: NodeJS.ProcessEnv, cwd: string): McpConfig {
  const agentDir = flags.agentDir ?? env.PI_CODING_AGENT_DIR;
  const sessionsDir = flags.sessionsDir ?? env.PI_CODING_AGENT_SESSION_DIR;
  const projectDir = flags.projectDir ?? env.PI_SESSION_RECALL_PROJECT_DIR;
  const scope = flags.defaultScope ?? env.PI_SESSION_RECALL_DEFAULT_SCOPE ?? "project";
  if (!(SCOPES as readonly string[]).includes(scope))
    throw new Error(`the default scope must be project or all, not "${scope}"`);
  const recall: RecallOptions = {
    env: { ...env, ...(agentDir ? { PI_CODING_AGENT_DIR: absolute(agentDir, cwd) } : {}) },
    sessionsDir: sessionsDir ? absolute(sessionsDir, cwd) : undefined,
    cwd,
    // Syncs and session reads on a worker thread: a request never waits behind JSONL parsing.
    background: true,
    // The session folders watched: a request checks the files only after a change.
    live: true,
  };
  if (flags.remote !== undefined) checkRemote(recall, flags.remote, cwd);
  return {
    recall,
    projectDir: projectDir ? absolute(projectDir, cwd) : undefined,
    defaultScope: scope as Scope,
    allowTagging: flags.allowTagging ?? false,
    remote: flags.remote,
  };
}

/** A remote the operator named must be in recall's config.json; nothing is sent to it yet. */
function checkRemote(recall: RecallOptions, remote: string, cwd: string): void {
  let names: string[];
  try {
    names = Recall.open({ env: recall.env, sessionsDir: recall.sessionsDir, cwd })
      .archive.remotes()
      .map((remote) => remote.name);
  } catch (error) {
    if (error instanceof RecallError)
      throw new Error(`cannot read the remotes of recall's config.json: ${error.message}`);
    throw error;
  }
  if (!names.includes(remote))
    throw new Error(
      `no remote named "${remote}" in recall's config.json (${names.length > 0 ? `it has: ${names.join(", ")}` : "it has none; add one with `recall remote add NAME URL`"})`,
    );
}
