/**
 * The one OpenSearch client of a remote: its credentials, its CA, a bounded timeout, and errors
 * turned into one line that never holds a credential.
 */
import { readFileSync } from "node:fs";
import { Client, errors } from "@opensearch-project/opensearch";
import { RecallError } from "../errors.js";
import { credentialsOf, type Remote } from "./remotes.js";

/** How long one request may take before the remote counts as unreachable. */
export const REQUEST_TIMEOUT_MS = 30_000;

export function remoteClient(remote: Remote, env: NodeJS.ProcessEnv): Client {
  const credentials = credentialsOf(remote, env);
  let ca: string | undefined;
  if (remote.ca) {
    try {
      ca = readFileSync(remote.ca, "utf8");
    } catch (error) {
      throw new RecallError("BAD_INPUT", `cannot read the CA file ${remote.ca} of remote ${remote.name} (${(error as NodeJS.ErrnoException).code})`, { field: "ca" });
    }
  }
  return new Client({
    node: remote.url,
    requestTimeout: REQUEST_TIMEOUT_MS,
    // Retries are the push's own (only the failed items of a bulk request).
    maxRetries: 0,
    ...(credentials && "username" in credentials ? { auth: credentials } : {}),
    ...(credentials && "token" in credentials ? { headers: { authorization: `Bearer ${credentials.token}` } } : {}),
    ...(ca ? { ssl: { ca } } : {}),
  });
}

/** The HTTP status of a failed request, if the remote answered. */
export function statusOf(error: unknown): number | undefined {
  return error instanceof errors.ResponseError ? error.statusCode : undefined;
}

/** A failed request as one line naming the remote (its URL, never its credentials). */
export function remoteError(remote: Remote, error: unknown, doing: string): RecallError {
  if (error instanceof RecallError) return error;
  const status = statusOf(error);
  const where = `remote ${remote.name} (${remote.url})`;
  if (status === 401 || status === 403) return new RecallError("IO", `${where} refused the credentials while ${doing} (HTTP ${status})`, { field: "credentials" });
  if (status !== undefined) {
    const reason = (error as errors.ResponseError).body?.error?.reason ?? (error as Error).message;
    return new RecallError("IO", `${where} answered HTTP ${status} while ${doing}: ${String(reason).split("\n")[0]}`);
  }
  if (error instanceof errors.TimeoutError) return new RecallError("IO", `${where} did not answer within ${REQUEST_TIMEOUT_MS / 1000} s while ${doing}`);
  const message = error instanceof Error ? error.message : String(error);
  return new RecallError("IO", `${where} is unreachable while ${doing}: ${message.split("\n")[0]}`);
}
