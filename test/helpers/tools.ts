/**
 * Programs a test drives that the README's setup (`npm install`) does not install: zsh, fish,
 * groff, man, tmux, fzf, script, strace. A test that needs one is skipped without it, and says so
 * in its name, so that `npm test` on a plain machine passes and shows what it left out (.ci/run
 * installs them all).
 */
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/** Whether `tool` is an executable file in a folder of PATH, as a spawn of it would find it. */
export function onPath(tool: string): boolean {
  return (process.env.PATH ?? "").split(delimiter).some((dir) => {
    try {
      accessSync(join(dir || ".", tool), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * " (skipped: zsh is not installed)" for the tools missing from PATH, for a test's name; "" when
 * all are there.
 */
export function skipWithout(...tools: string[]): string {
  const missing = tools.filter((tool) => !onPath(tool));
  if (missing.length === 0) return "";
  return ` (skipped: ${missing.join(" and ")} ${missing.length === 1 ? "is" : "are"} not installed)`;
}
