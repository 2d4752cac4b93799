/**
 * `recall remote test`: what works of a remote, each step a line — reachable, authenticated, may
 * write, may read, the version of recall's index template there, and for a remote with
 * `keepFiles`, may keep files, and whether the indexes are the ones this machine's last push filled
 * (index-identity.ts: one deleted or replaced since is filled again by the next push). Writing and
 * reading are tried for real, with a probe document of this machine that is deleted again.
 */
import type { Locations } from "../locations.js";
import { remoteError, withRemote, type RemoteConnection } from "./client.js";
import { indexIdentity, replacedSince } from "./index-identity.js";
import { ensureFilesIndex, filesAlias, type KeptFile } from "./kept-files.js";
import { credentialsOf, type Remote } from "./remotes.js";
import { ensureIndex, installedVersion, TEMPLATE_VERSION } from "./template.js";
import { loadWatermarks, watermarkFile } from "./watermarks.js";

export interface RemoteCheck {
  name:
    | "reachable"
    | "authenticated"
    | "may write"
    | "may read"
    | "template"
    | "may keep files"
    | "same index";
  ok: boolean;
  message: string;
}

export function checkRemote(
  locations: Locations,
  remote: Remote,
  env: NodeJS.ProcessEnv,
): Promise<RemoteCheck[]> {
  return withRemote(remote, env, remote.timeoutMs, (connection) =>
    runChecks(locations, remote, env, connection),
  );
}

async function runChecks(
  locations: Locations,
  remote: Remote,
  env: NodeJS.ProcessEnv,
  connection: RemoteConnection,
): Promise<RemoteCheck[]> {
  const client = connection.client();
  const checks: RemoteCheck[] = [];
  const failed = (name: RemoteCheck["name"], error: unknown, doing: string) => {
    checks.push({ name, ok: false, message: remoteError(remote, error, doing).message });
    return checks;
  };
  let version: string;
  try {
    const info = await client.info();
    // A web page answers 200 too: its body comes as text.
    if (typeof info.body !== "object" || info.body === null)
      throw new TypeError("the answer is not JSON");
    version = String(info.body.version?.number ?? "unknown");
  } catch (error) {
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 401 || status === 403) {
      checks.push({ name: "reachable", ok: true, message: `${remote.url} answers` });
      return failed("authenticated", error, "checking the credentials");
    }
    return failed("reachable", error, "connecting");
  }
  checks.push({
    name: "reachable",
    ok: true,
    message: `${remote.url} answers (OpenSearch ${version})`,
  });
  checks.push({
    name: "authenticated",
    ok: true,
    message: credentialsOf(remote, env) ? "the credentials are accepted" : "no credentials needed",
  });
  const id = `recall-probe:${remote.machine}`;
  try {
    await ensureIndex(client, remote.index);
    await client.index({
      index: remote.index,
      id,
      body: {
        session_id: id,
        text: "probe",
        machine: remote.machine,
        user: remote.user,
        kind: "conversation",
      },
      refresh: true,
    });
    checks.push({
      name: "may write",
      ok: true,
      message: `wrote a probe document to ${remote.index}`,
    });
  } catch (error) {
    failed("may write", error, "writing a probe document");
  }
  try {
    const found = await client.get({ index: remote.index, id });
    checks.push({
      name: "may read",
      ok: found.body.found === true,
      message: found.body.found
        ? "read the probe document back"
        : "the probe document is not there",
    });
  } catch (error) {
    failed("may read", error, "reading the probe document");
  }
  await client.delete({ index: remote.index, id, refresh: true }).catch(() => undefined);
  try {
    const installed = await installedVersion(client, remote.index);
    checks.push({
      name: "template",
      ok: installed === TEMPLATE_VERSION,
      message:
        installed === undefined
          ? "no index template of recall's yet (a push creates it)"
          : `index template version ${installed}${installed === TEMPLATE_VERSION ? "" : `, this recall writes version ${TEMPLATE_VERSION}`}`,
    });
  } catch (error) {
    failed("template", error, "reading the index template");
  }
  const saved = loadWatermarks(watermarkFile(locations, remote)).identity;
  try {
    const replaced = replacedSince(remote, saved, await indexIdentity(connection, remote));
    checks.push({
      name: "same index",
      ok: replaced.length === 0,
      message:
        replaced.length > 0
          ? `${replaced.join(", ")} was deleted or replaced since this machine's last push: the next push sends every session again`
          : saved
            ? "the indexes are the ones this machine's last push filled"
            : "this machine has not pushed to it yet",
    });
  } catch (error) {
    failed("same index", error, "looking at the index");
  }
  if (remote.keepFiles) {
    // A kept file of no session, in the index `recall pull` reads, written and read back.
    const probe: KeptFile = {
      session_id: id,
      file_name: "probe.jsonl",
      folder: "",
      project: "",
      machine: remote.machine,
      user: remote.user,
      session_created: 0,
      part: 0,
      from: 0,
      end: 0,
      generation: "",
      content: "",
      bytes: 0,
      redactions: 0,
    };
    const files = filesAlias(remote);
    try {
      await ensureFilesIndex(client, remote);
      await client.index({ index: files, id, body: probe, refresh: true });
      const found = await client.get({ index: files, id });
      checks.push({
        name: "may keep files",
        ok: found.body.found === true,
        message: found.body.found
          ? `wrote and read a probe file in ${files}`
          : `the probe file is not in ${files}`,
      });
    } catch (error) {
      failed("may keep files", error, `keeping a probe file in ${files}`);
    }
    await client.delete({ index: files, id, refresh: true }).catch(() => undefined);
  }
  return checks;
}
