/**
 * `push --forget`: takes sessions, or every session of a project, out of an archive, and notes
 * them as forgotten so that no later push sends them again (forgotten.ts). A session is named by
 * its id or a unique prefix of an archived one's; a project by its identity (project-identity.ts).
 * Their kept files (kept-files.ts) go with them.
 */
import type { Locations } from "../locations.js";
import { RecallError } from "../errors.js";
import { projectOf } from "../sessions/project-identity.js";
import { deleteMatching, deleteSession, pushTimeout } from "./bulk.js";
import { remoteError, withRemote } from "./client.js";
import { forgottenFile, loadForgotten, saveForgotten } from "./forgotten.js";
import { deleteKept, filesAlias, hasFilesIndex } from "./kept-files.js";
import { resolveArchived } from "./read.js";
import type { Remote } from "./remotes.js";
import { loadWatermarks, saveSignatures, saveWatermarks, watermarkFile } from "./watermarks.js";

export interface ForgetOptions {
  /** Sessions, by id or unique prefix. */
  sessions?: string[];
  /** A folder: every session of the project it belongs to (its identity, project-identity.ts). */
  projectOf?: string;
}

export interface ForgetReport {
  remote: string;
  /** The session ids forgotten. */
  sessions: string[];
  project: string | null;
  /** Documents removed from the archive. */
  deleted: number;
}

/** A session id in full, which may be forgotten before it was ever pushed. */
const FULL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function forget(
  locations: Locations,
  remote: Remote,
  env: NodeJS.ProcessEnv,
  options: ForgetOptions,
): Promise<ForgetReport> {
  const refs = options.sessions ?? [];
  const project = options.projectOf === undefined ? undefined : projectOf(options.projectOf);
  if (refs.length === 0 && project === undefined)
    throw new RecallError("BAD_INPUT", "name the sessions or the project to forget", {
      field: "sessions",
    });
  const report: ForgetReport = {
    remote: remote.name,
    sessions: [],
    project: project ?? null,
    deleted: 0,
  };
  const stateFile = watermarkFile(locations, remote);
  const listFile = forgottenFile(stateFile);
  const forgotten = loadForgotten(listFile);
  await withRemote(remote, env, pushTimeout(remote), async (connection) => {
    const client = connection.client();
    try {
      for (const ref of refs) {
        const id = await resolveArchived(client, remote, ref).catch((error: unknown) => {
          if (error instanceof RecallError && error.code === "NOT_FOUND" && FULL_ID.test(ref))
            return ref.toLowerCase();
          throw error;
        });
        report.sessions.push(id);
      }
      // Noted first: a push that runs meanwhile, or after a failure here, sends none of them.
      for (const id of report.sessions) forgotten.sessions.add(id);
      if (project !== undefined) forgotten.projects.add(project);
      saveForgotten(listFile, forgotten);
      for (const id of report.sessions) report.deleted += await deleteSession(client, remote, id);
      if (project !== undefined)
        report.deleted += await deleteMatching(client, remote, { term: { project } });
      // Their kept files too, wherever a push kept them (keepFiles may have been turned off since).
      if (await hasFilesIndex(client, remote)) {
        await deleteKept(client, remote, report.sessions);
        if (project !== undefined)
          await deleteMatching(client, remote, { term: { project } }, filesAlias(remote));
      }
    } catch (error) {
      throw error instanceof RecallError
        ? error
        : remoteError(remote, error, "forgetting sessions", pushTimeout(remote));
    }
  });
  // What was acknowledged of them no longer holds.
  const watermarks = loadWatermarks(stateFile);
  for (const [path, mark] of watermarks) {
    if (
      forgotten.sessions.has(mark.header.id) ||
      forgotten.projects.has(projectOf(mark.header.cwd))
    )
      watermarks.delete(path);
  }
  saveWatermarks(stateFile, watermarks);
  saveSignatures(stateFile, watermarks);
  return report;
}
