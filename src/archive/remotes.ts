/**
 * The archives sessions are pushed to: `remotes` in recall's `config.json`.
 *
 *   "remotes": { "team": { "url": "https://search.example.com:9200", "index": "recall-sessions",
 *                           "machine": "laptop", "user": "ada", "content": ["conversation"],
 *                           "redact": true, "keepFiles": false, "insecure": false,
 *                           "credentials": "~/.config/recall/team.json", "ca":
 *                           "/etc/ssl/team-ca.pem", "timeout": 10 } }
 *
 * Credentials never come from the command line and are never part of a message: from the
 * environment (`RECALL_REMOTE_<NAME>_TOKEN`, sent as a bearer token, or `…_USERNAME` and
 * `…_PASSWORD`), else from the `credentials` file, a JSON object (`{ "username", "password" }` or
 * `{ "token" }`) that only its owner may read. Plain `http://` is refused for any host but loopback
 * unless `insecure` is set.
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { hostname, userInfo } from "node:os";
import { dirname } from "node:path";
import { readSettings, section, type Json } from "../config.js";
import { RecallError } from "../errors.js";
import { expandHome } from "../locations.js";

/** The kinds of text a remote may be sent; the conversation unless the remote lists others. */
export const PUSHED_CONTENT = ["conversation", "thinking", "calls", "outputs"] as const;
export type PushedContent = (typeof PUSHED_CONTENT)[number];

export const DEFAULT_INDEX = "recall-sessions";
/** Seconds a request to a remote may take unless the remote says otherwise. */
export const DEFAULT_TIMEOUT_SECONDS = 10;

export interface Remote {
  name: string;
  url: string;
  /** The alias documents are written to and read from. */
  index: string;
  machine: string;
  user: string;
  content: PushedContent[];
  redact: boolean;
  keepFiles: boolean;
  insecure: boolean;
  /** A file of credentials readable only by its owner. */
  credentials?: string;
  /** A CA certificate file for TLS. */
  ca?: string;
  /**
   * How long a request may take before the remote counts as unavailable (config: `timeout`, in
   * seconds).
   */
  timeoutMs: number;
  /**
   * Errors name the remote only, never its URL or host: set by the facade for adapters whose
   * answers go to a model or another program (the Pi tool, the MCP server). Not a setting.
   */
  hostHidden?: boolean;
}

export type Credentials = { username: string; password: string } | { token: string };

const NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/i;
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

function text(value: unknown, where: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string" && value.trim()) return value.trim();
  throw new RecallError(
    "BAD_INPUT",
    `${where} must be a non-empty string, not ${JSON.stringify(value)}`,
    { field: "config" },
  );
}

function flag(value: unknown, fallback: boolean, where: string): boolean {
  if (value === undefined) return fallback;
  if (typeof value === "boolean") return value;
  throw new RecallError(
    "BAD_INPUT",
    `${where} must be true or false, not ${JSON.stringify(value)}`,
    { field: "config" },
  );
}

/**
 * The URL of a remote, if recall may talk to it: http(s), and https unless loopback or `insecure`.
 */
export function checkedUrl(value: string, insecure: boolean, where: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new RecallError("BAD_INPUT", `${where} is not a URL: ${JSON.stringify(value)}`, {
      field: "url",
    });
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new RecallError("BAD_INPUT", `${where} must be an http(s) URL, not ${url.protocol}`, {
      field: "url",
    });
  if (url.username || url.password)
    throw new RecallError(
      "BAD_INPUT",
      `${where} must not hold credentials (give them in the environment or a credentials file)`,
      { field: "url" },
    );
  const loopback = LOOPBACK.has(url.hostname) || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
  if (url.protocol === "http:" && !loopback && !insecure) {
    throw new RecallError(
      "BAD_INPUT",
      `${where} is plain http to ${url.hostname}: use https, or set "insecure": true for this remote`,
      { field: "url" },
    );
  }
  return url.toString().replace(/\/$/, "");
}

function parseRemote(name: string, value: Json, path: string): Remote {
  const where = (key: string) => `${path}: remotes.${name}.${key}`;
  const insecure = flag(value.insecure, false, where("insecure"));
  const url = text(value.url, where("url"));
  if (!url) throw new RecallError("BAD_INPUT", `${where("url")} is missing`, { field: "config" });
  const content = value.content === undefined ? ["conversation"] : value.content;
  if (
    !Array.isArray(content) ||
    content.some((c) => !(PUSHED_CONTENT as readonly unknown[]).includes(c))
  ) {
    throw new RecallError(
      "BAD_INPUT",
      `${where("content")} must list some of ${PUSHED_CONTENT.join(", ")}`,
      { field: "config" },
    );
  }
  const index = text(value.index, where("index")) ?? DEFAULT_INDEX;
  if (!/^[a-z0-9][a-z0-9_.-]*$/.test(index))
    throw new RecallError(
      "BAD_INPUT",
      `${where("index")} must be a lower-case OpenSearch index name, not ${JSON.stringify(index)}`,
      { field: "config" },
    );
  const credentials = text(value.credentials, where("credentials"));
  const ca = text(value.ca, where("ca"));
  const timeout = value.timeout ?? DEFAULT_TIMEOUT_SECONDS;
  if (typeof timeout !== "number" || !(timeout > 0 && timeout <= 600))
    throw new RecallError(
      "BAD_INPUT",
      `${where("timeout")} must be a number of seconds from 0 to 600, not ${JSON.stringify(timeout)}`,
      { field: "config" },
    );
  return {
    name,
    url: checkedUrl(url, insecure, where("url")),
    index,
    machine: text(value.machine, where("machine")) ?? hostname(),
    user: text(value.user, where("user")) ?? userInfo().username,
    content: content as PushedContent[],
    redact: flag(value.redact, true, where("redact")),
    keepFiles: flag(value.keepFiles, false, where("keepFiles")),
    insecure,
    ...(credentials ? { credentials: expandHome(credentials) } : {}),
    ...(ca ? { ca: expandHome(ca) } : {}),
    timeoutMs: timeout * 1000,
  };
}

/** Every remote of the config file at `path`, in the order it lists them. */
export function loadRemotes(path: string): Remote[] {
  const problems: string[] = [];
  const settings = readSettings(path, problems);
  if (problems.length > 0) throw new RecallError("BAD_INPUT", problems[0]!, { field: "config" });
  const remotes = section(settings, "remotes") ?? {};
  return Object.entries(remotes).map(([name, value]) => {
    if (!NAME.test(name))
      throw new RecallError(
        "BAD_INPUT",
        `${path}: a remote's name is letters, digits, - and _, not ${JSON.stringify(name)}`,
        { field: "config" },
      );
    if (!value || typeof value !== "object" || Array.isArray(value))
      throw new RecallError("BAD_INPUT", `${path}: remotes.${name} must be an object`, {
        field: "config",
      });
    return parseRemote(name, value as Json, path);
  });
}

/** The remote named `name`, or the only one when no name is given. */
export function findRemote(path: string, name: string | undefined): Remote {
  const remotes = loadRemotes(path);
  if (name === undefined) {
    if (remotes.length === 1) return remotes[0]!;
    if (remotes.length === 0)
      throw new RecallError("BAD_INPUT", `no remote is configured in ${path}`, {
        field: "remote",
        value: "",
        hint: "add one: a name and the archive's URL",
      });
    throw new RecallError("BAD_INPUT", "there are several remotes", {
      field: "remote",
      hint: `name one of: ${remotes.map((r) => r.name).join(", ")}`,
    });
  }
  const remote = remotes.find((r) => r.name === name);
  if (!remote)
    throw new RecallError("NOT_FOUND", `no remote named ${JSON.stringify(name)} in ${path}`, {
      field: "remote",
    });
  return remote;
}

export interface RemoteSettings {
  url: string;
  index?: string;
  machine?: string;
  user?: string;
  insecure?: boolean;
  keepFiles?: boolean;
  credentials?: string;
}

/**
 * Adds (or replaces) a remote in the config file, keeping everything else; written whole and
 * renamed.
 */
export function saveRemote(path: string, name: string, settings: RemoteSettings): Remote {
  if (!NAME.test(name))
    throw new RecallError(
      "BAD_INPUT",
      `a remote's name is letters, digits, - and _, not ${JSON.stringify(name)}`,
      { field: "name" },
    );
  const problems: string[] = [];
  const existing = readSettings(path, problems) ?? {};
  if (problems.length > 0)
    throw new RecallError("BAD_INPUT", `${problems[0]}; fix or remove it to add a remote`, {
      field: "config",
    });
  const entry = Object.fromEntries(
    Object.entries(settings).filter(([, v]) => v !== undefined),
  ) as Json;
  const remote = parseRemote(name, entry, path);
  const updated = { ...existing, remotes: { ...section(existing, "remotes"), [name]: entry } };
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(updated, null, 2)}\n`);
  renameSync(temporary, path);
  return remote;
}

function envName(remote: Remote, key: string): string {
  return `RECALL_REMOTE_${remote.name.toUpperCase().replace(/-/g, "_")}_${key}`;
}

/** The remote's credentials, from the environment or its file; none when neither gives any. */
export function credentialsOf(remote: Remote, env: NodeJS.ProcessEnv): Credentials | undefined {
  const token = env[envName(remote, "TOKEN")];
  if (token) return { token };
  const username = env[envName(remote, "USERNAME")];
  if (username) return { username, password: env[envName(remote, "PASSWORD")] ?? "" };
  if (!remote.credentials) return undefined;
  const file = remote.credentials;
  let mode: number;
  try {
    mode = statSync(file).mode;
  } catch (error) {
    throw new RecallError(
      "BAD_INPUT",
      `cannot read the credentials file ${file} of remote ${remote.name} (${(error as NodeJS.ErrnoException).code})`,
      { field: "credentials" },
    );
  }
  if ((mode & 0o077) !== 0) {
    throw new RecallError(
      "BAD_INPUT",
      `the credentials file ${file} of remote ${remote.name} may be read by others: chmod 600 it`,
      { field: "credentials" },
    );
  }
  let value: Json;
  try {
    value = JSON.parse(readFileSync(file, "utf8")) as Json;
  } catch {
    // The file's text is never quoted: it holds a secret.
    throw new RecallError(
      "BAD_INPUT",
      `the credentials file ${file} of remote ${remote.name} is not a JSON object`,
      { field: "credentials" },
    );
  }
  if (typeof value?.token === "string" && value.token) return { token: value.token };
  if (typeof value?.username === "string" && typeof value.password === "string")
    return { username: value.username, password: value.password };
  throw new RecallError(
    "BAD_INPUT",
    `the credentials file ${file} of remote ${remote.name} holds neither "token" nor "username" and "password"`,
    { field: "credentials" },
  );
}
