/**
 * A language model on 127.0.0.1 for tests: a small HTTP server speaking the OpenAI
 * chat-completions streaming protocol, which the real Pi calls as a provider registered in the
 * test agent folder's `models.json` (`"api": "openai-completions"`). It records every request, so a
 * test asserts exactly what was sent, and answers what the test scripts: text, a delay, an HTTP
 * error. No network beyond the loopback address.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface ChatRequest {
  model: string;
  messages: { role: string; content: unknown }[];
  tools?: unknown[];
  stream?: boolean;
}

/** What to answer one request with. */
export type Reply = { text: string; delayMs?: number } | { status: number; body?: string };

export interface ModelServer {
  port: number;
  /** Every request body received, in order. */
  requests: ChatRequest[];
  /** Answers for the coming requests, taken in order; the last one repeats. */
  script(...replies: (Reply | ((request: ChatRequest) => Reply))[]): void;
  /** Registers the server as provider `local`, model `tagger`, in an agent folder's models.json. */
  register(agentDir: string): string;
  close(): Promise<void>;
}

function chunk(res: ServerResponse, body: object): void {
  res.write(`data: ${JSON.stringify(body)}\n\n`);
}

function stream(res: ServerResponse, model: string, text: string): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const base = { id: "chatcmpl-test", object: "chat.completion.chunk", created: 0, model };
  chunk(res, {
    ...base,
    choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }],
  });
  chunk(res, { ...base, choices: [{ index: 0, delta: { content: text }, finish_reason: null }] });
  chunk(res, { ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] });
  chunk(res, {
    ...base,
    choices: [],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  });
  res.end("data: [DONE]\n\n");
}

export async function startModelServer(): Promise<ModelServer> {
  const requests: ChatRequest[] = [];
  let replies: (Reply | ((request: ChatRequest) => Reply))[] = [
    { text: '{"tags": ["alpha", "beta", "gamma"]}' },
  ];
  let taken = 0;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        res.writeHead(404).end();
        return;
      }
      const request = JSON.parse(body) as ChatRequest;
      requests.push(request);
      const next = replies[Math.min(taken++, replies.length - 1)]!;
      const reply = typeof next === "function" ? next(request) : next;
      const answer = () =>
        "status" in reply
          ? res
              .writeHead(reply.status, { "content-type": "application/json" })
              .end(reply.body ?? '{"error":{"message":"scripted failure"}}')
          : stream(res, request.model, reply.text);
      if ("delayMs" in reply && reply.delayMs) setTimeout(answer, reply.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    port,
    requests,
    script: (...next) => {
      replies = next;
      taken = 0;
    },
    register: (agentDir) => {
      mkdirSync(agentDir, { recursive: true });
      const models = {
        providers: {
          local: {
            baseUrl: `http://127.0.0.1:${port}/v1`,
            api: "openai-completions",
            apiKey: "dummy",
            models: [{ id: "tagger", name: "Local Tagger" }],
          },
        },
      };
      writeFileSync(join(agentDir, "models.json"), JSON.stringify(models));
      return "local/tagger";
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
