/**
 * Work a long-lived host (Pi, the MCP server) keeps off its main thread: `Recall.open({
 * background: true })`. Searching and listing are native calls that already run on libuv's pool;
 * syncing the index, reading a session file, finding the part of one that bears on a question and
 * counting the work (stats) are not, because they parse JSONL in JavaScript (a first index of a
 * large history takes seconds, a question about a 2 MB session ~60 ms). Those run in a worker
 * thread (background-worker.mjs), started on first use and stopped by `Recall.close()`.
 *
 * Where a worker cannot run the library (no jiti and no compiled dist/, or a runtime without
 * worker threads), the same calls run inline: slower to the eye, never wrong.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { RecallError, type RecallErrorCode } from "../errors.js";
import type { ContextOptions, ContextResult } from "./context.js";
import type { ReadOptions, ReadResult } from "./read.js";
import type { Stats, StatsOptions } from "./stats.js";
import type { SessionRef } from "./resolve-session.js";
import type { SyncProgress, SyncReport } from "../sync/sync.js";

/** Location overrides that can cross to a thread: plain data only. */
export interface PlainOverrides {
  sessionsDir?: string;
  env?: Record<string, string | undefined>;
  cwd?: string;
}

export type Job =
  | {
      type: "sync";
      overrides: PlainOverrides;
      options: { rebuild?: boolean; lockTimeoutMs?: number };
    }
  | { type: "read"; ref: SessionRef; options: ReadOptions }
  | { type: "context"; ref: SessionRef; question: string; options: ContextOptions }
  | { type: "stats"; overrides: PlainOverrides; options: StatsOptions };

export interface JobRunner {
  sync(
    overrides: PlainOverrides,
    options: { rebuild?: boolean; lockTimeoutMs?: number },
    onProgress?: (p: SyncProgress) => void,
  ): Promise<SyncReport>;
  read(ref: SessionRef, options: ReadOptions): Promise<ReadResult>;
  context(ref: SessionRef, question: string, options: ContextOptions): Promise<ContextResult>;
  stats(overrides: PlainOverrides, options: StatsOptions): Promise<Stats>;
  dispose(): void;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  onProgress?: (p: SyncProgress) => void;
  job: Job;
}

interface WireError {
  code?: RecallErrorCode;
  message: string;
  field?: string;
  value?: string;
  hint?: string;
  fatal: boolean;
}

/**
 * The worker's script and the library it runs, for this module at `moduleUrl`: in the sources
 * (src/api, the TypeScript library through jiti, or else its build) or the compiled library
 * (dist/api) they are beside it; in a bundle of the CLI, the MCP server or `serve` (dist/bundle),
 * they are the compiled library's, in dist/api.
 */
export function workerFiles(moduleUrl: string): {
  workerFile: string;
  libraryTs: string | undefined;
  libraryJs: string;
} {
  const here = fileURLToPath(moduleUrl);
  const beside = /background-jobs\.[cm]?[jt]s$/.test(here);
  return {
    workerFile: fileURLToPath(
      new URL(beside ? "./background-worker.mjs" : "../api/background-worker.mjs", moduleUrl),
    ),
    libraryTs:
      here.endsWith(".ts") && beside
        ? here.replace(/background-jobs\.ts$/, "background-library.ts")
        : undefined,
    libraryJs: fileURLToPath(new URL("../../dist/api/background-library.js", moduleUrl)),
  };
}

/**
 * Where the worker can find jiti: next to recall (a development install) or next to the running Pi.
 */
function findJiti(): string | undefined {
  const bases = [import.meta.url, process.argv[1]].filter(
    (b): b is string => typeof b === "string" && b.length > 0,
  );
  for (const base of bases) {
    try {
      return createRequire(base).resolve("jiti");
    } catch {
      // not there; try the next place
    }
  }
  return undefined;
}

function toError(wire: WireError): RecallError {
  return new RecallError(wire.code ?? "INTERNAL", wire.message, {
    field: wire.field,
    value: wire.value,
    hint: wire.hint,
  });
}

export class WorkerJobs implements JobRunner {
  private worker: Worker | undefined;
  /** A disposed worker still finishing its jobs. */
  private closing: Worker | undefined;
  private broken = false;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly inline: JobRunner) {}

  sync(
    overrides: PlainOverrides,
    options: { rebuild?: boolean; lockTimeoutMs?: number },
    onProgress?: (p: SyncProgress) => void,
  ): Promise<SyncReport> {
    return this.post({ type: "sync", overrides, options }, onProgress) as Promise<SyncReport>;
  }

  read(ref: SessionRef, options: ReadOptions): Promise<ReadResult> {
    return this.post({ type: "read", ref, options }) as Promise<ReadResult>;
  }

  context(ref: SessionRef, question: string, options: ContextOptions): Promise<ContextResult> {
    return this.post({ type: "context", ref, question, options }) as Promise<ContextResult>;
  }

  stats(overrides: PlainOverrides, options: StatsOptions): Promise<Stats> {
    return this.post({ type: "stats", overrides, options }) as Promise<Stats>;
  }

  /**
   * Stops the thread once the jobs it runs have finished: a sync stopped halfway would only be
   * redone by the next one, but it would hold the index's writer lock until the thread is gone.
   * Jobs asked for after this run inline.
   */
  dispose(): void {
    this.broken = true;
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    if (this.pending.size === 0) stop(worker);
    else this.closing = worker;
  }

  /** Whether jobs go to a worker thread (false once it failed to load the library). */
  get threaded(): boolean {
    return !this.broken;
  }

  private runInline(pending: Pending): void {
    const { job } = pending;
    const run = (): Promise<unknown> => {
      switch (job.type) {
        case "sync":
          return this.inline.sync(job.overrides, job.options, pending.onProgress);
        case "read":
          return this.inline.read(job.ref, job.options);
        case "context":
          return this.inline.context(job.ref, job.question, job.options);
        case "stats":
          return this.inline.stats(job.overrides, job.options);
      }
    };
    run().then(pending.resolve, pending.reject);
  }

  private post(job: Job, onProgress?: (p: SyncProgress) => void): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const pending: Pending = { resolve, reject, onProgress, job };
      const worker = this.broken ? undefined : this.start();
      if (!worker) {
        this.runInline(pending);
        return;
      }
      const id = this.nextId++;
      this.pending.set(id, pending);
      // Keep Pi alive while a job runs (print mode exits when nothing else is pending), not after.
      worker.ref();
      worker.postMessage({ id, job });
    });
  }

  private start(): Worker | undefined {
    if (this.worker) return this.worker;
    const { workerFile, libraryTs, libraryJs } = workerFiles(import.meta.url);
    if (!existsSync(workerFile)) {
      this.broken = true;
      return undefined;
    }
    let worker: Worker;
    try {
      worker = new Worker(workerFile, {
        workerData: {
          jitiPath: libraryTs !== undefined && existsSync(libraryTs) ? findJiti() : undefined,
          libraryTs,
          libraryJs,
        },
      });
    } catch {
      this.broken = true;
      return undefined;
    }
    worker.unref();
    worker.on(
      "message",
      (message: {
        id: number;
        ok?: boolean;
        result?: unknown;
        error?: WireError;
        progress?: SyncProgress;
      }) => {
        const pending = this.pending.get(message.id);
        if (!pending) return;
        if (message.progress) {
          pending.onProgress?.(message.progress);
          return;
        }
        this.pending.delete(message.id);
        if (this.pending.size === 0) {
          worker.unref();
          if (this.closing === worker) {
            this.closing = undefined;
            stop(worker);
          }
        }
        if (message.ok) pending.resolve(message.result);
        else if (message.error?.fatal) {
          // The thread cannot run the library: from now on, everything runs inline.
          this.broken = true;
          this.runInline(pending);
        } else
          pending.reject(
            toError(
              message.error ?? { message: "unknown error in the background thread", fatal: false },
            ),
          );
      },
    );
    const fail = () => {
      if (this.worker !== worker && this.closing !== worker) return;
      if (this.worker === worker) this.worker = undefined;
      if (this.closing === worker) this.closing = undefined;
      this.broken = true;
      for (const [id, pending] of this.pending) {
        this.pending.delete(id);
        this.runInline(pending);
      }
    };
    worker.on("error", fail);
    worker.on("exit", fail);
    this.worker = worker;
    return worker;
  }
}

/** Ends a worker thread; one that cannot be ended is gone already. */
function stop(worker: Worker): void {
  worker.terminate().catch(() => undefined);
}
