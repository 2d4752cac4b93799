/**
 * A library script run in a child process that says where it is with one line on its stdout
 * (`writeSync(1, …)`), then waits (`sleep`) to be killed: both are defined for the script.
 */
import { spawn } from "node:child_process";

export interface Speaking {
  /** Its first line (or all it printed, if it ended before a newline). */
  said: Promise<string>;
  /** The signal that ended it, once it has. */
  closed: Promise<NodeJS.Signals | null>;
  kill(): Promise<NodeJS.Signals | null>;
}

export function runSpeaking(env: NodeJS.ProcessEnv, script: string): Speaking {
  const child = spawn(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `import { writeSync } from "node:fs";
       const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
       ${script}`,
    ],
    { env, stdio: ["ignore", "pipe", "inherit"] },
  );
  const closed = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on("close", (_code, signal) => resolve(signal)),
  );
  const said = new Promise<string>((resolve) => {
    let out = "";
    child.stdout.on("data", (data: Buffer) => {
      out += data.toString();
      if (out.includes("\n")) resolve(out.trim());
    });
    closed.then(
      () => resolve(out.trim()),
      () => resolve(out.trim()),
    );
  });
  return {
    said,
    closed,
    kill: () => {
      child.kill("SIGKILL");
      return closed;
    },
  };
}
