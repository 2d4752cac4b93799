/**
 * An agent directory whose recall cache is on a tmpfs of its own, for file system faults (a
 * read-only mount, a full disk). Mounting needs root: `isRoot` says whether the tests can run.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { makeAgentDir, type AgentDir } from "./agent-dir.js";
import { runRecall, type CliResult } from "./run-cli.js";

export const isRoot = process.getuid?.() === 0;

export interface TmpfsCache {
  agent: AgentDir;
  mountPoint: string;
  /** recall's cache folder, on the tmpfs. */
  cacheDir: string;
  recall(args: string[]): Promise<CliResult>;
  /** Unmounts the tmpfs and removes the agent directory. */
  cleanup(): void;
}

export function makeTmpfsCache(size: string): TmpfsCache {
  const agent = makeAgentDir();
  const mountPoint = join(agent.root, "cache-mount");
  mkdirSync(mountPoint);
  execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", mountPoint]);
  const cacheDir = join(mountPoint, "cache");
  return {
    agent,
    mountPoint,
    cacheDir,
    recall: (args) => runRecall(args, { env: { ...agent.env, RECALL_CACHE_DIR: cacheDir } }),
    cleanup: () => {
      // Lazily: a Recall opened in this process keeps the index's files mapped until it is
      // collected.
      execFileSync("umount", ["--lazy", mountPoint]);
      agent.cleanup();
    },
  };
}
