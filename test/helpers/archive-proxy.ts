/**
 * A real HTTP reverse proxy on 127.0.0.1 in front of the test's OpenSearch, for what the bare
 * engine cannot do itself: demand basic auth (the zip has no security plugin), never answer (a
 * slow remote), or refuse the first items of a bulk request with 429 as an overloaded engine does
 * (those items are not forwarded: the engine never sees them), or pass bulk requests to the
 * engine and keep their answers back (a push killed after the engine took a request, before
 * it heard so), or keep idle connections open for good (to see that a client closes its own).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ProxyBehaviour {
  /** `user:password` the proxy demands (401 otherwise). */
  basicAuth?: string;
  /** Takes requests and never answers. */
  hang?: boolean;
  /** Bulk requests still to refuse in part, and how many of the first items of each. */
  rejectBulks?: { requests: number; items: number; status: number };
  /**
   * Bulk requests to answer before the proxy passes the others on to the engine but never answers
   * them.
   */
  answerBulks?: number;
  /** Runs before a bulk request is passed on (a node of the cluster killed meanwhile, say). */
  beforeBulk?: () => Promise<void>;
  /**
   * Never closes an idle connection itself (Node's server does after 5 s): only its client does.
   */
  keepIdle?: boolean;
}

export interface ArchiveProxy {
  url: string;
  behaviour: ProxyBehaviour;
  /** The number of actions of each bulk request that reached the proxy. */
  bulkActions: number[];
  /** Bulk requests the engine answered whose answer the proxy kept back (answerBulks). */
  heldBulks: number;
  /** Every request that reached the proxy, as `METHOD /path`. */
  requests: string[];
  /** Connections made to the proxy and not closed yet. */
  readonly openConnections: number;
  /** Resolves once no connection to the proxy is open. */
  allClosed(): Promise<void>;
  close(): Promise<void>;
}

function body(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request
      .on("data", (c: Buffer) => chunks.push(c))
      .on("end", () => resolve(Buffer.concat(chunks)))
      .on("error", reject);
  });
}

/**
 * The actions of an NDJSON bulk body, each with its lines (an index action is followed by its
 * document).
 */
function bulkActions(text: string): string[][] {
  const lines = text.split("\n").filter((l) => l.trim());
  const actions: string[][] = [];
  for (let i = 0; i < lines.length; i++) {
    const action = JSON.parse(lines[i]!) as Record<string, unknown>;
    actions.push("delete" in action ? [lines[i]!] : [lines[i]!, lines[++i]!]);
  }
  return actions;
}

export async function startArchiveProxy(
  target: string,
  behaviour: ProxyBehaviour = {},
): Promise<ArchiveProxy> {
  const bulks: number[] = [];
  const requests: string[] = [];
  let held = 0;
  const proxy = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    requests.push(`${request.method} ${request.url}`);
    const payload = await body(request);
    if (behaviour.hang) return;
    if (
      behaviour.basicAuth !== undefined &&
      request.headers.authorization !==
        `Basic ${Buffer.from(behaviour.basicAuth).toString("base64")}`
    ) {
      response.writeHead(401, {
        "content-type": "application/json",
        "www-authenticate": 'Basic realm="archive"',
      });
      response.end(
        JSON.stringify({
          error: { type: "security_exception", reason: "missing or wrong credentials" },
          status: 401,
        }),
      );
      return;
    }
    let forwarded = payload;
    let refused: string[][] = [];
    let actions: string[][] = [];
    const isBulk = request.method === "POST" && /\/_bulk(\?|$)/.test(request.url ?? "");
    if (isBulk) {
      actions = bulkActions(payload.toString("utf8"));
      bulks.push(actions.length);
      const reject = behaviour.rejectBulks;
      if (reject && reject.requests > 0) {
        reject.requests--;
        refused = actions.slice(0, reject.items);
        forwarded = Buffer.from(`${actions.slice(reject.items).flat().join("\n")}\n`);
      }
    }
    if (isBulk && behaviour.beforeBulk) await behaviour.beforeBulk();
    const headers = { "content-type": request.headers["content-type"] ?? "application/json" };
    const answer =
      refused.length === actions.length && isBulk && refused.length > 0
        ? { status: 200, text: JSON.stringify({ took: 0, errors: false, items: [] }) }
        : await fetch(`${target}${request.url}`, {
            method: request.method,
            headers,
            ...(payload.length > 0 ? { body: new Uint8Array(forwarded) } : {}),
          }).then(async (r) => ({ status: r.status, text: await r.text() }));
    if (isBulk && behaviour.answerBulks !== undefined && bulks.length > behaviour.answerBulks) {
      held++;
      return;
    }
    let text = answer.text;
    if (refused.length > 0) {
      const result = JSON.parse(text) as { errors: boolean; items: unknown[] };
      const status = behaviour.rejectBulks!.status;
      const failed = refused.map((lines) => {
        const [op, meta] = Object.entries(
          JSON.parse(lines[0]!) as Record<string, { _id: string; _index: string }>,
        )[0]!;
        return {
          [op]: {
            _index: meta._index,
            _id: meta._id,
            status,
            error: {
              type: status === 429 ? "rejected_execution_exception" : "mapper_parsing_exception",
              reason: `refused by the test proxy (${status})`,
            },
          },
        };
      });
      text = JSON.stringify({ ...result, errors: true, items: [...failed, ...result.items] });
    }
    response.writeHead(answer.status, { "content-type": "application/json" });
    response.end(text);
  };
  const server: Server = createServer((request, response) => {
    proxy(request, response).catch((error: Error) => response.destroy(error));
  });
  let open = 0;
  let onAllClosed: (() => void)[] = [];
  server.on("connection", (socket) => {
    open++;
    socket.on("close", () => {
      if (--open > 0) return;
      for (const resolve of onAllClosed) resolve();
      onAllClosed = [];
    });
  });
  if (behaviour.keepIdle) server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    behaviour,
    bulkActions: bulks,
    requests,
    get heldBulks() {
      return held;
    },
    get openConnections() {
      return open;
    },
    allClosed: () =>
      open === 0 ? Promise.resolve() : new Promise<void>((resolve) => onAllClosed.push(resolve)),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
