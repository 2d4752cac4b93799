/**
 * Where Pi keeps its sessions and where recall keeps its index and its user data.
 *
 * Sessions, first that applies: an explicit directory; `PI_CODING_AGENT_SESSION_DIR`;
 * `sessionDir` in `<agentDir>/settings.json`; `<agentDir>/sessions`. The agent directory is
 * `PI_CODING_AGENT_DIR` or `~/.pi/agent`. Pi's own default layout has one folder per project
 * (`--<cwd>--/`); any other session directory is flat.
 */
import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { FastHash } from "./hash.js";

export interface Locations {
  agentDir: string;
  sessionsDir: string;
  /**
   * Which setting named `sessionsDir`, as a person would look for it (an environment variable, …).
   */
  sessionsFrom: SessionsSource;
  /** Pi's default layout (project folders) or a custom flat directory. */
  layout: "projects" | "flat";
  /** Rebuildable: the index and the file signatures. */
  cacheDir: string;
  /** User data that must survive a rebuild: tags. */
  dataDir: string;
  /**
   * Where the earlier pi-recall extension kept its tags and config (`PI_RECALL_DATA_DIR`), read
   * once.
   */
  piRecallDir: string;
}

/**
 * `sessionsDir` is the option of that name (each adapter names it as its users set it: the CLI's
 * `--sessions-dir`); `default` is Pi's own `~/.pi/agent/sessions`, chosen by no setting.
 */
export type SessionsSource =
  | "sessionsDir"
  | "PI_CODING_AGENT_SESSION_DIR"
  | `sessionDir in ${string}`
  | "PI_CODING_AGENT_DIR"
  | "default";

export interface LocationOverrides {
  sessionsDir?: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

export function expandHome(path: string): string {
  if (path === "~") return homedir();
  if (path.startsWith("~/")) return join(homedir(), path.slice(2));
  return path;
}

function absolute(path: string, cwd: string): string {
  const expanded = expandHome(path);
  return isAbsolute(expanded) ? expanded : resolve(cwd, expanded);
}

function settingsSessionDir(agentDir: string): string | undefined {
  try {
    const settings = JSON.parse(readFileSync(join(agentDir, "settings.json"), "utf8")) as {
      sessionDir?: unknown;
    };
    return typeof settings.sessionDir === "string" && settings.sessionDir.trim()
      ? settings.sessionDir
      : undefined;
  } catch {
    return undefined;
  }
}

export function resolveLocations(overrides: LocationOverrides = {}): Locations {
  const env = overrides.env ?? process.env;
  const cwd = overrides.cwd ?? process.cwd();
  const agentDir = env.PI_CODING_AGENT_DIR
    ? absolute(env.PI_CODING_AGENT_DIR, cwd)
    : join(homedir(), ".pi", "agent");
  const defaultSessions = join(agentDir, "sessions");
  const fromSettings = settingsSessionDir(agentDir);
  const [custom, sessionsFrom]: [string | undefined, SessionsSource] =
    overrides.sessionsDir !== undefined
      ? [overrides.sessionsDir, "sessionsDir"]
      : env.PI_CODING_AGENT_SESSION_DIR
        ? [env.PI_CODING_AGENT_SESSION_DIR, "PI_CODING_AGENT_SESSION_DIR"]
        : fromSettings
          ? [fromSettings, `sessionDir in ${join(agentDir, "settings.json")}`]
          : [undefined, env.PI_CODING_AGENT_DIR ? "PI_CODING_AGENT_DIR" : "default"];
  // Pi resolves a relative `sessionDir` setting from the working directory; so does recall.
  const sessionsDir = custom ? absolute(custom, cwd) : defaultSessions;
  const layout = sessionsDir === defaultSessions ? "projects" : "flat";

  const cacheRoot = env.RECALL_CACHE_DIR
    ? absolute(env.RECALL_CACHE_DIR, cwd)
    : join(agentDir, "cache", "recall");
  // Each sessions directory gets an index of its own, so switching between them never
  // thrashes one index.
  const cacheDir =
    layout === "projects"
      ? cacheRoot
      : join(cacheRoot, "dirs", new FastHash().update(sessionsDir).digest());
  const dataDir = env.RECALL_DATA_DIR
    ? absolute(env.RECALL_DATA_DIR, cwd)
    : join(agentDir, "recall");
  const piRecallDir = env.PI_RECALL_DATA_DIR
    ? absolute(env.PI_RECALL_DATA_DIR, cwd)
    : join(agentDir, "pi-recall");
  return { agentDir, sessionsDir, sessionsFrom, layout, cacheDir, dataDir, piRecallDir };
}

export interface SessionsFolderProblem {
  /**
   * Pi's default folder not made yet (Pi has not run), or a folder a setting names missing, or a
   * file.
   */
  kind: "none-yet" | "missing" | "not-a-folder";
  sessionsDir: string;
  from: SessionsSource;
  /** One line for a person, naming the setting as `from` does. */
  message: string;
  /** An error (exit 2), or only a notice that there is nothing to find. */
  fatal: boolean;
}

/**
 * What is wrong with the sessions folder, if anything: a folder a setting names must exist (a
 * typo there would otherwise read as "no session matches"); Pi's default folder may be missing,
 * for someone who has not run Pi yet, which is only worth saying (`fatal: false`).
 */
export function sessionsFolderProblem(locations: Locations): SessionsFolderProblem | undefined {
  const { sessionsDir, sessionsFrom: from } = locations;
  const setBy = from === "sessionsDir" ? "the sessionsDir option" : from;
  let stat;
  try {
    stat = statSync(sessionsDir);
  } catch {
    if (from === "default")
      return {
        kind: "none-yet",
        sessionsDir,
        from,
        message: `no Pi sessions yet at ${sessionsDir} (Pi writes them there)`,
        fatal: false,
      };
    return {
      kind: "missing",
      sessionsDir,
      from,
      message: `there is no sessions folder at ${sessionsDir} (set by ${setBy})`,
      fatal: true,
    };
  }
  if (!stat.isDirectory())
    return {
      kind: "not-a-folder",
      sessionsDir,
      from,
      message: `the sessions folder ${sessionsDir} (set by ${setBy}) is a file, not a folder`,
      fatal: true,
    };
  return undefined;
}
