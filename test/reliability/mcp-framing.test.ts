/**
 * The MCP server's stdio framing against what no well-behaved client sends: lines that are not
 * JSON, JSON that is no valid JSON-RPC message, batches, a line over any buffer, and stdin closed.
 * Each is answered as JSON-RPC says (-32700 / -32600, with the message's id when it has a valid
 * one), and the server keeps serving after it; when stdin ends, what was received is answered
 * first. The real server is spawned, and spoken to byte by byte.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "../helpers/agent-dir.js";

const BIN = new URL("../../bin/recall-mcp.cjs", import.meta.url).pathname;
const INITIALIZE = {
  jsonrpc: "2.0",
  id: "init",
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "framing-test", version: "1" },
  },
};

type Message = Record<string, any>;

/** The server as a stream of lines: what it answered so far, and a wait for the next answer. */
class RawServer {
  readonly child: ChildProcessWithoutNullStreams;
  private readonly answers: unknown[] = [];
  private waiting: (() => void) | undefined;
  private partial = "";
  stderr = "";

  constructor(env: NodeJS.ProcessEnv) {
    this.child = spawn(process.execPath, [BIN, "--default-scope", "all"], { env });
    this.child.stdout.setEncoding("utf8").on("data", (text: string) => {
      const lines = (this.partial + text).split("\n");
      this.partial = lines.pop()!;
      for (const line of lines) this.answers.push(JSON.parse(line));
      this.waiting?.();
    });
    this.child.stderr.setEncoding("utf8").on("data", (text: string) => (this.stderr += text));
    this.child.on("exit", () => this.waiting?.());
    // A write after the server closed its stdin must fail the test by its answer, not crash it.
    this.child.stdin.on("error", () => {});
  }

  write(text: string): void {
    this.child.stdin.write(text);
  }

  /** The next answer the server writes. */
  async next(): Promise<unknown> {
    while (this.answers.length === 0) {
      if (this.child.exitCode !== null)
        throw new Error(
          `the server exited (${this.child.exitCode}) without answering; stderr: ${this.stderr}`,
        );
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
    return this.answers.shift();
  }

  /** Sends a ping and returns its answer: proof that the server still serves. */
  async ping(id: number): Promise<unknown> {
    this.write(`${JSON.stringify({ jsonrpc: "2.0", id, method: "ping" })}\n`);
    return this.next();
  }

  exited(): Promise<number | null> {
    if (this.child.exitCode !== null) return Promise.resolve(this.child.exitCode);
    return new Promise((resolve) => this.child.once("exit", (code) => resolve(code)));
  }
}

let agent: AgentDir;
let server: RawServer;

beforeEach(async () => {
  agent = makeAgentDir();
  server = new RawServer(agent.env);
  server.write(
    `${JSON.stringify(INITIALIZE)}\n${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`,
  );
  expect(await server.next()).toMatchObject({
    id: "init",
    result: { serverInfo: { name: "recall" } },
  });
});
afterEach(async () => {
  server.child.stdin.end();
  await server.exited();
  agent.cleanup();
});

const invalid = (id: string | number | null) => ({
  jsonrpc: "2.0",
  id,
  error: { code: -32600, message: expect.stringMatching(/^Invalid Request: /) },
});

describe("MCP stdio framing", () => {
  it("answers a line that is not JSON with -32700 and id null, and keeps serving", async () => {
    for (const line of ["hello", "{", '{"jsonrpc":"2.0","id":1,', "\u0000\u0001"]) {
      server.write(`${line}\n`);
      expect(await server.next(), line).toEqual({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32700, message: expect.stringMatching(/^Parse error/) },
      });
    }
    expect(await server.ping(2)).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
  });

  it("answers JSON that is no valid request with -32600, with the message's id when it has a valid one", async () => {
    const cases: [string, string | number | null][] = [
      ['{"jsonrpc":"2.0","id":5}', 5],
      ['{"jsonrpc":"2.0","id":6,"method":"tools/call","params":null}', 6],
      ['{"jsonrpc":"2.0","id":7,"method":"tools/list","params":[]}', 7],
      ['{"jsonrpc":"2.0","id":8,"method":"tools/list","__proto__":{"polluted":true}}', 8],
      [
        '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"pi_session_list","arguments":{"__proto__":{}}}}',
        9,
      ],
      ['{"jsonrpc":"1.0","id":10,"method":"tools/list"}', 10],
      ['{"id":"eleven","method":"tools/list"}', "eleven"],
      ['{"jsonrpc":"2.0","id":12,"method":42}', 12],
      ['{"jsonrpc":"2.0","id":1.5,"method":"ping"}', null],
      ['{"jsonrpc":"2.0","id":null,"method":"ping"}', null],
      ['{"jsonrpc":"2.0","id":{},"method":"ping"}', null],
      ["42", null],
      ['"a string"', null],
      ["null", null],
      ["[]", null],
    ];
    for (const [line, id] of cases) {
      server.write(`${line}\n`);
      expect(await server.next(), line).toEqual(invalid(id));
    }
    expect(await server.ping(13)).toEqual({ jsonrpc: "2.0", id: 13, result: {} });
  });

  it("answers a batch with a batch of errors, one for each element with an id (MCP has no batches)", async () => {
    server.write(
      '[{"jsonrpc":"2.0","id":20,"method":"tools/list"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":"21","method":"ping"}]\n',
    );
    expect(await server.next()).toEqual([invalid(20), invalid("21")]);
    server.write('[{"jsonrpc":"2.0","method":"notifications/initialized"}]\n');
    expect(await server.next()).toEqual(invalid(null));
    expect(await server.ping(22)).toEqual({ jsonrpc: "2.0", id: 22, result: {} });
  });

  it("answers a line over 10 MiB (the SDK's own limit) with an error naming its id, and keeps serving", async () => {
    const huge = JSON.stringify({
      jsonrpc: "2.0",
      id: 30,
      method: "tools/call",
      params: { name: "pi_session_search", arguments: { query: "x".repeat(11 * 1024 * 1024) } },
    });
    // Written in pieces, as a pipe delivers it.
    for (let i = 0; i < huge.length; i += 1 << 20) server.write(huge.slice(i, i + (1 << 20)));
    server.write("\n");
    expect(await server.next()).toEqual(invalid(30));
    // Without its id first, it is answered with id null.
    server.write(
      `{"method":"ping","jsonrpc":"2.0","pad":"${"y".repeat(2 * 1024 * 1024)}","id":31}\n`,
    );
    expect(await server.next()).toEqual(invalid(null));
    expect(await server.ping(32)).toEqual({ jsonrpc: "2.0", id: 32, result: {} });
    expect(server.child.exitCode).toBeNull();
    expect(server.stderr).toBe("");
  });

  it("reads messages split across writes, several in one write, and CRLF line ends", async () => {
    const ping = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "ping" });
    const two = `${ping(40)}\r\n${ping(41)}\n`;
    for (const char of two.slice(0, 20)) server.write(char);
    server.write(two.slice(20));
    expect(await server.next()).toEqual({ jsonrpc: "2.0", id: 40, result: {} });
    expect(await server.next()).toEqual({ jsonrpc: "2.0", id: 41, result: {} });
  });

  it("a valid request after every kind of bad line still gets its real answer", async () => {
    server.write('hello\n{"jsonrpc":"2.0","id":5}\n[]\n');
    for (let i = 0; i < 3; i++) await server.next();
    server.write(`${JSON.stringify({ jsonrpc: "2.0", id: 50, method: "tools/list" })}\n`);
    const listed = (await server.next()) as Message;
    expect(listed.id).toBe(50);
    expect(listed.result.tools.map((t: Message) => t.name)).toContain("pi_session_search");
  });

  it("answers a message nested thousands of levels deep with -32600 and its id, and keeps serving", async () => {
    const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
    for (const depth of [65, 5_000, 100_000]) {
      server.write(
        `{"jsonrpc":"2.0","id":60,"method":"tools/call","params":{"name":"pi_session_search","arguments":{"query":"x","deep":${nested(depth)}}}}\n`,
      );
      expect(await server.next(), String(depth)).toEqual({
        jsonrpc: "2.0",
        id: 60,
        error: {
          code: -32600,
          message: "Invalid Request: the message nests objects and arrays deeper than 64 levels",
        },
      });
    }
    // Brackets inside a string are text, not nesting.
    server.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: 61, method: "ping", params: { _meta: { note: "[{".repeat(10_000) } } })}\n`,
    );
    expect(await server.next()).toEqual({ jsonrpc: "2.0", id: 61, result: {} });
    expect(await server.ping(62)).toEqual({ jsonrpc: "2.0", id: 62, result: {} });
    expect(server.stderr).toBe("");
  });

  it("when stdin ends, answers every request already received, writes it all, then exits with status 0", async () => {
    // Searches wait on the first index; tools/list answers are long, so the answers fill the pipe.
    let requests = "";
    for (let id = 100; id < 120; id++)
      requests += `${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "pi_session_search", arguments: { query: "the" } } })}\n`;
    for (let id = 120; id < 140; id++)
      requests += `${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list" })}\n`;
    // A request the client cancels is not answered (MCP), and stdin's end does not wait for it.
    requests += `${JSON.stringify({ jsonrpc: "2.0", id: 140, method: "tools/call", params: { name: "pi_session_search", arguments: { query: "deploy" } } })}\n`;
    requests += `${JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 140 } })}\n`;
    // A late reader: nothing is read until all was sent and stdin closed.
    server.child.stdout.pause();
    await new Promise<void>((resolve) => server.child.stdin.end(requests, resolve));
    server.child.stdout.resume();
    const ids: number[] = [];
    // (The cancelled search is answered only if it was done before its cancel was read.)
    while (ids.length < 40) {
      const { id } = (await server.next()) as Message;
      if (id !== 140) ids.push(id);
    }
    expect(ids.sort()).toEqual(Array.from({ length: 40 }, (_, i) => 100 + i));
    expect(await server.exited()).toBe(0);
    expect(server.stderr).toBe("");
  });

  it("exits with status 0 when stdin closes, having written nothing more", async () => {
    server.child.stdin.end();
    expect(await server.exited()).toBe(0);
    expect(server.stderr).toBe("");
  });
});
