/**
 * Styles for terminal output, chainable as `paint.bold.red(text)`: chalk, at the level recall
 * decided (see color.ts), so chalk never looks at the terminal, the environment or argv itself.
 * Basic colors only (level 1): the 16 colors every terminal has. Commands get theirs through
 * load-paint.ts, which loads this module only when there are colors to make.
 */
import { Chalk } from "chalk";
import type { Paint } from "./load-paint.js";

export type { Paint, Style } from "./load-paint.js";

export function createPaint(enabled: boolean): Paint {
  return new Chalk({ level: enabled ? 1 : 0 });
}
