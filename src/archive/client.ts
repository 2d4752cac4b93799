/**
 * The one OpenSearch client of a remote: its credentials, its CA, a bounded timeout, and errors
 * turned into one line that never holds a credential. Each operation on a remote (a push, a
 * search, a read, a pull...) gets a client of its own, made when it first asks the remote, and
 * closes it when it ends, however it ends (`withRemote`): its connections go with it.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Client } from "@opensearch-project/opensearch";
import { RecallError } from "../errors.js";
import { credentialsOf, type Remote } from "./remotes.js";

/** How long one request of a push may take at least: a bulk request carries up to 4 MB. */
export const PUSH_TIMEOUT_MS = 30_000;

type OpenSearchPackage = typeof import("@opensearch-project/opensearch");
let loaded: OpenSearchPackage | undefined;

/** The client's package, loaded on first use: it takes ~170 ms, which a command that asks no remote need not pay. */
function openSearch(): OpenSearchPackage {
  loaded ??= createRequire(import.meta.url)("@opensearch-project/opensearch") as OpenSearchPackage;
  return loaded;
}

/** A client whose requests give up after `timeoutMs`. */
function remoteClient(remote: Remote, env: NodeJS.ProcessEnv, timeoutMs: number): Client {
  const credentials = credentialsOf(remote, env);
  let ca: string | undefined;
  if (remote.ca) {
    try {
      ca = readFileSync(remote.ca, "utf8");
    } catch (error) {
      throw new RecallError("BAD_INPUT", `cannot read the CA file ${remote.ca} of remote ${remote.name} (${(error as NodeJS.ErrnoException).code})`, { field: "ca" });
    }
  }
  return new (openSearch().Client)({
    node: remote.url,
    requestTimeout: timeoutMs,
    // Retries are the push's own (only the failed items of a bulk request).
    maxRetries: 0,
    ...(credentials && "username" in credentials ? { auth: credentials } : {}),
    ...(credentials && "token" in credentials ? { headers: { authorization: `Bearer ${credentials.token}` } } : {}),
    ...(ca ? { ssl: { ca } } : {}),
  });
}

/** The client of one operation on a remote: made on first use (a push with nothing to send loads no client), closed by `withRemote`. */
export class RemoteConnection {
  private made: Client | undefined;

  constructor(
    private readonly remote: Remote,
    private readonly env: NodeJS.ProcessEnv,
    /** How long one request may take. */
    readonly timeoutMs: number,
  ) {}

  client(): Client {
    this.made ??= remoteClient(this.remote, this.env, this.timeoutMs);
    return this.made;
  }

  async close(): Promise<void> {
    const made = this.made;
    this.made = undefined;
    await made?.close();
  }
}

/** Runs `operation` with a connection to `remote` whose requests give up after `timeoutMs`, closed once it ends. */
export async function withRemote<T>(remote: Remote, env: NodeJS.ProcessEnv, timeoutMs: number, operation: (connection: RemoteConnection) => Promise<T>): Promise<T> {
  const connection = new RemoteConnection(remote, env, timeoutMs);
  try {
    return await operation(connection);
  } finally {
    await connection.close();
  }
}

/** The HTTP status of a failed request, if the remote answered. */
export function statusOf(error: unknown): number | undefined {
  return loaded && error instanceof loaded.errors.ResponseError ? error.statusCode : undefined;
}

/**
 * A failed request as one line naming the remote (its URL, never its credentials; with
 * `hostHidden`, only its name): unreachable, too slow, refusing the credentials, overloaded or
 * failing (5xx) are REMOTE_UNAVAILABLE; any other answer (a request the remote refuses) is IO.
 */
export function remoteError(remote: Remote, error: unknown, doing: string, timeoutMs = remote.timeoutMs): RecallError {
  if (error instanceof RecallError) return error;
  const status = statusOf(error);
  const where = remote.hostHidden ? `remote ${remote.name}` : `remote ${remote.name} (${remote.url})`;
  const details = { cause: error };
  if (status === 401 || status === 403) return new RecallError("REMOTE_UNAVAILABLE", `${where} refused the credentials while ${doing} (HTTP ${status})`, { ...details, field: "credentials" });
  if (status !== undefined) {
    // Without the engine's own reason, the client's message is the raw answer (a proxy's page may name its host).
    const reason = (error as InstanceType<OpenSearchPackage["errors"]["ResponseError"]>).body?.error?.reason ?? (remote.hostHidden ? undefined : (error as Error).message);
    const code = status === 429 || status >= 500 ? "REMOTE_UNAVAILABLE" : "IO";
    return new RecallError(code, `${where} answered HTTP ${status} while ${doing}${reason === undefined ? "" : `: ${String(reason).split("\n")[0]}`}`, details);
  }
  if (loaded && error instanceof loaded.errors.TimeoutError) return new RecallError("REMOTE_UNAVAILABLE", `${where} did not answer within ${timeoutMs / 1000} s while ${doing}`, details);
  // It answered, but not with an engine's JSON (a web page, a proxy's sign-in: the client hands
  // such a body on as text, which then has none of the fields read): reachable, but no OpenSearch.
  if (error instanceof TypeError || (loaded && error instanceof loaded.errors.DeserializationError)) {
    return new RecallError("REMOTE_UNAVAILABLE", `${where} answered with a body that is not OpenSearch's JSON while ${doing}: its URL names no OpenSearch (a web server or a proxy's page?)`, details);
  }
  // The network error's own words name the host (connect ECONNREFUSED 10.0.0.5:9200).
  const message = remote.hostHidden ? "" : `: ${(error instanceof Error ? error.message : String(error)).split("\n")[0]}`;
  return new RecallError("REMOTE_UNAVAILABLE", `${where} is unreachable while ${doing} (${timeoutMs / 1000} s timeout)${message}`, details);
}
