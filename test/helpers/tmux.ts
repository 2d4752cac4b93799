/** A tmux server of a test's own (its socket named `socket`), driven and read like a user's terminal. */
import { execFileSync } from "node:child_process";

export interface TmuxDriver {
  tmux(...args: string[]): string;
  /** What the pane of session `pick` shows. */
  screen(): string;
  /** Resolves once `check` holds, polling for up to 10 s; else fails with the screen. */
  waitFor(check: () => boolean, what: string): Promise<void>;
}

export function tmuxDriver(socket: string): TmuxDriver {
  const tmux = (...args: string[]) => execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });
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
