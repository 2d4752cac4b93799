/**
 * What MCP clients the project did not write found wrong (issue 29): arguments the schema
 * refuses, an unusable sessions folder, the resource's size, the prompt's reference, a bad
 * resource URI, a blank query, the capabilities advertised, and what the message counts mean.
 * Each answered as the seed's contract says, over the official client and the built server.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterEach, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";

const BIN = new URL("../bin/recall-mcp.cjs", import.meta.url).pathname;

let agent: AgentDir | undefined;
let client: Client | undefined;

async function connect(args: string[], env: NodeJS.ProcessEnv): Promise<Client> {
  client = new Client({ name: "recall-contract-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, ...args],
      env: env as Record<string, string>,
      stderr: "pipe",
    }),
  );
  return client;
}

afterEach(async () => {
  await client?.close();
  client = undefined;
  agent?.cleanup();
  agent = undefined;
});

type Structured = Record<string, any>;
async function call(
  name: string,
  args: unknown,
): Promise<{ isError: boolean; s: Structured; text: string }> {
  const result = await client!.callTool({ name, arguments: args as Record<string, unknown> });
  const text =
    (result.content as { type: string; text?: string }[]).find((b) => b.type === "text")?.text ??
    "";
  return { isError: result.isError === true, s: result.structuredContent as Structured, text };
}

async function expectError(name: string, args: unknown, code: string): Promise<Structured> {
  const result = await call(name, args);
  expect(result.isError, JSON.stringify(args).slice(0, 200)).toBe(true);
  expect(result.s.error.code).toBe(code);
  expect(result.s.error.recovery.length).toBeGreaterThan(10);
  expect(result.text).toMatch(new RegExp(`^${code}: .*Next: `, "s"));
  return result.s.error;
}

describe("recall mcp, as clients use it", () => {
  it("answers arguments the schema refuses with INVALID_ARGUMENT and a recovery, in text and structuredContent", async () => {
    agent = makeAgentDir();
    await connect(["--default-scope", "all"], agent.env);
    const search = (await client!.listTools()).tools.find((t) => t.name === "pi_session_search")!;
    // The published schema still says the limits.
    expect((search.inputSchema.properties as any).query.maxLength).toBe(4000);
    expect((search.inputSchema.properties as any).limit.maximum).toBe(25);
    const refused: [string, unknown, RegExp][] = [
      ["pi_session_search", { query: "x".repeat(4001) }, /query/],
      ["pi_session_search", { query: "deploy", limit: 26 }, /limit/],
      ["pi_session_search", { query: "deploy", limit: 0 }, /limit/],
      ["pi_session_search", { query: "deploy", limit: "ten" }, /limit/],
      ["pi_session_search", { query: 42 }, /query/],
      ["pi_session_search", {}, /query/],
      ["pi_session_search", { query: "deploy", mode: "everything" }, /mode/],
      ["pi_session_search", { query: "deploy", scope: "galaxy" }, /scope/],
      ["pi_session_search", { query: "   " }, /query/],
      ["pi_session_search", { query: "" }, /query/],
      ["pi_session_list", { limit: 2.5 }, /limit/],
      ["pi_session_find", { session_id: ["a"] }, /session_id/],
      ["pi_session_read", { session_ref: "sref_00", max_chars: 100_001 }, /max_chars/],
      [
        "pi_session_context",
        { session_ref: "sref_00", question: "why", max_chars: 99 },
        /max_chars/,
      ],
      // An argument the tool does not take is named, not quietly dropped (limt would be the default
      // limit).
      [
        "pi_session_search",
        { query: "deploy", limt: 3 },
        /^invalid arguments \(limt: not an argument of this tool \(it takes query, limit, /,
      ],
      ["pi_session_list", { scope: "all", sessionId: "x" }, /sessionId: not an argument/],
      [
        "pi_session_read",
        { session_ref: "sref_00", cursor: "x", max_char: 500 },
        /max_char: not an argument/,
      ],
    ];
    for (const [tool, args, field] of refused) {
      const error = await expectError(tool, args, "INVALID_ARGUMENT");
      expect(error.message, JSON.stringify(args).slice(0, 100)).toMatch(field);
    }
  });

  it("answers STORAGE_UNAVAILABLE, saying what to fix and no path, for a sessions folder that is missing or a file", async () => {
    agent = makeAgentDir();
    const file = join(agent.root, "a-file");
    writeFileSync(file, "not a folder");
    const wrongAgent = join(agent.root, "no-such-agent");
    // The wrong agent folder twice: the first server makes recall's cache in it, which must not
    // make it Pi's.
    for (const args of [
      ["--sessions-dir", join(agent.root, "missing")],
      ["--sessions-dir", file],
      ["--agent-dir", wrongAgent],
      ["--agent-dir", wrongAgent],
    ]) {
      await connect([...args, "--default-scope", "all"], {
        PATH: process.env.PATH,
        HOME: agent.root,
      });
      for (const [tool, toolArgs] of [
        ["pi_session_search", { query: "deploy" }],
        ["pi_session_list", {}],
      ] as const) {
        const error = await expectError(tool, toolArgs, "STORAGE_UNAVAILABLE").catch((e: Error) => {
          throw new Error(`${args.join(" ")}: ${e.message}`);
        });
        expect(error.recovery).toMatch(/--sessions-dir|--agent-dir/);
        expect(JSON.stringify(error)).not.toContain(agent.root);
      }
      await client!.close();
    }
    // Pi's agent folder (its settings) without a sessions folder yet is no error: nothing is there
    // yet.
    const fresh = join(agent.root, "fresh-agent");
    mkdirSync(fresh);
    writeFileSync(join(fresh, "settings.json"), "{}");
    await connect(["--agent-dir", fresh, "--default-scope", "all"], {
      PATH: process.env.PATH,
      HOME: agent.root,
    });
    const empty = await call("pi_session_list", {});
    expect(empty.isError).toBe(false);
    expect(empty.s.results).toEqual([]);
    expect(empty.s.note).toMatch(/no sessions yet/);
  });

  it("caps the conversation resource at 24,000 characters in all, and continues with pi_session_read", async () => {
    agent = makeAgentDir();
    // A session of many short messages: the framing of each message adds up.
    const folder = join(agent.sessionsDir, "--home-dev-long--");
    mkdirSync(folder);
    const lines = [
      JSON.stringify({
        type: "session",
        version: 3,
        id: "long-session",
        timestamp: "2026-11-01T00:00:00.000Z",
        cwd: "/home/dev/long",
      }),
    ];
    for (let i = 0; i < 3000; i++) {
      const ms = Date.parse("2026-11-01T00:00:00Z") + i * 1000;
      lines.push(
        JSON.stringify({
          type: "message",
          id: `m${i.toString(16).padStart(7, "0")}`,
          parentId: i === 0 ? null : `m${(i - 1).toString(16).padStart(7, "0")}`,
          timestamp: new Date(ms).toISOString(),
          message: {
            role: i % 2 ? "assistant" : "user",
            content:
              i % 2
                ? [{ type: "text", text: `longresourceword reply ${i}` }]
                : `longresourceword question ${i}`,
            timestamp: ms,
          },
        }),
      );
    }
    writeFileSync(
      join(folder, "2026-11-01T00-00-00-000Z_long-session.jsonl"),
      lines.join("\n") + "\n",
    );
    await connect(["--default-scope", "all"], agent.env);
    const [hit] = (await call("pi_session_search", { query: "longresourceword" })).s.results;
    const resource = await client!.readResource({ uri: hit.resource_uri });
    const text = (resource.contents[0] as { text: string }).text;
    expect(text.length).toBeLessThanOrEqual(24_000);
    expect(text.length).toBeGreaterThan(20_000);
    const cursor = /next_cursor: (mcur_\S+)/.exec(text)![1]!;
    const next = /call pi_session_read with (\{.*\})/.exec(text)![1]!;
    const more = await call("pi_session_read", JSON.parse(next));
    expect(more.isError).toBe(false);
    expect(JSON.parse(next).cursor).toBe(cursor);
    expect(more.s.from).toBeGreaterThan(0);
  });

  it("refuses a made-up session_ref in the prompt, and an unknown resource as not found (-32602)", async () => {
    agent = makeAgentDir();
    await connect(["--default-scope", "all"], agent.env);
    const [hit] = (await call("pi_session_search", { query: "deploy" })).s.results;
    const prompt = await client!.getPrompt({
      name: "recall-prior-decision",
      arguments: { session_ref: hit.session_ref, question: "why?" },
    });
    expect((prompt.messages[0]!.content as { text: string }).text).toContain(hit.session_ref);
    for (const ref of [
      "sref_madeup",
      `${hit.session_ref.slice(0, -1)}${hit.session_ref.endsWith("0") ? "1" : "0"}`,
      "../../etc/passwd",
    ]) {
      await expect(
        client!.getPrompt({
          name: "recall-prior-decision",
          arguments: { session_ref: ref, question: "why?" },
        }),
      ).rejects.toMatchObject({ code: -32602 });
      await expect(
        client!.readResource({ uri: `pi-session://sessions/${ref}/conversation` }),
      ).rejects.toMatchObject({ code: -32602 });
    }
  });

  it("advertises no list changes, lists recent sessions as resources, and says what each message count counts", async () => {
    agent = makeAgentDir();
    await connect(["--default-scope", "all"], agent.env);
    const capabilities = client!.getServerCapabilities()!;
    expect(capabilities.tools?.listChanged).toBe(false);
    expect(capabilities.resources?.listChanged).toBe(false);
    expect(capabilities.prompts?.listChanged).toBe(false);
    const { resources } = await client!.listResources();
    const listed = await call("pi_session_list", { limit: 25 });
    expect(resources.map((r) => r.uri)).toEqual(
      listed.s.results.map((r: Structured) => r.resource_uri),
    );
    const text = (await client!.readResource({ uri: resources[0]!.uri })).contents[0] as {
      text: string;
    };
    expect(text.text).toMatch(/has_more/);
    const tools = (await client!.listTools()).tools;
    expect(JSON.stringify(tools.find((t) => t.name === "pi_session_search")!.outputSchema)).toMatch(
      /"message_count":\{[^}]*every branch/,
    );
    expect(JSON.stringify(tools.find((t) => t.name === "pi_session_read")!.outputSchema)).toMatch(
      /"total_messages":\{[^}]*active branch/,
    );
    const read = await call("pi_session_read", { session_ref: listed.s.results[0].session_ref });
    expect(read.text).toMatch(/on the active branch/);
    expect(listed.text).toMatch(/messages \(every branch\): \d+/);
  });
});
