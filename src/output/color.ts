/**
 * Whether output gets ANSI colors, decided once: `--color always|never` wins; `auto` means color
 * only on a terminal, and never when NO_COLOR is set (to anything non-empty) or TERM is `dumb`.
 */
export type ColorMode = "auto" | "always" | "never";
export const COLOR_MODES: readonly ColorMode[] = ["auto", "always", "never"];

export function resolveColor(mode: ColorMode, env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (mode === "always") return true;
  if (mode === "never") return false;
  if (env.NO_COLOR) return false;
  if (env.TERM === "dumb") return false;
  return isTTY;
}
