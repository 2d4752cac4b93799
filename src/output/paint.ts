/**
 * ANSI styles for terminal output, chainable as `paint.bold.red(text)`. Whether to color at all is
 * decided once, by the caller (see color.ts), so unlike chalk nothing here probes the terminal.
 */
const STYLES = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  yellow: [33, 39],
  magenta: [35, 39],
  cyan: [36, 39],
} as const;

export type Style = keyof typeof STYLES;
export type Paint = ((text: string) => string) & { readonly [S in Style]: Paint };

export function createPaint(enabled: boolean, applied: readonly Style[] = []): Paint {
  // The first style named is the outermost: bold.red(t) is bold(red(t)).
  const paint = ((text: string) =>
    enabled ? applied.reduceRight((inner, style) => `\x1b[${STYLES[style][0]}m${inner}\x1b[${STYLES[style][1]}m`, text) : text) as Paint;
  for (const style of Object.keys(STYLES) as Style[]) {
    // Made on first use and kept: output code reaches for paint.dim and friends on every line.
    Object.defineProperty(paint, style, {
      configurable: true,
      get: () => {
        const chained = createPaint(enabled, [...applied, style]);
        Object.defineProperty(paint, style, { value: chained });
        return chained;
      },
    });
  }
  return paint;
}
