/**
 * Asking one of the user's Pi models a question from outside Pi: through the user's own `pi`
 * (found on PATH, or at `RECALL_PI`), so its model registry, credentials and OAuth logins apply and
 * recall never imports Pi. Everything in Pi that could act or load is turned off (no tools,
 * extensions, skills, templates, context files, MCP, themes, no session file), and Pi runs in an
 * empty temporary folder, because it adds its working folder to the system prompt.
 *
 * - `askOnce`: one `pi --mode json -p` process for one answer, the whole prompt on stdin (Pi
 *   prepends stdin to a prompt argument with no separator, so none is given); its events say which
 *   model answered, also when Pi chose it.
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

export interface ModelAnswer {
  text: string;
  /** The model that answered, `provider/id`: the one asked, or the one Pi chose. */
  model: string;
}

export interface ModelCaller {
  /** The model asked, `provider/id`; undefined for Pi's default. */
  readonly model: string | undefined;
  answer(question: ModelQuestion, signal?: AbortSignal): Promise<ModelAnswer>;
  close(): Promise<void>;
}

/** Loaded on first use: child_process loads net, which a `recall search` never needs. */
function spawn(
  ...args: Parameters<typeof import("node:child_process").spawn>
): ChildProcessWithoutNullStreams {
  const childProcess = createRequire(import.meta.url)(
    "node:child_process",
  ) as typeof import("node:child_process");
  return childProcess.spawn(...args) as ChildProcessWithoutNullStreams;
}

const QUIET = [
  "--no-session",
  "--no-tools",
  "--no-extensions",
  "--no-skills",
  "--no-prompt-templates",
  "--no-context-files",
  "--no-mcp",
  "--no-themes",
];

function piPath(env: NodeJS.ProcessEnv): string {
  return env.RECALL_PI || "pi";
}

function piArgs(mode: string[], model: string | undefined, system: string): string[] {
  return [...mode, ...QUIET, ...(model ? ["--model", model] : []), "--system-prompt", system];
}

function notStarted(error: NodeJS.ErrnoException, env: NodeJS.ProcessEnv): RecallError {
  const where = env.RECALL_PI ? `RECALL_PI (${env.RECALL_PI})` : "pi on PATH";
  if (error.code === "ENOENT") {
    return new RecallError("MODEL_UNAVAILABLE", `cannot run ${where}: not found`, {
      hint: "install Pi (npm install -g @earendil-works/pi-coding-agent), or set RECALL_PI to the pi to use",
    });
  }
  return new RecallError(
    "MODEL_UNAVAILABLE",
    `cannot run ${where}: ${error.code ?? error.message}`,
  );
}

/** What Pi says when the model named is unknown, it has none, or no credentials for it. */
const UNAVAILABLE =
  /\bmodel\b.*\bnot found\b|\bno models available\b|\bno api key\b|\bcredentials?\b|\bnot (logged in|authenticated)\b/i;

/**
 * Pi's own words in what it wrote: its error line if it has one, else its lines (each said once)
 * without the paths it lists under them ("See:" and indented lines), and without its
 * "Warning:"/"Error:" labels. Pi with no model, say, writes a warning and an error, each with the
 * same advice and paths: "No models available. Use /login to log into a provider via OAuth or API
 * key. No API key found for the selected model."
 */
function piSaid(text: string): string {
  const lines = text
    .split("\n")
    .filter((line) => line.trim() && !/^\s/.test(line))
    .map((line) => line.trim().replace(/\s*See:$/, ""));
  const error = lines.find((line) => /^error\b/i.test(line));
  if (error) return error.replace(/^error:?\s*/i, "").slice(0, 300);
  const said: string[] = [];
  for (const line of lines.map((l) => l.replace(/^warning:?\s*/i, "")))
    if (!said.some((earlier) => earlier.includes(line))) said.push(line);
  return said.join(" ").slice(0, 300);
}

/**
 * A failure Pi reported: no model to ask at all (every other request would fail alike), or this
 * request failed.
 */
function piFailure(said: string): RecallError {
  return new RecallError(
    UNAVAILABLE.test(said) ? "MODEL_UNAVAILABLE" : "MODEL_FAILED",
    `pi: ${said}`,
  );
}

/** What Pi said when it failed. */
function failure(stderr: string, status: number | null): RecallError {
  // Pi on a Node older than it needs does not get as far as saying so: its first import fails.
  const node = /^Node\.js v(\d+)\.(\d+)/m.exec(stderr);
  if (
    node &&
    /SyntaxError|ERR_REQUIRE|does not provide an export/.test(stderr) &&
    (Number(node[1]) < 22 || (Number(node[1]) === 22 && Number(node[2]) < 19))
  ) {
    return new RecallError(
      "MODEL_UNAVAILABLE",
      `pi cannot run on Node ${node[1]}.${node[2]}: it needs Node 22.19 or later`,
      {
        hint: "give pi a newer Node, or set RECALL_PI to a pi that has one",
      },
    );
  }
  const said = piSaid(stderr);
  return said
    ? piFailure(said)
    : new RecallError("MODEL_FAILED", `pi exited with status ${status}`);
}

/**
 * The answer in Pi's last assistant message (a `message_end` event's), or the error Pi recorded in
 * it.
 */
function answerOf(message: Record<string, unknown> | undefined): ModelAnswer {
  if (!message || message.stopReason === "error")
    throw new RecallError(
      "MODEL_FAILED",
      `pi: ${String(message?.errorMessage ?? "the model gave no answer").slice(0, 300)}`,
    );
  return {
    text: assistantText(message),
    model: `${String(message.provider)}/${String(message.model)}`,
  };
}

/**
 * Pi's events, one JSON object a line (split on LF only: see Pi's RPC docs); other lines are
 * skipped.
 */
function events(lines: string[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const line of lines) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line.replace(/\r$/, "")) as Record<string, unknown>);
    } catch {
      // Not an event.
    }
  }
  return out;
}

/** The assistant message an event ends, if it ends one. */
function assistantEnd(event: Record<string, unknown>): Record<string, unknown> | undefined {
  const message = event.message as Record<string, unknown> | undefined;
  return event.type === "message_end" && message?.role === "assistant" ? message : undefined;
}

function aborted(): RecallError {
  return new RecallError("ABORTED", "stopped before the model answered");
}

/** An empty folder for Pi to run in, removed with `dispose`. */
function scratchFolder(): { path: string; dispose(): void } {
  const path = mkdtempSync(join(tmpdir(), "recall-model-"));
  return { path, dispose: () => rmSync(path, { recursive: true, force: true }) };
}

/** One question, one `pi --mode json -p` process. */
export async function askOnce(
  env: NodeJS.ProcessEnv,
  model: string | undefined,
  question: ModelQuestion,
  signal?: AbortSignal,
): Promise<ModelAnswer> {
  if (signal?.aborted) throw aborted();
  const folder = scratchFolder();
  try {
    return await new Promise<ModelAnswer>((resolve, reject) => {
      const child = spawn(piPath(env), piArgs(["--mode", "json", "-p"], model, question.system), {
        cwd: folder.path,
        env,
        stdio: ["pipe", "pipe", "pipe"],
      });
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
        else if (status !== 0) reject(failure(stderr, status));
        else {
          try {
            resolve(answerOf(events(stdout.split("\n")).map(assistantEnd).filter(Boolean).at(-1)));
          } catch (error) {
            reject(error);
          }
        }
      });
      child.stdin.end(question.prompt);
    });
  } finally {
    folder.dispose();
  }
}

interface Pending<T> {
  resolve(value: T): void;
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
  private readonly responses = new Map<string, Pending<void>>();
  private run:
    { pending: Pending<ModelAnswer>; last: Record<string, unknown> | undefined } | undefined;
  private exited: RecallError | undefined;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    readonly model: string | undefined,
    private readonly system: string,
  ) {}

  async answer(question: ModelQuestion, signal?: AbortSignal): Promise<ModelAnswer> {
    if (signal?.aborted) throw aborted();
    const child = this.start();
    if (this.asked++ > 0) await this.command({ type: "new_session" });
    // The system prompt is the process's; a question with other instructions prefixes them.
    const message =
      question.system === this.system
        ? question.prompt
        : `${question.system}\n\n${question.prompt}`;
    const settled = new Promise<ModelAnswer>((resolve, reject) => {
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
    const child = spawn(piPath(this.env), piArgs(["--mode", "rpc"], this.model, this.system), {
      cwd: this.folder.path,
      env: this.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
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

  private command(command: Record<string, unknown>): Promise<void> {
    const id = `r${this.nextId++}`;
    return new Promise((resolve, reject) => {
      this.responses.set(id, { resolve, reject });
      this.start().stdin.write(`${JSON.stringify({ id, ...command })}\n`);
    });
  }

  /** Pi's records, as they arrive. */
  private received(text: string): void {
    this.buffer += text;
    const end = this.buffer.lastIndexOf("\n");
    if (end === -1) return;
    const lines = this.buffer.slice(0, end).split("\n");
    this.buffer = this.buffer.slice(end + 1);
    for (const record of events(lines)) this.handle(record);
  }

  private handle(record: Record<string, unknown>): void {
    if (record.type === "response" && typeof record.id === "string") {
      const pending = this.responses.get(record.id);
      this.responses.delete(record.id);
      if (!pending) return;
      // Pi's warnings on stderr say why (no model at all, say), its error what failed.
      if (record.success === false)
        pending.reject(
          piFailure(piSaid(`${this.stderr}\n${String(record.error ?? "the request was refused")}`)),
        );
      else pending.resolve();
      return;
    }
    const run = this.run;
    if (!run) return;
    run.last = assistantEnd(record) ?? run.last;
    if (record.type !== "agent_settled") return;
    this.run = undefined;
    if (record.aborted === true) run.pending.reject(aborted());
    else {
      try {
        run.pending.resolve(answerOf(run.last));
      } catch (error) {
        run.pending.reject(error);
      }
    }
  }
}

function assistantText(message: Record<string, unknown>): string {
  const content = message.content;
  if (typeof content === "string") return content.trim();
  if (!Array.isArray(content)) return "";
  return content
    .filter(
      (block): block is { type: "text"; text: string } =>
        block?.type === "text" && typeof block.text === "string",
    )
    .map((block) => block.text)
    .join("")
    .trim();
}

/** A caller for single questions: a `pi -p` process each. */
export function printModeCaller(env: NodeJS.ProcessEnv, model: string | undefined): ModelCaller {
  return {
    model,
    answer: (question, signal) => askOnce(env, model, question, signal),
    close: async () => {},
  };
}
