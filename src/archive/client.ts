/**
 * The one OpenSearch client of a remote: its credentials, its CA, a bounded timeout, and errors
 * turned into one line that never holds a credential. Each operation on a remote (a push, a
 * search, a read, a pull...) gets a client of its own, made when it first asks the remote, and
 * closes it when it ends, however it ends (`withRemote`): its connections go with it.
 */
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { createRequire } from "node:module";
import type { Client } from "@opensearch-project/opensearch";
import { RecallError } from "../errors.js";
import { credentialsOf, type Remote } from "./remotes.js";

/** How long one request of a push may take at least: a bulk request carries up to 4 MB. */
export const PUSH_TIMEOUT_MS = 30_000;

type OpenSearchPackage = typeof import("@opensearch-project/opensearch");
let loaded: OpenSearchPackage | undefined;

/**
 * The client's package, loaded on first use: it takes ~170 ms, which a command that asks no remote
 * need not pay.
 */
function openSearch(): OpenSearchPackage {
  loaded ??= createRequire(import.meta.url)("@opensearch-project/opensearch") as OpenSearchPackage;
  return loaded;
}

/** The remote's CA certificate, if it names one. */
function caOf(remote: Remote): string | undefined {
  if (!remote.ca) return undefined;
  try {
    return readFileSync(remote.ca, "utf8");
  } catch (error) {
    throw new RecallError(
      "BAD_INPUT",
      `cannot read the CA file ${remote.ca} of remote ${remote.name} (${(error as NodeJS.ErrnoException).code})`,
      { field: "ca" },
    );
  }
}

/** A client whose requests give up after `timeoutMs`. */
function remoteClient(remote: Remote, env: NodeJS.ProcessEnv, timeoutMs: number): Client {
  const credentials = credentialsOf(remote, env);
  const ca = caOf(remote);
  return new (openSearch().Client)({
    node: remote.url,
    requestTimeout: timeoutMs,
    // Retries are the push's own (only the failed items of a bulk request).
    maxRetries: 0,
    ...(credentials && "username" in credentials ? { auth: credentials } : {}),
    ...(credentials && "token" in credentials
      ? { headers: { authorization: `Bearer ${credentials.token}` } }
      : {}),
    ...(ca ? { ssl: { ca } } : {}),
  });
}

/**
 * The client of one operation on a remote: made on first use (a push with nothing to send loads no
 * client), closed by `withRemote`.
 */
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

  /**
   * A GET of the remote's REST API at `path` (relative to its URL), answered as JSON, made without
   * the client, whose package takes ~170 ms to load: for the one request of a push with nothing
   * to send. The same credentials, CA and timeout; its failures are told as `remoteError` tells
   * them.
   */
  getJson(path: string, doing: string): Promise<unknown> {
    const { remote, timeoutMs } = this;
    const credentials = credentialsOf(remote, this.env);
    const ca = caOf(remote);
    const url = new URL(path, remote.url.endsWith("/") ? remote.url : `${remote.url}/`);
    const headers: Record<string, string> = { accept: "application/json" };
    if (credentials && "username" in credentials)
      headers.authorization = `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString("base64")}`;
    if (credentials && "token" in credentials)
      headers.authorization = `Bearer ${credentials.token}`;
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const request = send(
        url,
        { method: "GET", headers, timeout: timeoutMs, ...(ca ? { ca } : {}) },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("error", (error) =>
            reject(failure(remote, doing, timeoutMs, { network: error.message })),
          );
          response.on("end", () => {
            const status = response.statusCode ?? 0;
            let body: { error?: { reason?: unknown } } | undefined;
            try {
              body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as typeof body;
            } catch {
              body = undefined;
            }
            if (status >= 200 && status < 300 && body !== undefined) resolve(body);
            else if (status >= 200 && status < 300)
              reject(failure(remote, doing, timeoutMs, { notOpenSearch: true }));
            else
              reject(
                failure(remote, doing, timeoutMs, {
                  status,
                  reason: body?.error?.reason === undefined ? undefined : String(body.error.reason),
                }),
              );
          });
        },
      );
      request.on("timeout", () => {
        request.destroy();
        reject(failure(remote, doing, timeoutMs, { timedOut: true }));
      });
      request.on("error", (error) =>
        reject(failure(remote, doing, timeoutMs, { network: error.message })),
      );
      request.end();
    });
  }

  async close(): Promise<void> {
    const made = this.made;
    this.made = undefined;
    await made?.close();
  }
}

/**
 * Runs `operation` with a connection to `remote` whose requests give up after `timeoutMs`, closed
 * once it ends.
 */
export async function withRemote<T>(
  remote: Remote,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
  operation: (connection: RemoteConnection) => Promise<T>,
): Promise<T> {
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
export function remoteError(
  remote: Remote,
  error: unknown,
  doing: string,
  timeoutMs = remote.timeoutMs,
): RecallError {
  if (error instanceof RecallError) return error;
  const status = statusOf(error);
  let what: Failure;
  if (status !== undefined) {
    // Without the engine's own reason, the client's message is the raw answer (a proxy's page may
    // name its host).
    const reason =
      (error as InstanceType<OpenSearchPackage["errors"]["ResponseError"]>).body?.error?.reason ??
      (remote.hostHidden ? undefined : (error as Error).message);
    what = { status, reason: reason === undefined ? undefined : String(reason) };
  } else if (loaded && error instanceof loaded.errors.TimeoutError) what = { timedOut: true };
  // The client hands a body that is not JSON on as text, which then has none of the fields read.
  else if (
    error instanceof TypeError ||
    (loaded && error instanceof loaded.errors.DeserializationError)
  )
    what = { notOpenSearch: true };
  else what = { network: error instanceof Error ? error.message : String(error) };
  return failure(remote, doing, timeoutMs, what, error);
}

/**
 * How a request failed: the remote's answer, no answer in time, an answer that is no engine's, or
 * no connection.
 */
type Failure =
  | { status: number; reason: string | undefined }
  | { timedOut: true }
  | { notOpenSearch: true }
  | { network: string };

function failure(
  remote: Remote,
  doing: string,
  timeoutMs: number,
  what: Failure,
  cause?: unknown,
): RecallError {
  const where = remote.hostHidden
    ? `remote ${remote.name}`
    : `remote ${remote.name} (${remote.url})`;
  const details = { cause };
  if ("status" in what) {
    const { status, reason } = what;
    if (status === 401 || status === 403)
      return new RecallError(
        "REMOTE_UNAVAILABLE",
        `${where} refused the credentials while ${doing} (HTTP ${status})`,
        { ...details, field: "credentials" },
      );
    const code = status === 429 || status >= 500 ? "REMOTE_UNAVAILABLE" : "IO";
    return new RecallError(
      code,
      `${where} answered HTTP ${status} while ${doing}${reason === undefined ? "" : `: ${reason.split("\n")[0]}`}`,
      details,
    );
  }
  if ("timedOut" in what)
    return new RecallError(
      "REMOTE_UNAVAILABLE",
      `${where} did not answer within ${timeoutMs / 1000} s while ${doing}`,
      details,
    );
  // It answered, but not with an engine's JSON (a web page, a proxy's sign-in): reachable, but no
  // OpenSearch.
  if ("notOpenSearch" in what) {
    return new RecallError(
      "REMOTE_UNAVAILABLE",
      `${where} answered with a body that is not OpenSearch's JSON while ${doing}: its URL names no OpenSearch (a web server or a proxy's page?)`,
      details,
    );
  }
  // The network error's own words name the host (connect ECONNREFUSED 10.0.0.5:9200).
  const message = remote.hostHidden ? "" : `: ${what.network.split("\n")[0]}`;
  return new RecallError(
    "REMOTE_UNAVAILABLE",
    `${where} is unreachable while ${doing} (${timeoutMs / 1000} s timeout)${message}`,
    details,
  );
}
