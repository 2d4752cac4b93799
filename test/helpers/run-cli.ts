/** Runs the built `recall` binary as a user would, and captures what it printed. */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const RECALL_BIN = fileURLToPath(new URL("../../bin/recall.cjs", import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runRecall(args: string[], options: { env: NodeJS.ProcessEnv; cwd?: string; input?: string }): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [RECALL_BIN, ...args], { env: options.env, cwd: options.cwd, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
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
