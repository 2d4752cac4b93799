/**
 * Asking one of the user's Pi models a question from outside Pi: through the user's own `pi`
 * (found on PATH, or at `RECALL_PI`), so its model registry, credentials and OAuth logins apply and
 * recall never imports Pi. Everything in Pi that could act or load is turned off (no tools,
 * extensions, skills, templates, context files, MCP, themes, no session file), and Pi runs in an
 * empty temporary folder, because it adds its working folder to the system prompt.
 *
 * - `askOnce`: one `pi -p` process for one answer, the whole prompt on stdin (Pi prepends stdin to
 *   a prompt argument with no separator, so none is given).
 * - `PiConversation`: one `pi --mode rpc` process for a batch, a new session per question, which
 *   saves Pi's start (seconds) for every question after the first.
 */
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RecallError } from "../errors.js";

export interface ModelQuestion {
  /** Instructions: Pi's system prompt for the call. */
  system: string;
  /** The user message: the data and the question. */
  prompt: string;
}

export interface ModelCaller {
  /** The model asked, `provider/id`; undefined for Pi's default. */
  readonly model: string | undefined;
  answer(question: ModelQuestion, signal?: AbortSignal): Promise<string>;
  close(): Promise<void>;
}

/** Loaded on first use: child_process loads net, which a `recall search` never needs. */
function spawn(...args: Parameters<typeof import("node:child_process").spawn>): ChildProcessWithoutNullStreams {
  const childProcess = createRequire(import.meta.url)("node:child_process") as typeof import("node:child_process");
  return childProcess.spawn(...args) as ChildProcessWithoutNullStreams;
}

const QUIET = ["--no-session", "--no-tools", "--no-extensions", "--no-skills", "--no-prompt-templates", "--no-context-files", "--no-mcp", "--no-themes"];

function piPath(env: NodeJS.ProcessEnv): string {
  return env.RECALL_PI || "pi";
}

function piArgs(mode: string[], model: string | undefined, system: string): string[] {
  return [...mode, ...QUIET, ...(model ? ["--model", model] : []), "--system-prompt", system];
}

function notStarted(error: NodeJS.ErrnoException, env: NodeJS.ProcessEnv): RecallError {
  const where = env.RECALL_PI ? `RECALL_PI (${env.RECALL_PI})` : "pi on PATH";
  if (error.code === "ENOENT") {
    return new RecallError("MODEL_UNAVAILABLE", `cannot run ${where}: not found`, { hint: "install Pi (npm install -g @earendil-works/pi-coding-agent), or set RECALL_PI to the pi to use" });
  }
  return new RecallError("MODEL_UNAVAILABLE", `cannot run ${where}: ${error.code ?? error.message}`);
}

/** What Pi says when the model named is unknown, or it has no credentials for it. */
const UNAVAILABLE = /\bmodel\b.*\bnot found\b|\bno api key\b|\bcredentials?\b|\bnot (logged in|authenticated)\b/i;

/** What Pi said when it failed: its last line of stderr that says something. */
function failure(stderr: string, status: number | null): RecallError {
  // Pi on a Node older than it needs does not get as far as saying so: its first import fails.
  const node = /^Node\.js v(\d+)\.(\d+)/m.exec(stderr);
  if (node && /SyntaxError|ERR_REQUIRE|does not provide an export/.test(stderr) && (Number(node[1]) < 22 || (Number(node[1]) === 22 && Number(node[2]) < 19))) {
    return new RecallError("MODEL_UNAVAILABLE", `pi cannot run on Node ${node[1]}.${node[2]}: it needs Node 22.19 or later`, {
      hint: "give pi a newer Node, or set RECALL_PI to a pi that has one",
    });
  }
  const lines = stderr.split("\n").map((l) => l.trim()).filter(Boolean);
  const said = (lines.find((l) => /^error\b/i.test(l)) ?? lines.at(-1))?.replace(/^error:?\s*/i, "").slice(0, 300);
  if (!said) return new RecallError("MODEL_FAILED", `pi exited with status ${status}`);
  // No model to ask at all, rather than one request that failed: every other one would fail alike.
  if (UNAVAILABLE.test(said)) return new RecallError("MODEL_UNAVAILABLE", `pi: ${said}`);
  return new RecallError("MODEL_FAILED", `pi: ${said}`);
}

function aborted(): RecallError {
  return new RecallError("ABORTED", "stopped before the model answered");
}

/** An empty folder for Pi to run in, removed with `dispose`. */
function scratchFolder(): { path: string; dispose(): void } {
  const path = mkdtempSync(join(tmpdir(), "recall-model-"));
  return { path, dispose: () => rmSync(path, { recursive: true, force: true }) };
}

/** One question, one `pi -p` process. */
export async function askOnce(env: NodeJS.ProcessEnv, model: string | undefined, question: ModelQuestion, signal?: AbortSignal): Promise<string> {
  if (signal?.aborted) throw aborted();
  const folder = scratchFolder();
  try {
    return await new Promise<string>((resolve, reject) => {
      const child = spawn(piPath(env), piArgs(["-p"], model, question.system), { cwd: folder.path, env, stdio: ["pipe", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      const onAbort = () => child.kill("SIGTERM");
      signal?.addEventListener("abort", onAbort, { once: true });
      child.stdout.on("data", (d: Buffer) => (stdout += d.toString("utf8")));
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
      child.stdin.on("error", () => {});
      child.on("error", (error) => reject(notStarted(error, env)));
      child.on("close", (status) => {
        signal?.removeEventListener("abort", onAbort);
        if (signal?.aborted) reject(aborted());
        else if (status === 0) resolve(stdout.trim());
        else reject(failure(stderr, status));
      });
      child.stdin.end(question.prompt);
    });
  } finally {
    folder.dispose();
  }
}

interface Pending {
  resolve(text: string): void;
  reject(error: unknown): void;
}

/**
 * One `pi --mode rpc` process answering questions one at a time, each in a new session. A
 * question waits for Pi to settle (retries included); its answer is the text of the last
 * assistant message, or the error Pi reports for it.
 */
export class PiConversation implements ModelCaller {
  private child: ChildProcessWithoutNullStreams | undefined;
  private readonly folder = scratchFolder();
  private buffer = "";
  private stderr = "";
  private nextId = 1;
  private asked = 0;
  private readonly responses = new Map<string, Pending>();
  private run: { pending: Pending; last: Record<string, unknown> | undefined } | undefined;
  private exited: RecallError | undefined;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    readonly model: string | undefined,
    private readonly system: string,
  ) {}

  async answer(question: ModelQuestion, signal?: AbortSignal): Promise<string> {
    if (signal?.aborted) throw aborted();
    const child = this.start();
    if (this.asked++ > 0) await this.command({ type: "new_session" });
    // The system prompt is the process's; a question with other instructions prefixes them.
    const message = question.system === this.system ? question.prompt : `${question.system}\n\n${question.prompt}`;
    const settled = new Promise<string>((resolve, reject) => {
      this.run = { pending: { resolve, reject }, last: undefined };
    });
    const onAbort = () => void this.command({ type: "abort" }).catch(() => {});
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      await this.command({ type: "prompt", message });
      return await settled;
    } finally {
      signal?.removeEventListener("abort", onAbort);
      if (signal?.aborted && child.exitCode === null) this.run = undefined;
    }
  }

  async close(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child && child.exitCode === null) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
        child.once("close", () => {
          clearTimeout(timer);
          resolve();
        });
        child.stdin.end();
      });
    }
    this.folder.dispose();
  }

  private start(): ChildProcessWithoutNullStreams {
    if (this.exited) throw this.exited;
    if (this.child) return this.child;
    const child = spawn(piPath(this.env), piArgs(["--mode", "rpc"], this.model, this.system), { cwd: this.folder.path, env: this.env, stdio: ["pipe", "pipe", "pipe"] });
    child.stdout.on("data", (d: Buffer) => this.received(d.toString("utf8")));
    child.stderr.on("data", (d: Buffer) => (this.stderr += d.toString("utf8")));
    child.stdin.on("error", () => {});
    const end = (error: RecallError) => {
      this.exited = error;
      for (const pending of this.responses.values()) pending.reject(error);
      this.responses.clear();
      this.run?.pending.reject(error);
      this.run = undefined;
    };
    child.on("error", (error) => end(notStarted(error, this.env)));
    child.on("close", (status) => end(failure(this.stderr, status)));
    this.child = child;
    return child;
  }

  private command(command: Record<string, unknown>): Promise<string> {
    const id = `r${this.nextId++}`;
    return new Promise((resolve, reject) => {
      this.responses.set(id, { resolve, reject });
      this.start().stdin.write(`${JSON.stringify({ id, ...command })}\n`);
    });
  }

  /** Pi's records, one JSON object a line (split on LF only: see Pi's RPC docs). */
  private received(text: string): void {
    this.buffer += text;
    for (let end = this.buffer.indexOf("\n"); end !== -1; end = this.buffer.indexOf("\n")) {
      const line = this.buffer.slice(0, end).replace(/\r$/, "");
      this.buffer = this.buffer.slice(end + 1);
      if (!line.trim()) continue;
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(line) as Record<string, unknown>;
      } catch {
        continue;
      }
      this.handle(record);
    }
  }

  private handle(record: Record<string, unknown>): void {
    if (record.type === "response" && typeof record.id === "string") {
      const pending = this.responses.get(record.id);
      this.responses.delete(record.id);
      if (!pending) return;
      if (record.success === false) pending.reject(new RecallError("MODEL_FAILED", `pi: ${String(record.error ?? "the request was refused")}`));
      else pending.resolve("");
      return;
    }
    const run = this.run;
    if (!run) return;
    const message = record.message as Record<string, unknown> | undefined;
    if (record.type === "message_end" && message?.role === "assistant") run.last = message;
    if (record.type !== "agent_settled") return;
    this.run = undefined;
    if (record.aborted === true) run.pending.reject(aborted());
    else if (!run.last || run.last.stopReason === "error") run.pending.reject(new RecallError("MODEL_FAILED", `pi: ${String(run.last?.errorMessage ?? "the model gave no answer").slice(0, 300)}`));
    else run.pending.resolve(assistantText(run.last));
  }
}

function assistantText(message: Record<string, unknown>): string {
  const content = message.content;
  if (typeof content === "string") return content.trim();
  if (!Array.isArray(content)) return "";
  return content
    .filter((block): block is { type: "text"; text: string } => block?.type === "text" && typeof block.text === "string")
    .map((block) => block.text)
    .join("")
    .trim();
}

/** A caller for single questions: a `pi -p` process each. */
export function printModeCaller(env: NodeJS.ProcessEnv, model: string | undefined): ModelCaller {
  return { model, answer: (question, signal) => askOnce(env, model, question, signal), close: async () => {} };
}
