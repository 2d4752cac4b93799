/**
 * Words for a POSIX shell: left bare when that is safe, otherwise in single quotes; a word with a
 * control character in it (a path can hold any byte) in `$'…'` with that character as `\xHH`, so
 * the line printed holds no byte a terminal would act on, and the shell still reads the word back
 * exactly (bash, zsh, ksh, and POSIX sh since 2024 read `$'…'`).
 */
const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export function shellQuote(word: string): string {
  if (SAFE.test(word)) return word;
  if (CONTROL.test(word)) return ansiCQuote(word);
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

function ansiCQuote(word: string): string {
  const body = word.replace(/[\\']|[\u0000-\u001f\u007f]/g, (ch) =>
    ch === "\\" || ch === "'" ? `\\${ch}` : `\\x${ch.charCodeAt(0).toString(16).padStart(2, "0")}`,
  );
  // A C1 control is a character of two UTF-8 bytes: written as those bytes.
  return `$'${body.replace(/[\u0080-\u009f]/g, (ch) => [...Buffer.from(ch)].map((b) => `\\x${b.toString(16)}`).join(""))}'`;
}

export function shellLine(argv: string[]): string {
  return argv.map(shellQuote).join(" ");
}

/** How to resume a session, as one shell line: `cd <cwd> && pi --session <path>`. */
export function resumeShellLine(plan: { argv: string[]; cwd: string }): string {
  return `${shellLine(["cd", plan.cwd])} && ${shellLine(plan.argv)}`;
}
