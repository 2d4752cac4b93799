/**
 * The MCP server's safety model, beyond mcp-server.test.ts: symlinks inside the sessions folder,
 * what the process touches on the file system while it refuses forged and path-like references
 * (seen with strace, on the real server process), an index that cannot be opened
 * (STORAGE_UNAVAILABLE), and the opt-in tag tool (--allow-tagging), which never writes a session.
 */
import { createHash } from "node:crypto";
import {
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeAgentDir, type AgentDir } from "./helpers/agent-dir.js";
import { skipWithout } from "./helpers/tools.js";

const BIN = new URL("../bin/recall-mcp.cjs", import.meta.url).pathname;
const WITHOUT_STRACE = skipWithout("strace");

let agent: AgentDir;
let client: Client;
let stderr: string;

async function connect(
  args: string[] = [],
  command: { command: string; args: string[] } = { command: process.execPath, args: [BIN] },
): Promise<Client> {
  const transport = new StdioClientTransport({
    command: command.command,
    args: [...command.args, "--default-scope", "all", ...args],
    env: agent.env as Record<string, string>,
    stderr: "pipe",
  });
  stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const connected = new Client({ name: "recall-safety-test", version: "1.0.0" });
  await connected.connect(transport);
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

const digest = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

beforeEach(() => {
  agent = makeAgentDir();
});
afterEach(async () => {
  await client?.close();
  agent.cleanup();
});

describe("recall mcp safety", () => {
  it("refuses a session file that is a symlink to another session inside the sessions folder", async () => {
    client = await connect();
    const [first] = (await call("pi_session_search", { query: "deploy" })).s.results;
    const file = sessionFiles().find((f) => f.includes(first.session_id))!;
    // The session's file becomes a link to its own copy, kept inside the sessions folder (one level
    // deeper than session files are looked for, so the link is the only way to it).
    const stash = join(agent.sessionsDir, "stash", "deeper");
    mkdirSync(stash, { recursive: true });
    const inside = join(stash, "kept.jsonl");
    copyFileSync(file, inside);
    rmSync(file);
    symlinkSync(inside, file);
    const read = await call("pi_session_read", { session_ref: first.session_ref });
    expect(read.isError).toBe(true);
    expect(["INVALID_SESSION_REF", "SESSION_REPLACED"]).toContain(read.s.error.code);
    expect(read.text).not.toContain(agent.root);
    const context = await call("pi_session_context", {
      session_ref: first.session_ref,
      question: "deploy",
    });
    expect(context.isError).toBe(true);
    // Searched again, the linked session gets no reference: it is counted as skipped.
    const again = await call("pi_session_find", { session_id: first.session_id });
    expect(again.s.results).toEqual([]);
    expect(again.s.skipped_sessions).toBe(1);
  });

  it("offers the real file, not the link, when a session is moved to another folder and linked from its old place", async () => {
    client = await connect();
    const [first] = (await call("pi_session_search", { query: "deploy" })).s.results;
    const file = sessionFiles().find((f) => f.includes(first.session_id))!;
    // Moved into another project folder of the sessions folder (where sessions are looked for).
    const moved = join(agent.sessionsDir, "--elsewhere--", file.split("/").at(-1)!);
    mkdirSync(join(agent.sessionsDir, "--elsewhere--"));
    copyFileSync(file, moved);
    rmSync(file);
    symlinkSync(moved, file);
    expect((await call("pi_session_read", { session_ref: first.session_ref })).isError).toBe(true);
    const again = await call("pi_session_find", { session_id: first.session_id });
    expect(again.s.results).toHaveLength(1);
    expect(again.s.results[0].session_ref).not.toBe(first.session_ref);
    const read = await call("pi_session_read", { session_ref: again.s.results[0].session_ref });
    expect(read.isError).toBe(false);
    expect(read.s.total_messages).toBeGreaterThan(0);
  });

  it.skipIf(WITHOUT_STRACE !== "")(
    `opens nothing outside the sessions folder while refusing forged and path-like refs${WITHOUT_STRACE}`,
    async () => {
      const log = join(agent.root, "strace.log");
      // Every file-related system call of the server and its threads, with a wall-clock time.
      client = await connect([], {
        command: "strace",
        args: ["-f", "-ttt", "-e", "trace=%file", "-o", log, process.execPath, BIN],
      });
      const [hit] = (await call("pi_session_search", { query: "deploy" })).s.results;
      const page = await call("pi_session_read", { session_ref: hit.session_ref, max_chars: 100 });
      const canary = join(agent.root, "canary-outside.jsonl");
      writeFileSync(canary, "{}\n");
      const ref: string = hit.session_ref;
      const cursor: string = page.s.next_cursor;
      const forged = [
        "../../etc/passwd",
        "/etc/passwd",
        canary,
        `../${"../".repeat(8)}${canary}`,
        "sref_\u0000/etc/passwd",
        `sref_${Buffer.from(canary).toString("hex")}`,
        ref.slice(0, -4),
        ...Array.from({ length: 12 }, (_, k) => {
          const i = 5 + Math.floor((k * (ref.length - 6)) / 11);
          return ref.slice(0, i) + (ref[i] === "a" ? "b" : "a") + ref.slice(i + 1);
        }),
      ];
      const start = Date.now() / 1000;
      for (const bad of forged) {
        for (const tool of ["pi_session_read", "pi_session_context"]) {
          const result = await call(
            tool,
            tool === "pi_session_read"
              ? { session_ref: bad }
              : { session_ref: bad, question: "deploy" },
          );
          expect(result.s.error.code).toBe("INVALID_SESSION_REF");
          expect(result.text).not.toContain(agent.root);
          expect(result.text).not.toContain("/etc");
        }
      }
      const badCursors = [
        cursor.slice(0, -3),
        cursor.replace(/\.[0-9a-f]+$/, ".0000000000000000"),
        `mcur_${Buffer.from(canary).toString("base64url")}`,
        "../../etc/passwd",
      ];
      for (const bad of badCursors) {
        const result = await call("pi_session_read", { session_ref: ref, cursor: bad });
        expect(result.isError).toBe(true);
        expect(result.s.error.code).toMatch(/^(INVALID_ARGUMENT|STALE_CURSOR)$/);
      }
      const end = Date.now() / 1000;
      await client.close();
      const calls = readFileSync(log, "utf8")
        .split("\n")
        .map((line) => /^\d+ +(\d+\.\d+) (\w+)\((.*)$/.exec(line))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => ({ time: Number(m[1]), call: m[2]!, args: m[3]! }));
      // strace saw the server at work (it read the session while paging), so it would see an
      // access.
      expect(calls.some((c) => c.args.includes(agent.sessionsDir))).toBe(true);
      // The canary, outside the sessions folder, was never touched in the whole life of the
      // process…
      expect(
        calls.filter((c) => c.args.includes("canary") || c.args.includes("/etc/passwd")),
      ).toEqual([]);
      // …and while the forged refs and cursors were refused, nothing outside the sessions folder
      // was (no file system call names any other path; today there is none at all in that time).
      const during = calls.filter((c) => c.time >= start && c.time <= end);
      const paths = during.flatMap((c) => [...c.args.matchAll(/"([^"]*)"/g)].map((m) => m[1]!));
      expect(paths.filter((p) => !p.startsWith(`${agent.sessionsDir}/`))).toEqual([]);
    },
  );

  it("answers STORAGE_UNAVAILABLE when the index cannot be opened, and says nothing of paths", async () => {
    // Where recall's cache folder goes, a plain file: the index can be neither opened nor made.
    mkdirSync(join(agent.agentDir, "cache"));
    writeFileSync(join(agent.agentDir, "cache", "recall"), "not a folder");
    client = await connect();
    const result = await call("pi_session_search", { query: "deploy" });
    expect(result.isError).toBe(true);
    expect(result.s.error.code).toBe("STORAGE_UNAVAILABLE");
    expect(result.s.error.recovery).toMatch(/retry/);
    expect(result.text).not.toContain(agent.root);
    expect(stderr).not.toContain(agent.root);
  });

  it("tags only with --allow-tagging, never writing a session file", async () => {
    client = await connect();
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain("pi_session_tag");
    await client.close();
    client = await connect(["--allow-tagging"]);
    const tool = (await client.listTools()).tools.find((t) => t.name === "pi_session_tag")!;
    expect(tool.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(tool.outputSchema).toBeDefined();
    const [hit] = (await call("pi_session_search", { query: "deploy" })).s.results;
    const file = sessionFiles().find((f) => f.includes(hit.session_id))!;
    const before = digest(file);
    const added = await call("pi_session_tag", {
      session_ref: hit.session_ref,
      add: ["Needs Review", "#k8s"],
    });
    expect(added.isError).toBe(false);
    expect(added.s.tags).toEqual(["k8s", "needs-review"]);
    const tagged = await call("pi_session_search", { query: "#needs-review" });
    expect(tagged.s.results.map((r: Structured) => r.session_ref)).toEqual([hit.session_ref]);
    const removed = await call("pi_session_tag", { session_ref: hit.session_ref, remove: ["k8s"] });
    expect(removed.s.tags).toEqual(["needs-review"]);
    const bad = await call("pi_session_tag", { session_ref: hit.session_ref, add: ["###"] });
    expect(bad.s.error.code).toBe("INVALID_ARGUMENT");
    const forged = await call("pi_session_tag", { session_ref: "../../etc/passwd", add: ["x"] });
    expect(forged.s.error.code).toBe("INVALID_SESSION_REF");
    expect(digest(file)).toBe(before);
  });
});
