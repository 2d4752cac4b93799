#!/usr/bin/env node
// The installed `recall-mcp` as an MCP client meets it: started over stdio by the given runtime,
// spoken to in raw JSON-RPC lines (initialize, tools/list, one pi_session_search with a real hit),
// then its stdin closed, after which it must exit 0. Every line on its stdout must be a JSON-RPC
// message; anything else there would corrupt a client's stream. Used by scripts/install-test.sh.
//
// Usage: node scripts/install-test-mcp.mjs <label> <word> <command> [args…] (e.g. bun
// …/recall-mcp.cjs)
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const [label, word, command, ...args] = process.argv.slice(2);
const TIMEOUT_MS = 60_000;

function fail(message) {
  console.error(`install-test: FAIL: ${label}: recall-mcp: ${message}`);
  server.kill("SIGKILL");
  process.exit(1);
}

const server = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"] });
let stderr = "";
server.stderr.on("data", (chunk) => (stderr += chunk));
server.on("error", (error) => fail(`cannot start: ${error.message}`));
// A server that died is reported by its exit below, not by the write that found its stdin closed.
server.stdin.on("error", () => {});
let asked = false;
server.on(
  "exit",
  (code, signal) =>
    asked || fail(`exited with ${code ?? signal} before answering; stderr: ${stderr}`),
);
const timer = setTimeout(
  () => fail(`no answer within ${TIMEOUT_MS / 1000} s; stderr: ${stderr}`),
  TIMEOUT_MS,
);

const waiting = new Map();
createInterface({ input: server.stdout }).on("line", (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    fail(`printed a line on stdout that is not JSON-RPC: ${line}`);
  }
  if (message?.jsonrpc !== "2.0")
    fail(`printed a message on stdout that is not JSON-RPC 2.0: ${line}`);
  waiting.get(message.id)?.(message);
  waiting.delete(message.id);
});

let nextId = 1;
function request(method, params) {
  const id = nextId++;
  server.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
  return new Promise((resolve) => waiting.set(id, resolve)).then((message) => {
    if (message.error) fail(`${method} answered an error: ${JSON.stringify(message.error)}`);
    return message.result;
  });
}

const init = await request("initialize", {
  protocolVersion: "2025-06-18",
  capabilities: {},
  clientInfo: { name: "recall-install-test", version: "1.0.0" },
});
if (init.serverInfo?.name === undefined || !init.capabilities?.tools)
  fail(`initialize did not describe a server with tools: ${JSON.stringify(init)}`);
server.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");

const { tools } = await request("tools/list", {});
if (!tools.some((tool) => tool.name === "pi_session_search"))
  fail(`tools/list lacks pi_session_search: ${tools.map((t) => t.name).join(", ")}`);

const found = await request("tools/call", {
  name: "pi_session_search",
  arguments: { query: word, scope: "all" },
});
const hit = found.structuredContent?.results?.[0];
if (found.isError || !hit?.matched_words?.includes(word))
  fail(`pi_session_search ${word} found no session: ${JSON.stringify(found)}`);

asked = true;
server.on("exit", (code, signal) => {
  clearTimeout(timer);
  if (code !== 0) fail(`exited with ${code ?? signal} after its stdin closed; stderr: ${stderr}`);
  console.error(
    `install-test: ok: ${label}: recall-mcp (${init.serverInfo.name} ${init.serverInfo.version}, protocol ${init.protocolVersion}) found ${hit.session_ref}`,
  );
});
server.stdin.end();
