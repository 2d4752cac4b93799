/**
 * `pull`: writes a session file a remote keeps (kept-files.ts) into this machine's Pi sessions
 * folder, where Pi would have written it: the folder Pi names after the session's working folder
 * (`--home-ada-app--`), or the sessions folder itself when recall reads a flat one. It is a new
 * file, written under a temporary name and linked into place, so no file is ever overwritten: the
 * same session already here is "already here" if it is the same file, refused otherwise.
 *
 * The working folder is the session's own when this machine has it. When it does not, and the
 * session's project is a repository (project-identity.ts), a folder of this machine where a local
 * session of that repository was started stands in (the newest): the pulled file's header names
 * it, so that Pi continues the session in that clone; every other line is the archive's as it is.
 * Otherwise the session keeps its folder (Pi continues it with `--session`, or forks it elsewhere).
 *
 * What the archive holds is untrusted (untrusted.ts): a kept file whose names, header or parts are
 * not what a push writes is refused whole, and the file is written only into a folder that, its
 * links resolved, is in the sessions folder (src/sessions/file-guard.ts). Nothing is written
 * otherwise.
 */
import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { isAbsolute, join } from "node:path";
import { realPathInside } from "../sessions/file-guard.js";
import { RecallError } from "../errors.js";
import type { Locations } from "../locations.js";
import { discoverSessionFiles, type SessionFile } from "../sessions/discover.js";
import { idFromFileName, readHeader } from "../sessions/entries.js";
import { projectOf } from "../sessions/project-identity.js";
import { pushTimeout } from "./bulk.js";
import { remoteError, statusOf, withRemote, type RemoteConnection } from "./client.js";
import { filesAlias, keptContent, type KeptFile } from "./kept-files.js";
import type { Remote } from "./remotes.js";
import { checkedKeptFile, isSessionId, piFileName } from "./untrusted.js";

export interface PullResult {
  /** The session's id. */
  id: string;
  /** The session file on this machine. */
  path: string;
  /** The folder the session continues in (its header's). */
  cwd: string;
  /** The folder it was started in on the machine that pushed it, when `cwd` is another one here. */
  movedFrom: string | null;
  /** The same file was here already: nothing was written. */
  alreadyHere: boolean;
  remote: string;
  /** Where it was pushed from. */
  machine: string;
  user: string;
}

/** Pi's folder for the sessions of a working folder (its SessionManager names it so). */
export function piSessionFolder(
  locations: Pick<Locations, "sessionsDir" | "layout">,
  cwd: string,
): string {
  if (locations.layout === "flat") return locations.sessionsDir;
  return join(locations.sessionsDir, `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * A session id in full: its kept file is read by id, which sees a push the moment it is
 * acknowledged (a search only after a refresh).
 */
const FULL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The one kept file whose session id is `ref` or starts with it, its parts joined (kept-files.ts),
 * if it is one a push writes.
 */
async function findKept(
  connection: RemoteConnection,
  remote: Remote,
  ref: string,
): Promise<KeptFile> {
  if (!/^[0-9a-z-]{4,}$/i.test(ref))
    throw new RecallError(
      "BAD_INPUT",
      `a kept session is named by its id or a prefix of 4 or more of its characters, not ${JSON.stringify(ref)}`,
      { field: "session" },
    );
  const { timeoutMs } = connection;
  const client = connection.client();
  const index = filesAlias(remote);
  /** Part 0 stored as `id`, checked, with the parts that follow on from it. */
  const whole = async (source: unknown, id: string): Promise<KeptFile> => {
    const first = checkedKeptFile(source, id, remote.name);
    try {
      return { ...first, content: await keptContent(client, remote, first) };
    } catch (error) {
      throw remoteError(remote, error, "fetching a kept session file", timeoutMs);
    }
  };
  let ids: string[];
  try {
    if (FULL_ID.test(ref)) {
      const found = await client.get({ index, id: ref.toLowerCase() }).catch((error: unknown) => {
        if (statusOf(error) === 404) return undefined;
        throw error;
      });
      if (found?.body.found) return await whole(found.body._source, ref.toLowerCase());
    }
    // Part 0 of each kept file (a kept file's parts share its session id).
    const query = {
      bool: {
        filter: [{ prefix: { session_id: ref.toLowerCase() } }],
        must_not: [{ range: { part: { gt: 0 } } }],
      },
    };
    const found = await client.search({ index, body: { size: 11, _source: false, query } });
    // A document stored under what is no session id is no kept file (untrusted.ts).
    ids = found.body.hits.hits.map((hit) => hit._id).filter(isSessionId);
  } catch (error) {
    if (error instanceof RecallError) throw error;
    // No file was ever kept there.
    if (statusOf(error) === 404) ids = [];
    else throw remoteError(remote, error, "finding a kept session file", timeoutMs);
  }
  if (ids.length === 0)
    throw new RecallError("NOT_FOUND", `remote ${remote.name} keeps no session file ${ref}`, {
      field: "session",
      value: ref,
      hint: "only sessions pushed while the remote had keepFiles set are kept",
    });
  if (ids.length > 1 && !ids.includes(ref))
    throw new RecallError(
      "AMBIGUOUS",
      `${ref} names several sessions kept in remote ${remote.name}: ${ids.slice(0, 10).join(", ")}${ids.length > 10 ? ", …" : ""}`,
      { field: "session", value: ref },
    );
  const id = ids.includes(ref) ? ref : ids[0]!;
  let first: unknown;
  try {
    first = (await client.get({ index, id })).body._source;
  } catch (error) {
    throw remoteError(remote, error, "fetching a kept session file", timeoutMs);
  }
  return whole(first, id);
}

interface LocalSession {
  path: string;
  id: string;
  cwd: string;
  mtimeMs: number;
}

function localSessions(files: readonly SessionFile[]): LocalSession[] {
  return files.flatMap((file) => {
    try {
      const header = readHeader(file.path);
      return [{ path: file.path, id: header.id, cwd: header.cwd, mtimeMs: file.mtimeMs }];
    } catch {
      return [];
    }
  });
}

/**
 * The folder here the session continues in: its own, else the newest here of its repository, else
 * its own.
 */
function localFolder(kept: KeptFile, sessions: readonly LocalSession[]): string {
  if (isDirectory(kept.folder) || !kept.project || isAbsolute(kept.project)) return kept.folder;
  const clones = sessions
    .filter((s) => s.cwd && isDirectory(s.cwd) && projectOf(s.cwd) === kept.project)
    .sort((a, b) => b.mtimeMs - a.mtimeMs);
  return clones[0]?.cwd ?? kept.folder;
}

/** The kept file's text with its header naming `cwd` instead (the header is its first line). */
function withFolder(content: string, cwd: string): string {
  const end = content.indexOf("\n");
  const header = JSON.parse(end < 0 ? content : content.slice(0, end)) as Record<string, unknown>;
  return JSON.stringify({ ...header, cwd }) + (end < 0 ? "" : content.slice(end));
}

/**
 * Pi's folder for the session here, made if missing, as its real path; refused when its links
 * lead out of the sessions folder.
 */
function folderHere(sessionsDir: string, folder: string, sessionId: string): string {
  let real: string | undefined;
  try {
    mkdirSync(folder, { recursive: true });
    real = realPathInside(sessionsDir, folder);
  } catch (error) {
    throw new RecallError(
      "IO",
      `cannot make the folder ${folder} for session ${sessionId}: ${(error as Error).message}`,
    );
  }
  if (real !== undefined) return real;
  throw new RecallError(
    "UNSAFE_FILE",
    `the folder for session ${sessionId} here, ${folder}, leads out of the sessions folder: nothing was written`,
    {
      field: "session",
      value: folder,
      hint: "pull writes only inside the sessions folder",
    },
  );
}

function sameContent(path: string, content: string): boolean {
  try {
    return readFileSync(path).equals(Buffer.from(content));
  } catch {
    return false;
  }
}

/** Writes `content` as a new file `name` of `folder`; false if a file is there already. */
function writeNew(folder: string, name: string, content: string): boolean {
  const path = join(folder, name);
  const temporary = join(folder, `.${name}.${process.pid}.pull`);
  const failed = (error: unknown) =>
    new RecallError("IO", `cannot write ${path}: ${(error as Error).message}`);
  let fd: number;
  try {
    // A new file only ("wx"): never through a link left where the temporary file goes.
    rmSync(temporary, { force: true });
    fd = openSync(temporary, "wx", 0o600);
  } catch (error) {
    throw failed(error);
  }
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temporary, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw failed(error);
  } finally {
    unlinkSync(temporary);
  }
}

export async function pull(
  locations: Locations,
  remote: Remote,
  env: NodeJS.ProcessEnv,
  ref: string,
): Promise<PullResult> {
  if (!remote.keepFiles) {
    throw new RecallError(
      "BAD_INPUT",
      `remote ${remote.name} keeps no session files to pull: its config does not set "keepFiles": true`,
      { field: "remote" },
    );
  }
  // A kept file may be as large as a push's bulk request: fetching it may take as long.
  const kept = await withRemote(remote, env, pushTimeout(remote), (connection) =>
    findKept(connection, remote, ref),
  );
  const { files } = await discoverSessionFiles(locations);
  const sessions = localSessions(files);
  const cwd = localFolder(kept, sessions);
  const content = cwd === kept.folder ? kept.content : withFolder(kept.content, cwd);
  const result = (path: string, alreadyHere: boolean): PullResult => ({
    id: kept.session_id,
    path,
    cwd,
    movedFrom: cwd === kept.folder ? null : kept.folder,
    alreadyHere,
    remote: remote.name,
    machine: kept.machine,
    user: kept.user,
  });
  const differs = (path: string) =>
    new RecallError(
      "BAD_INPUT",
      `session ${kept.session_id} is already here, as ${path}, and differs from the copy remote ${remote.name} keeps: not overwritten`,
      {
        field: "session",
        value: path,
        hint: "resume the file that is here, or move it away to pull the archive's copy",
      },
    );
  for (const local of sessions.filter(
    (s) => s.id === kept.session_id || idFromFileName(s.path) === kept.session_id,
  )) {
    if (sameContent(local.path, content)) return result(local.path, true);
    throw differs(local.path);
  }
  const folder = piSessionFolder(locations, cwd);
  const name = piFileName(kept);
  const path = join(folder, name);
  const real = folderHere(locations.sessionsDir, folder, kept.session_id);
  if (writeNew(real, name, content)) return result(path, false);
  if (sameContent(join(real, name), content)) return result(path, true);
  throw differs(path);
}
