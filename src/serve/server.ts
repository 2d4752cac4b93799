/**
 * `recall serve`: the HTTP server. Each request passes the guard (guard.ts), then is answered by
 * the API (api.ts), a file of the front end (assets.ts), the shell of a page, or the live feed
 * (live.ts). Every answer carries the security headers; errors are one line of JSON.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { projectOf, Recall, RECALL_VERSION, RecallError, type Match } from "../index.js";
import { ServeApi } from "./api.js";
import { loadAssets, PAGES, SHELL, type Asset } from "./assets.js";
import { Guard, SECURITY_HEADERS } from "./guard.js";
import { LiveFeed } from "./live.js";
import { errorAnswer, Router, type Answer } from "./router.js";
import type { ServeInfo } from "./wire.js";

export interface ServeOptions {
  /** Where sessions are: as the CLI's options and environment say (`Recall.open`). */
  sessionsDir: string | undefined;
  env: NodeJS.ProcessEnv;
  /** Default 0: a free port. */
  port: number;
  /** Default 127.0.0.1. */
  host: string;
  remote: string | null;
  folder: string;
}

export interface RunningServer {
  /** The address to open: with the run's secret. */
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** Names a browser may call the server by, per host it listens on. */
function hostNames(host: string): string[] {
  if (host === "127.0.0.1" || host === "localhost") return ["127.0.0.1", "localhost"];
  if (host === "::1") return ["::1", "localhost"];
  return [host];
}

export async function startServer(
  options: ServeOptions,
  say: (line: string) => void,
): Promise<RunningServer> {
  // As the MCP server: files parsed on a worker thread (a request never waits on another's
  // parse), and the freshness check only after the folders' watches saw a change.
  const recall = Recall.open({
    sessionsDir: options.sessionsDir,
    env: options.env,
    cwd: options.folder,
    background: true,
    live: true,
  });
  try {
    return await serve(recall, options, say);
  } catch (error) {
    recall.close();
    throw error;
  }
}

async function serve(
  recall: Recall,
  options: ServeOptions,
  say: (line: string) => void,
): Promise<RunningServer> {
  const stop = new AbortController();
  const live = new LiveFeed(recall, say);
  const remotes = recall.archive.remotes().map((remote) => remote.name);
  if (options.remote !== null && !remotes.includes(options.remote))
    throw new RecallError(
      "NOT_FOUND",
      `no remote named ${options.remote} in recall's config.json (see recall remote)`,
    );
  const info: ServeInfo = {
    version: RECALL_VERSION,
    folder: options.folder,
    project: projectOf(options.folder),
    matchModes: recall.meaning.modelInstalled()
      ? (["both", "words", "meaning"] satisfies Match[])
      : ["words"],
    remotes,
    remote: options.remote,
    sessionsNote: recall.sessionsFolderProblem()?.message ?? null,
  };
  const router = new Router();
  new ServeApi(recall, { info, followed: () => live.following, caughtUp: live.caughtUp }).register(
    router,
  );
  router.on("GET", "/api/events", (_request, response) => {
    live.attach(response);
    return { kind: "held" };
  });
  const assets = loadAssets(await recall.exports.stylesheet());

  const server = createServer();
  await new Promise<void>((listening, failed) => {
    server.once("error", failed);
    server.listen(options.port, options.host, () => listening());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const guard = new Guard(hostNames(options.host), port);
  server.on("request", (request, response) => {
    handle(request, response).catch(() => response.destroy());
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value);
    response.setHeader("Cache-Control", "no-store");
    const url = new URL(request.url ?? "/", "http://serve.invalid");
    const verdict = guard.check(request, url);
    if (verdict.kind === "refuse") return sendError(response, verdict.status, verdict.message);
    if (verdict.kind === "admit") {
      response.writeHead(303, { Location: verdict.location, "Set-Cookie": verdict.cookie }).end();
      return;
    }
    try {
      const asset = assets.get(url.pathname);
      if (asset && request.method === "GET") {
        // The icon is asked for again at every change of the address: kept a day.
        if (url.pathname === "/favicon.svg")
          response.setHeader("Cache-Control", "private, max-age=86400");
        return send(response, 200, asset);
      }
      if (PAGES.test(url.pathname) && request.method === "GET")
        return send(response, 200, { body: Buffer.from(SHELL), type: "text/html; charset=utf-8" });
      const answer = await router.answer(request, url, response);
      if (answer === null) return sendError(response, 404, `nothing at ${url.pathname}`);
      answerWith(response, answer);
    } catch (error) {
      const { status, body } = errorAnswer(error);
      if (!response.headersSent)
        response.writeHead(status, { "Content-Type": "application/json; charset=utf-8" });
      response.end(JSON.stringify(body));
    }
  }

  const url = `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${port}/?token=${guard.token}`;
  live.start(stop.signal);
  return {
    url,
    server,
    async close() {
      stop.abort();
      live.close();
      server.closeAllConnections();
      await new Promise<void>((closed) => server.close(() => closed()));
      recall.close();
    },
  };
}

function answerWith(response: ServerResponse, answer: Answer): void {
  if (answer.kind === "held") return;
  if (answer.kind === "json") {
    response.writeHead(answer.status ?? 200, { "Content-Type": "application/json; charset=utf-8" });
    response.end(JSON.stringify(answer.value));
    return;
  }
  response.writeHead(200, { "Content-Type": answer.type, ...answer.headers });
  response.end(answer.body);
}

function send(response: ServerResponse, status: number, asset: Asset): void {
  response.writeHead(status, { "Content-Type": asset.type, "Content-Length": asset.body.length });
  response.end(asset.body);
}

function sendError(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { "Content-Type": "application/json; charset=utf-8" });
  response.end(JSON.stringify({ error: message, code: status === 404 ? "NOT_FOUND" : "REFUSED" }));
}
