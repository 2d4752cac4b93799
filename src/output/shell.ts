/** Words for a POSIX shell: left bare when that is safe, otherwise in single quotes. */
const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

export function shellQuote(word: string): string {
  if (SAFE.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export function shellLine(argv: string[]): string {
  return argv.map(shellQuote).join(" ");
}

/** How to resume a session, as one shell line: `cd <cwd> && pi --session <path>`. */
export function resumeShellLine(plan: { argv: string[]; cwd: string }): string {
  return `${shellLine(["cd", plan.cwd])} && ${shellLine(plan.argv)}`;
}
