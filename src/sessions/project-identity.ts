/**
 * A session's project identity: what names its project on any machine and in any clone. It is the
 * normalized URL of the git remote of the session's folder (`github.com/acme/app` for
 * `git@github.com:acme/app.git` and `https://github.com/Acme/app` alike), read from the
 * `.git/config` of the folder or a parent — a worktree's or submodule's `.git` file followed to
 * the repository's own config — without running git. A repository without a remote is its top
 * folder; a folder outside any repository is itself.
 */
import { readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";

/** The remote that names a repository when it has several. */
const PREFERRED_REMOTE = "origin";
/** Hosts whose paths are case-insensitive: `Acme/App` and `acme/app` are one repository there. */
const CASE_INSENSITIVE_HOSTS = new Set([
  "github.com",
  "gitlab.com",
  "bitbucket.org",
  "codeberg.org",
]);

export function projectIdentity(folder: string): string {
  const start = resolve(folder);
  for (let dir = start; ; dir = dirname(dir)) {
    const config = gitConfigOf(join(dir, ".git"));
    if (config !== undefined) {
      const url = remoteUrl(config);
      return url === undefined ? dir : normalizeRemote(url);
    }
    if (dirname(dir) === dir) return start;
  }
}

/**
 * The text of the config of the repository `dotGit` (a `.git` folder or file) belongs to, if any.
 */
function gitConfigOf(dotGit: string): string | undefined {
  let gitDir = dotGit;
  try {
    if (statSync(dotGit).isFile()) {
      // A worktree or submodule: "gitdir: <path>", relative to the file's folder.
      const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, "utf8"));
      if (!pointer) return undefined;
      gitDir = resolve(dirname(dotGit), pointer[1]);
    }
  } catch {
    return undefined;
  }
  // A linked worktree's folder names the repository's own in `commondir`.
  const common = readOrUndefined(join(gitDir, "commondir"))?.trim();
  const configDir = common ? (isAbsolute(common) ? common : resolve(gitDir, common)) : gitDir;
  return (
    readOrUndefined(join(configDir, "config")) ??
    (common === undefined && existsDir(gitDir) ? "" : undefined)
  );
}

function readOrUndefined(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

function existsDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The URL of the preferred remote in a git config's text, else of its first remote. */
export function remoteUrl(config: string): string | undefined {
  const urls = new Map<string, string>();
  let remote: string | undefined;
  for (const raw of config.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith("[")) {
      // [remote "origin"]; a section of another kind ends the remote.
      remote = /^\[\s*remote\s+"((?:[^"\\]|\\.)*)"\s*\]/i.exec(line)?.[1];
      continue;
    }
    const url = remote === undefined ? null : /^url\s*=\s*(.*?)\s*$/i.exec(line);
    if (url && !urls.has(remote!)) urls.set(remote!, unquote(url[1]));
  }
  return urls.get(PREFERRED_REMOTE) ?? urls.values().next().value;
}

/** A config value without its surrounding quotes or trailing comment. */
function unquote(value: string): string {
  if (value.startsWith('"'))
    return value.slice(1, value.indexOf('"', 1) > 0 ? value.indexOf('"', 1) : undefined);
  return value.replace(/\s+[#;].*$/, "");
}

/**
 * A remote URL as host/path: no scheme, user, password or port, no `.git` or trailing slash, the
 * host in lower case (and the path too on hosts that ignore its case). A local path stays a path.
 */
export function normalizeRemote(url: string): string {
  let rest = url.trim();
  const scp = /^(?:[^@/:]+@)?([^/:]+):(?!\/)(.*)$/.exec(rest);
  let host: string;
  let path: string;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(rest)) {
    rest = rest.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "");
    if (url.toLowerCase().startsWith("file://")) return trimRepoPath(rest);
    const slash = rest.indexOf("/");
    const authority = slash < 0 ? rest : rest.slice(0, slash);
    path = slash < 0 ? "" : rest.slice(slash + 1);
    host = authority.replace(/^.*@/, "").replace(/:\d*$/, "");
  } else if (scp && !isAbsolute(rest)) {
    host = scp[1];
    path = scp[2];
  } else {
    return trimRepoPath(rest);
  }
  host = host.toLowerCase();
  path = trimRepoPath(path).replace(/^\/+/, "");
  if (CASE_INSENSITIVE_HOSTS.has(host)) path = path.toLowerCase();
  return path ? `${host}/${path}` : host;
}

function trimRepoPath(path: string): string {
  return path
    .replace(/\/+$/, "")
    .replace(/\.git$/i, "")
    .replace(/\/+$/, "");
}

/** Identities already read, by folder: a process reads each folder's repository once. */
const known = new Map<string, string>();

/** The project identity of `folder`, read once per process; "" for an unknown folder. */
export function projectOf(folder: string): string {
  if (!folder) return "";
  let identity = known.get(folder);
  if (identity === undefined) {
    identity = projectIdentity(folder);
    known.set(folder, identity);
  }
  return identity;
}
