/**
 * A tmux server of a test's own (its socket named `socket`), driven and read like a user's
 * terminal.
 */
import { execFileSync } from "node:child_process";

export interface TmuxDriver {
  tmux(...args: string[]): string;
  /** What the pane of session `pick` shows. */
  screen(): string;
  /** Resolves once `check` holds, polling for up to 10 s; else fails with the screen. */
  waitFor(check: () => boolean, what: string): Promise<void>;
}

export function tmuxDriver(socket: string): TmuxDriver {
  const tmux = (...args: string[]) =>
    execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
  const screen = () => tmux("capture-pane", "-p", "-t", "pick");
  const waitFor = async (check: () => boolean, what: string) => {
    for (let i = 0; i < 100; i++) {
      if (check()) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}; screen:\n${screen()}`);
  };
  return { tmux, screen, waitFor };
}

/** The real Pi in a tmux server of a test's own: its pane is the session `pi`. */
export interface PiTmux {
  tmux(...args: string[]): string;
  /** What Pi's pane shows. */
  screen(): string;
  /**
   * The screen once `test` holds of it, polling for up to `timeoutMs` (30 s); else fails with the
   * screen.
   */
  waitFor(what: string, test: (text: string) => boolean, timeoutMs?: number): Promise<string>;
  /** Types a line into Pi's editor and submits it. */
  submit(line: string): Promise<void>;
  /**
   * Stops the tmux server and waits for Pi to exit (it shuts down gracefully on the hangup, and may
   * still be writing the index), killing it if it outlives `timeoutMs`.
   */
  stop(timeoutMs?: number): Promise<void>;
}

/**
 * A driver of Pi in the tmux server `socket`; `env()` is the environment tmux runs with (set in a
 * beforeAll).
 */
export function piTmux(socket: string, env: () => NodeJS.ProcessEnv): PiTmux {
  const tmux = (...args: string[]): string =>
    execFileSync("tmux", ["-L", socket, "-f", "/dev/null", ...args], {
      env: env(),
      encoding: "utf8",
    });
  const screen = (): string => tmux("capture-pane", "-p", "-t", "pi");
  const waitFor = async (
    what: string,
    test: (text: string) => boolean,
    timeoutMs = 30_000,
  ): Promise<string> => {
    const deadline = Date.now() + timeoutMs;
    let last = "";
    while (Date.now() < deadline) {
      last = screen();
      if (test(last)) return last;
      await new Promise((r) => setTimeout(r, 150));
    }
    throw new Error(`timed out waiting for ${what}; the screen shows:\n${last}`);
  };
  const submit = async (line: string): Promise<void> => {
    tmux("send-keys", "-t", "pi", "-l", line);
    await waitFor(`"${line}" in the editor`, (s) => s.includes(line));
    tmux("send-keys", "-t", "pi", "Enter");
  };
  const stop = async (timeoutMs = 15_000): Promise<void> => {
    let pi: number | undefined;
    try {
      pi = Number(tmux("display-message", "-p", "-t", "pi", "#{pane_pid}"));
      tmux("kill-server");
    } catch {
      // already gone
    }
    if (pi) await exited(pi, timeoutMs);
  };
  return { tmux, screen, waitFor, submit, stop };
}

/** Resolves once process `pid` is gone; kills it if it outlives `timeoutMs`. */
async function exited(pid: number, timeoutMs: number): Promise<void> {
  const alive = (): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const deadline = Date.now() + timeoutMs;
  while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (alive()) process.kill(pid, "SIGKILL");
}
