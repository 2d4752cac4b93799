/**
 * Whether an output is a terminal (colours, progress bars, one write per line), for the
 * `isTerminal` the library exports.
 */
import { fstatSync } from "node:fs";
import { createRequire } from "node:module";
import { nativeModule } from "../native/binding.js";

/**
 * Whether the descriptor is a terminal, without creating Node's stream or loading its tty module
 * (which loads net and streams: ~4 ms): only a character device can be one (a terminal, or
 * /dev/null), and for those the search core answers. Without a loadable search core, tty does.
 */
export function isTerminal(fd: 1 | 2): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  try {
    return nativeModule().isTerminal(fd);
  } catch {
    return (createRequire(import.meta.url)("node:tty") as typeof import("node:tty")).isatty(fd);
  }
}
