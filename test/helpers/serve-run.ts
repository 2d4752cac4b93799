/**
 * `recall serve` as a user runs it: the built CLI in a child process, its printed address, and a
 * cookie of its secret.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { RECALL_BIN } from "./run-cli.js";

export interface Serving {
  /** The printed address, with the run's secret. */
  url: string;
  /** `http://127.0.0.1:PORT` */
  origin: string;
  port: number;
  /** `recall-PORT=SECRET`, as the browser keeps it. */
  cookie: string;
  child: ChildProcess;
  /** What it wrote on stderr so far. */
  stderr(): string;
  /** SIGTERM, then its exit code. */
  stop(): Promise<number | null>;
}

export function startServe(
  env: NodeJS.ProcessEnv,
  args: string[] = [],
  cwd?: string,
): Promise<Serving> {
  const child = spawn(process.execPath, [RECALL_BIN, "serve", ...args], {
    env,
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) =>
    child.on("close", (code) => resolve(code)),
  );
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.setEncoding("utf8").on("data", (d: string) => {
      out += d;
      const line = out.split("\n")[0]!;
      if (!out.includes("\n")) return;
      const url = new URL(line);
      const port = Number(url.port);
      resolve({
        url: line,
        origin: url.origin,
        port,
        cookie: `recall-${port}=${url.searchParams.get("token")}`,
        child,
        stderr: () => stderr,
        stop: () => {
          child.kill("SIGTERM");
          return exited;
        },
      });
    });
    child.on("close", (code) =>
      reject(new Error(`recall serve exited (${code}) before printing its address: ${stderr}`)),
    );
  });
}
