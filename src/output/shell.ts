/** Words for a POSIX shell: left bare when that is safe, otherwise in single quotes. */
const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/;

export function shellQuote(word: string): string {
  if (SAFE.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export function shellLine(argv: string[]): string {
  return argv.map(shellQuote).join(" ");
}
