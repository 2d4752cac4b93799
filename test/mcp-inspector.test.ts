/**
 * The official MCP Inspector's CLI (pinned devDependency) against the built server: `tools/list`
 * with `--strict` (schema portability: any warning fails here) and a `tools/call`, run headless
 * on this Node. The Inspector passes the server only a minimal environment (HOME, PATH, …), so
 * the agent folder is given as the server's own flag, as a client configuration would.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";

const BIN = new URL("../bin/recall-mcp.cjs", import.meta.url).pathname;
const require = createRequire(import.meta.url);
const INSPECTOR = join(
  dirname(require.resolve("@modelcontextprotocol/inspector/package.json")),
  "clients",
  "launcher",
  "build",
  "index.js",
);

let agent: AgentDir;

function inspect(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const server = [process.execPath, BIN, "--agent-dir", agent.agentDir, "--default-scope", "all"];
    const child = spawn(process.execPath, [INSPECTOR, "--cli", ...server, ...args], {
      env: agent.env,
      cwd: agent.root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

beforeEach(() => {
  agent = makeAgentDir();
});
afterEach(() => agent.cleanup());

describe("the MCP Inspector CLI", () => {
  it("finds the Inspector installed", () => {
    expect(existsSync(INSPECTOR)).toBe(true);
  });

  it("lists the tools with --strict, without a single portability warning", async () => {
    const run = await inspect(["--method", "tools/list", "--strict"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const { tools } = JSON.parse(run.stdout) as {
      tools: { name: string; outputSchema?: unknown }[];
    };
    expect(tools.map((t) => t.name).sort()).toEqual([
      "pi_session_context",
      "pi_session_find",
      "pi_session_list",
      "pi_session_read",
      "pi_session_related",
      "pi_session_search",
    ]);
    for (const tool of tools) expect(tool.outputSchema).toBeDefined();
  });

  it("calls pi_session_search and gets structured results", async () => {
    const run = await inspect([
      "--method",
      "tools/call",
      "--tool-name",
      "pi_session_search",
      "--tool-arg",
      "query=deploy",
      "--tool-arg",
      "limit=2",
    ]);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as {
      isError?: boolean;
      structuredContent: { results: { session_ref: string }[]; scanned_sessions: number };
    };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.results).toHaveLength(2);
    expect(result.structuredContent.results[0]!.session_ref).toMatch(/^sref_/);
    expect(result.structuredContent.scanned_sessions).toBeGreaterThan(5);
  });

  it("gets a tool error that matches the output schema (a forged ref): exit 5, the Inspector's isError", async () => {
    const run = await inspect([
      "--method",
      "tools/call",
      "--tool-name",
      "pi_session_read",
      "--tool-arg",
      'session_ref="sref_forged"',
    ]);
    expect(run.code).toBe(5);
    expect(run.stdout).toContain("INVALID_SESSION_REF");
    expect(run.stdout + run.stderr).not.toContain(agent.root);
  });
});
