/**
 * A throwaway Pi agent directory for a test: a copy of the project's fixture sessions (or none),
 * with recall's cache and data inside it, and the environment that points recall at it.
 */
import { cpSync, existsSync, mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const FIXTURES = fileURLToPath(new URL("../fixtures", import.meta.url));
export const SHARED_FIXTURES = fileURLToPath(
  new URL("../../../shared/fixtures/pi-sessions", import.meta.url),
);
/**
 * " (skipped: …)" for the name of a test over the shared fixtures when they are not there (a user's
 * clone); "" when they are.
 */
export const SHARED_FIXTURES_SKIP = existsSync(SHARED_FIXTURES)
  ? ""
  : " (skipped: no ../shared/fixtures/pi-sessions beside the checkout)";

export interface AgentDir {
  root: string;
  agentDir: string;
  sessionsDir: string;
  env: NodeJS.ProcessEnv;
  cleanup(): void;
}

export function makeAgentDir(options: { withFixtures?: boolean } = {}): AgentDir {
  const root = mkdtempSync(join(tmpdir(), "recall-test-"));
  const agentDir = join(root, "agent");
  const sessionsDir = join(agentDir, "sessions");
  mkdirSync(sessionsDir, { recursive: true });
  if (options.withFixtures ?? true)
    cpSync(join(FIXTURES, "agent", "sessions"), sessionsDir, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: root,
    PI_CODING_AGENT_DIR: agentDir,
  };
  // Retries: a process the test just stopped (tmux, a picker reload) may still be writing its
  // cache.
  const cleanup = () =>
    rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  return { root, agentDir, sessionsDir, env, cleanup };
}
