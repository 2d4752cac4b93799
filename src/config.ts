/**
 * recall's settings: `<dataDir>/config.json` (`~/.pi/agent/recall/config.json`; `RECALL_DATA_DIR`
 * moves it with the tags, `RECALL_CONFIG_FILE` names another file). Everything is optional:
 *
 *   {
 *     "picker":   { "scope": "current" },                 // the Pi picker opens on this folder
 *     "autoTags": { "model": "provider/id", "minimum": 3, "maximum": 7 },   // 3–10, minimum–10
 *     "ask":      { "model": "provider/id" }
 *   }
 *
 * Where recall's file has no value, the earlier tools' files are read, so their users keep their
 * settings: pi-recall's `config.json` (`PI_RECALL_CONFIG_FILE`, or in `PI_RECALL_DATA_DIR`, by
 * default `~/.pi/agent/pi-recall/`) for `autoTags`, and pi-session-recall's
 * `~/.pi/agent/pi-session-recall.json` (then the legacy `session-recall.json`) for the model
 * `ask` uses (`model`, else the first of `fallbackModels`).
 *
 * The file is read each time it is needed, so an edit applies at once. What cannot be used is
 * reported as a problem naming the file: the picker shows it and goes on with the defaults; a
 * model feature stops on it.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { RecallError } from "./errors.js";
import { expandHome, type Locations } from "./locations.js";

export type PickerScope = "all" | "current";

export interface AutoTagConfig {
  /** `provider/id`; none: Pi's default model. */
  model?: string;
  /** Fewest tags a session gets, 3–10 (default 3): an answer with fewer is a failure. */
  minimum: number;
  /** Most tags a session gets, minimum–10 (default 7). */
  maximum: number;
}

export interface RecallConfig {
  picker: { scope: PickerScope };
  autoTags: AutoTagConfig;
  ask: { model?: string };
}

export interface LoadedConfig {
  config: RecallConfig;
  /** The file recall's own settings are read from (it may not exist). */
  path: string;
  /** One line each, naming the file: what could not be used. */
  problems: string[];
}

const DEFAULT_MINIMUM_TAGS = 3;
const DEFAULT_MAXIMUM_TAGS = 7;
const MOST_TAGS = 10;

export type Json = Record<string, unknown>;

function absolute(path: string, cwd: string): string {
  const expanded = expandHome(path);
  return isAbsolute(expanded) ? expanded : resolve(cwd, expanded);
}

/** The object a settings file holds; undefined when there is no such file. */
export function readSettings(path: string, problems: string[]): Json | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR")
      problems.push(`cannot read ${path} (${code ?? String(error)})`);
    return undefined;
  }
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Json;
    problems.push(`${path} must hold a JSON object`);
  } catch (error) {
    problems.push(`${path} is not valid JSON (${(error as Error).message})`);
  }
  return undefined;
}

export function section(settings: Json | undefined, key: string): Json | undefined {
  const value = settings?.[key];
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : undefined;
}

function modelName(value: unknown, where: string, problems: string[]): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value === "string" && /^[^/\s]+\/\S+$/.test(value.trim())) return value.trim();
  problems.push(`${where} must be "provider/model-id", not ${JSON.stringify(value)}`);
  return undefined;
}

/**
 * A tag count, clamped to low–10 as pi-recall clamps it; anything but a whole number is a problem.
 */
function count(
  value: unknown,
  fallback: number,
  low: number,
  where: string,
  problems: string[],
): number {
  if (value === undefined) return fallback;
  if (typeof value === "number" && Number.isInteger(value))
    return Math.min(MOST_TAGS, Math.max(low, value));
  problems.push(`${where} must be a whole number, not ${JSON.stringify(value)}`);
  return fallback;
}

export function loadConfig(
  locations: Pick<Locations, "agentDir" | "dataDir" | "piRecallDir">,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): LoadedConfig {
  const problems: string[] = [];
  const path = env.RECALL_CONFIG_FILE
    ? absolute(env.RECALL_CONFIG_FILE, cwd)
    : join(locations.dataDir, "config.json");
  const own = readSettings(path, problems);

  const scope = section(own, "picker")?.scope;
  if (scope !== undefined && scope !== "all" && scope !== "current")
    problems.push(`${path}: picker.scope must be "all" or "current", not ${JSON.stringify(scope)}`);

  // autoTags: recall's own values, else pi-recall's file.
  let autoTags = section(own, "autoTags");
  let autoTagsFile = path;
  if (!autoTags) {
    autoTagsFile = env.PI_RECALL_CONFIG_FILE
      ? absolute(env.PI_RECALL_CONFIG_FILE, cwd)
      : join(locations.piRecallDir, "config.json");
    autoTags = section(readSettings(autoTagsFile, problems), "autoTags");
  }
  const minimum = count(
    autoTags?.minimum,
    DEFAULT_MINIMUM_TAGS,
    DEFAULT_MINIMUM_TAGS,
    `${autoTagsFile}: autoTags.minimum`,
    problems,
  );
  const maximum = count(
    autoTags?.maximum,
    Math.max(DEFAULT_MAXIMUM_TAGS, minimum),
    minimum,
    `${autoTagsFile}: autoTags.maximum`,
    problems,
  );
  const autoTagModel = modelName(autoTags?.model, `${autoTagsFile}: autoTags.model`, problems);

  // ask: recall's own model, else pi-session-recall's.
  let askModel = modelName(section(own, "ask")?.model, `${path}: ask.model`, problems);
  for (const name of ["pi-session-recall.json", "session-recall.json"]) {
    if (askModel) break;
    const file = join(locations.agentDir, name);
    const seed = readSettings(file, problems);
    const fallback = Array.isArray(seed?.fallbackModels) ? seed.fallbackModels[0] : undefined;
    askModel = modelName(seed?.model ?? fallback, `${file}: model`, problems);
  }

  return {
    path,
    problems,
    config: {
      picker: { scope: scope === "current" ? "current" : "all" },
      autoTags: { ...(autoTagModel ? { model: autoTagModel } : {}), minimum, maximum },
      ask: askModel ? { model: askModel } : {},
    },
  };
}

/** The configuration a model feature runs with: any problem in it is an error. */
export function strictConfig(loaded: LoadedConfig): RecallConfig {
  if (loaded.problems.length > 0)
    throw new RecallError("BAD_INPUT", loaded.problems[0]!, { field: "config" });
  return loaded.config;
}

/**
 * Sets `autoTags.model` and `ask.model` in recall's config file, keeping everything else in it.
 * Written to a temporary file and renamed, so a reader never sees half a file.
 */
export function saveModel(path: string, model: string): void {
  if (!/^[^/\s]+\/\S+$/.test(model))
    throw new RecallError(
      "BAD_INPUT",
      `a model is "provider/model-id", not ${JSON.stringify(model)}`,
      { field: "model" },
    );
  const problems: string[] = [];
  const settings = readSettings(path, problems) ?? {};
  if (problems.length > 0)
    throw new RecallError("BAD_INPUT", `${problems[0]}; fix or remove it to save the model`, {
      field: "config",
    });
  const updated = {
    ...settings,
    autoTags: { ...section(settings, "autoTags"), model },
    ask: { ...section(settings, "ask"), model },
  };
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(updated, null, 2)}\n`);
  renameSync(temporary, path);
}
