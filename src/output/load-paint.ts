/**
 * The paint for one run, with chalk loaded only when there are colors to make: loading chalk
 * loads Node's tty module, and with it net and the stream modules, a few milliseconds of a cold
 * start that output to a pipe or a file never needs.
 */
const STYLES = ["bold", "dim", "red", "yellow", "magenta", "cyan"] as const;

/** The styles recall uses, as chalk chains them (`paint.bold.red(text)`: bold outermost). */
export type Style = (typeof STYLES)[number];
export type Paint = ((text: string) => string) & { readonly [S in Style]: Paint };

/** Output without colors: every style, and every chain of styles, gives the text back as it is. */
const PLAIN = ((text: string) => text) as Paint;
for (const style of STYLES) Object.defineProperty(PLAIN, style, { value: PLAIN });

export async function loadPaint(enabled: boolean): Promise<Paint> {
  if (!enabled) return PLAIN;
  const { createPaint } = await import("./paint.js");
  return createPaint(true);
}
