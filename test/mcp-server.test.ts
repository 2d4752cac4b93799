/**
 * `recall mcp` end to end: the official MCP client spawns the built server (bin/recall-mcp.cjs)
 * over stdio against a throwaway agent folder with the fixture sessions.
 */
import {
  appendFileSync,
  copyFileSync,
  linkSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  truncateSync,
} from "node:fs";
import { join } from "node:path";
import { spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { watchProgress, type ProgressOnWire } from "./helpers/progress-on-wire.js";

const BIN = new URL("../bin/recall-mcp.cjs", import.meta.url).pathname;

let agent: AgentDir;
let client: Client;
/** Progress notifications the server sent `client`. */
let progress: ProgressOnWire;

async function connect(args: string[] = ["--default-scope", "all"]): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, ...args],
    env: agent.env as Record<string, string>,
    stderr: "pipe",
  });
  const connected = new Client({ name: "recall-test", version: "1.0.0" });
  await connected.connect(transport);
  progress = watchProgress(transport);
  return connected;
}

type Structured = Record<string, any>;
async function call(
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError: boolean; s: Structured; text: string }> {
  const result = await client.callTool({ name, arguments: args });
  const text =
    (result.content as { type: string; text?: string }[]).find((b) => b.type === "text")?.text ??
    "";
  return { isError: result.isError === true, s: result.structuredContent as Structured, text };
}

function sessionFiles(): string[] {
  return readdirSync(agent.sessionsDir, { recursive: true, encoding: "utf8" })
    .filter((p) => p.endsWith(".jsonl"))
    .map((p) => join(agent.sessionsDir, p));
}

beforeEach(async () => {
  agent = makeAgentDir();
  client = await connect();
});
afterEach(async () => {
  await client.close();
  agent.cleanup();
});

describe("recall mcp", () => {
  it("initializes with instructions and lists the read-only tools with schemas and annotations", async () => {
    expect(client.getInstructions()).toMatch(/pi_session_find/);
    expect(client.getInstructions()).toMatch(/untrusted historical data/);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "pi_session_context",
      "pi_session_find",
      "pi_session_list",
      "pi_session_read",
      "pi_session_related",
      "pi_session_search",
    ]);
    for (const tool of tools) {
      expect(tool.outputSchema).toBeDefined();
      expect(tool.annotations).toMatchObject({
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
    }
    const search = tools.find((t) => t.name === "pi_session_search")!;
    expect((search.inputSchema.properties as any).query.maxLength).toBe(4000);
    expect((search.inputSchema.properties as any).limit.maximum).toBe(25);
  });

  it("searches, and pages to the end with cursors, never showing a path or cwd", async () => {
    const first = await call("pi_session_search", { query: "deploy", limit: 10 });
    expect(first.isError).toBe(false);
    const total = first.s.results.length;
    expect(total).toBeGreaterThan(1);
    const seen: string[] = [];
    let cursor: string | undefined = "start";
    while (true) {
      const page = await call("pi_session_search", { query: "deploy", limit: 1, cursor });
      expect(page.isError).toBe(false);
      seen.push(...page.s.results.map((r: Structured) => r.session_ref));
      if (!page.s.has_more) break;
      expect(page.s.next_cursor).toMatch(/^mcur_/);
      cursor = page.s.next_cursor;
    }
    expect(seen).toEqual(first.s.results.map((r: Structured) => r.session_ref));
    const hit = first.s.results[0];
    expect(hit.session_ref).toMatch(/^sref_/);
    expect(hit.project_id).toMatch(/^proj_/);
    expect(hit.matched_words).toContain("deploy");
    expect(first.s.scope).toBe("all");
    expect(first.s.scanned_sessions).toBeGreaterThan(0);
    const everything = JSON.stringify(first) + first.text;
    expect(everything).not.toContain(agent.root);
    expect(everything).not.toContain("/home/dev");
  });

  it('mode "raw" searches thinking, tool calls and tool output too; file finds the sessions that touched a file', async () => {
    expect((await call("pi_session_search", { query: "quuxtooloutput" })).s.results).toEqual([]);
    const raw = await call("pi_session_search", { query: "quuxtooloutput", mode: "raw" });
    expect(raw.s.results).toHaveLength(1);
    expect(raw.s.results[0]).toMatchObject({
      message_kind: "output",
      message_tool: "read",
      matched_words: ["quuxtooloutput"],
    });
    expect(raw.text).not.toMatch(/searched the conversation/);
    const touched = await call("pi_session_search", {
      query: "readiness",
      file: "/home/dev/shop-api/deploy/staging.log",
    });
    expect(touched.s.results).toHaveLength(1);
    expect(touched.s.results[0].file_calls).toEqual([{ tool: "read", entry_id: "8eb91481" }]);
    expect(JSON.stringify(touched.s)).not.toContain("/home/dev");
    expect(
      (
        await call("pi_session_search", {
          query: "readiness",
          file: "/home/dev/shop-api/nothing.txt",
        })
      ).s.results,
    ).toEqual([]);
  });

  it("says in its note which words of the query it read as others (typos)", async () => {
    const typo = await call("pi_session_search", { query: "deplyo" });
    expect(typo.s.results.length).toBeGreaterThan(0);
    expect(typo.s.note).toBe('no session holds "deplyo": read as "deploy", one typo away');
    expect(typo.text).toContain('note: no session holds "deplyo"');
    expect((await call("pi_session_search", { query: "deploy" })).s.note).toBeUndefined();
  });

  it("gives the same refs after a restart", async () => {
    const before = await call("pi_session_search", { query: "deploy" });
    await client.close();
    client = await connect();
    const after = await call("pi_session_search", { query: "deploy" });
    expect(after.s.results.map((r: Structured) => r.session_ref)).toEqual(
      before.s.results.map((r: Structured) => r.session_ref),
    );
  });

  it("finds by id, lists, gives focused context, and reads to the end", async () => {
    const hit = (await call("pi_session_search", { query: "deploy" })).s.results[0];
    const found = await call("pi_session_find", { session_id: hit.session_id });
    expect(found.s.results.map((r: Structured) => r.session_ref)).toEqual([hit.session_ref]);
    const asQuery = await call("pi_session_search", { query: hit.session_id });
    expect(asQuery.s.results[0].session_ref).toBe(hit.session_ref);
    const listed = await call("pi_session_list", { limit: 25 });
    expect(listed.s.results.length).toBeGreaterThan(3);
    const context = await call("pi_session_context", {
      session_ref: hit.session_ref,
      question: "deploy",
    });
    expect(context.isError).toBe(false);
    expect(context.s.matched_messages).toBeGreaterThan(0);
    let page = await call("pi_session_read", { session_ref: hit.session_ref, max_chars: 100 });
    const indexes = [...page.s.messages.map((m: Structured) => m.index)];
    while (page.s.has_more) {
      expect(page.text).toContain(page.s.next_cursor);
      expect(page.s.next_call.arguments.cursor).toBe(page.s.next_cursor);
      page = await call("pi_session_read", page.s.next_call.arguments);
      expect(page.isError).toBe(false);
      indexes.push(...page.s.messages.map((m: Structured) => m.index));
    }
    expect(new Set(indexes).size).toBe(page.s.total_messages);
  });

  it("answers every error code with a recovery action", async () => {
    const hit = (await call("pi_session_search", { query: "deploy" })).s.results[0];
    const expectError = async (name: string, args: Record<string, unknown>, code: string) => {
      const result = await call(name, args);
      expect(result.isError).toBe(true);
      expect(result.s.error.code).toBe(code);
      expect(result.s.error.recovery.length).toBeGreaterThan(10);
      expect(result.text).toContain(code);
      expect(result.text).not.toContain(agent.root);
    };
    await expectError(
      "pi_session_search",
      { query: "deploy", cursor: "mcur_forged.0000000000000000" },
      "INVALID_ARGUMENT",
    );
    await expectError("pi_session_find", { session_id: "not-a-uuid" }, "INVALID_ARGUMENT");
    await expectError(
      "pi_session_read",
      { session_ref: "../../etc/passwd" },
      "INVALID_SESSION_REF",
    );
    await expectError("pi_session_read", { session_ref: "/etc/passwd" }, "INVALID_SESSION_REF");
    await expectError("pi_session_read", { session_ref: "sref_\u0000" }, "INVALID_SESSION_REF");
    const ref: string = hit.session_ref;
    for (let i = 5; i < ref.length; i++) {
      const flipped = ref.slice(0, i) + (ref[i] === "0" ? "1" : "0") + ref.slice(i + 1);
      const result = await call("pi_session_read", { session_ref: flipped });
      expect(result.s.error.code).toBe("INVALID_SESSION_REF");
    }
    // A stale read cursor: the file grows between pages.
    const page = await call("pi_session_read", { session_ref: ref, max_chars: 100 });
    const file = sessionFiles().find((f) => f.includes(hit.session_id))!;
    appendFileSync(
      file,
      JSON.stringify({
        type: "custom",
        id: "zz999999",
        parentId: null,
        timestamp: new Date().toISOString(),
      }) + "\n",
    );
    await expectError("pi_session_read", page.s.next_call.arguments, "STALE_CURSOR");
    // Replaced by another file (a new inode) with the same content.
    copyFileSync(file, `${file}.tmp`);
    renameSync(`${file}.tmp`, file);
    await expectError("pi_session_read", { session_ref: ref }, "SESSION_REPLACED");
    // Over 64 MiB.
    const fresh = (await call("pi_session_find", { session_id: hit.session_id })).s.results[0];
    truncateSync(file, 65 * 1024 * 1024);
    await expectError("pi_session_read", { session_ref: fresh.session_ref }, "FILE_TOO_LARGE");
    // Gone.
    rmSync(file);
    await expectError(
      "pi_session_context",
      { session_ref: fresh.session_ref, question: "deploy" },
      "SESSION_NOT_FOUND",
    );
  });

  it("says project scope is unavailable without a project folder, and scopes to one with it", async () => {
    await client.close();
    client = await connect([]);
    const result = await call("pi_session_search", { query: "deploy" });
    expect(result.s.error.code).toBe("PROJECT_SCOPE_UNAVAILABLE");
    expect(result.s.error.recovery).toMatch(/scope: "all"/);
    await client.close();
    client = await connect(["--project-dir", "/home/dev/blog"]);
    const project = await call("pi_session_list", {});
    const all = await call("pi_session_list", { scope: "all" });
    expect(project.s.scope).toBe("project");
    expect(project.s.results.length).toBe(3);
    expect(all.s.results.length).toBeGreaterThan(3);
    const none = await call("pi_session_search", { query: "kubectl" });
    if (none.s.results.length === 0) expect(none.s.next_action).toMatch(/scope: "all"/);
  });

  it("refuses a stale search cursor when the results before it changed", async () => {
    const first = await call("pi_session_list", { limit: 1 });
    const victim = sessionFiles().find((f) => f.includes(first.s.results[0].session_id))!;
    rmSync(victim);
    const next = await call("pi_session_list", { limit: 1, cursor: first.s.next_cursor });
    expect(next.s.error.code).toBe("STALE_CURSOR");
  });

  it("refuses symlinked and hard-linked session files", async () => {
    const outside = join(agent.root, "outside.jsonl");
    const [first, second] = (await call("pi_session_search", { query: "deploy" })).s.results;
    // A session file replaced by a symlink to a copy outside the sessions folder.
    const linked = sessionFiles().find((f) => f.includes(first.session_id))!;
    copyFileSync(linked, outside);
    rmSync(linked);
    symlinkSync(outside, linked);
    const viaLink = await call("pi_session_read", { session_ref: first.session_ref });
    expect(viaLink.isError).toBe(true);
    expect(["INVALID_SESSION_REF", "SESSION_REPLACED"]).toContain(viaLink.s.error.code);
    expect(viaLink.text).not.toContain(agent.root);
    const again = await call("pi_session_find", { session_id: first.session_id });
    expect(again.s.results).toEqual([]);
    expect(again.s.skipped_sessions).toBe(1);
    // A session file with a second (hard) link elsewhere.
    const hard = sessionFiles().find((f) => f.includes(second.session_id))!;
    linkSync(hard, join(agent.root, "hard.jsonl"));
    const viaHardLink = await call("pi_session_read", { session_ref: second.session_ref });
    expect(viaHardLink.s.error.code).toBe("INVALID_SESSION_REF");
  });

  it("serves the conversation resource and the prompt", async () => {
    const hit = (await call("pi_session_search", { query: "deploy" })).s.results[0];
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain(
      "pi-session://sessions/{session_ref}/conversation",
    );
    const resource = await client.readResource({ uri: hit.resource_uri });
    expect((resource.contents[0] as { text: string }).text).toMatch(/has_more: (true|false)/);
    const prompt = await client.getPrompt({
      name: "recall-prior-decision",
      arguments: { session_ref: hit.session_ref, question: "why kubectl?" },
    });
    expect(JSON.stringify(prompt.messages)).toMatch(/pi_session_context/);
  });

  it("sends progress during a sync when given a progress token, and survives a cancelled call", async () => {
    const [file] = sessionFiles();
    copyFileSync(file!, file!.replace(/_([0-9a-f]{8})/, "_0000beef"));
    progress.take();
    // A progress token is sent only with an onprogress handler.
    const result = await client.callTool(
      { name: "pi_session_search", arguments: { query: "deploy" } },
      { onprogress: () => {} },
    );
    expect(result.isError).toBeFalsy();
    expect(progress.take().length).toBeGreaterThan(0);
    const stop = new AbortController();
    const cancelled = client.callTool(
      { name: "pi_session_search", arguments: { query: "deploy" } },
      { signal: stop.signal },
    );
    stop.abort();
    await expect(cancelled).rejects.toThrow();
    expect((await call("pi_session_search", { query: "deploy" })).isError).toBe(false);
  });

  it("writes nothing but JSON-RPC to stdout", async () => {
    const child = spawn(process.execPath, [BIN, "--default-scope", "all"], {
      env: agent.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    const send = (message: unknown) => child.stdin.write(JSON.stringify(message) + "\n");
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "raw", version: "1" },
      },
    });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "pi_session_search", arguments: { query: "deploy" } },
    });
    send({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "pi_session_read", arguments: { session_ref: "../../x" } },
    });
    await new Promise<void>((resolve) => {
      const check = () =>
        out.split("\n").filter(Boolean).length >= 3 ? resolve() : setTimeout(check, 50);
      check();
    });
    child.stdin.end();
    await new Promise((resolve) => child.on("close", resolve));
    const lines = out.split("\n").filter((line) => line.length > 0);
    expect(out.endsWith("\n")).toBe(true);
    for (const line of lines) expect(JSON.parse(line).jsonrpc).toBe("2.0");
    expect(lines.map((l) => JSON.parse(l).id).sort()).toEqual([1, 2, 3]);
  });
});
