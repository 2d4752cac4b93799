/** Runs the built `recall` binary as a user would, and captures what it printed. */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const RECALL_BIN = fileURLToPath(new URL("../../bin/recall.cjs", import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Set when the process was still running after `timeoutMs` and was killed. */
  timedOut?: boolean;
}

export function runRecall(
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd?: string; input?: string; timeoutMs?: number },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [RECALL_BIN, ...args], {
      env: options.env,
      cwd: options.cwd,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => ((timedOut = true), child.kill("SIGKILL")), options.timeoutMs);
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ...(timedOut ? { timedOut } : {}) });
    });
    child.stdin.end(options.input ?? "");
  });
}

/** Parses JSON Lines output. */
export function jsonLines<T = Record<string, unknown>>(text: string): T[] {
  return text
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as T);
}
