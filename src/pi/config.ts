/**
 * The extension's settings: `<dataDir>/config.json` (by default `~/.pi/agent/recall/config.json`,
 * beside the tags; `RECALL_DATA_DIR` moves both). Only what the issue left to the user is
 * configurable:
 *
 *   { "picker": { "scope": "current" } }   // the picker opens on this folder's sessions
 *
 * The file is read each time the picker opens, so an edit applies without /reload. A file that
 * cannot be parsed, or a value that is not understood, is reported and the default is used.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Scope } from "./picker/state.js";

export interface PickerConfig {
  /** Which sessions the picker shows first; Tab switches. Default `all`. */
  scope: Scope;
}

export interface RecallConfig {
  picker: PickerConfig;
}

export const DEFAULT_CONFIG: RecallConfig = { picker: { scope: "all" } };

export const CONFIG_FILE = "config.json";

export function configPath(dataDir: string): string {
  return join(dataDir, CONFIG_FILE);
}

/** The configuration, and a warning for anything in the file that was not used. */
export function loadConfig(dataDir: string): { config: RecallConfig; warning?: string } {
  const path = configPath(dataDir);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { config: DEFAULT_CONFIG };
    return { config: DEFAULT_CONFIG, warning: `cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? error}); using the defaults` };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { config: DEFAULT_CONFIG, warning: `${path} is not valid JSON (${(error as Error).message}); using the defaults` };
  }
  const scope = (raw as { picker?: { scope?: unknown } } | null)?.picker?.scope;
  if (scope === undefined) return { config: DEFAULT_CONFIG };
  if (scope === "all" || scope === "current") return { config: { picker: { scope } } };
  return {
    config: DEFAULT_CONFIG,
    warning: `${path}: picker.scope must be "all" or "current", not ${JSON.stringify(scope)}; using "all"`,
  };
}
