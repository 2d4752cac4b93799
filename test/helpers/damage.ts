/**
 * Damage to a file as a failing disk, a stray write or a careless hand does it: bytes overwritten
 * in place (the size unchanged, from a fixed seed so that a failure can be replayed), the file
 * cut in half, emptied or deleted.
 */
import {
  closeSync,
  cpSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  utimesSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";

/** A small deterministic generator (mulberry32): the same seed gives the same damage. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/**
 * Overwrites `runs` runs of 8 random bytes at random places in `path`. `keepTime`: the file's
 * modification time is set back, as for damage that no write made (a failing disk).
 */
export function damageFile(
  path: string,
  seed: number,
  options: { runs?: number; keepTime?: boolean } = {},
): void {
  const random = seededRandom(seed);
  const { size, atime, mtime } = statSync(path);
  const fd = openSync(path, "r+");
  try {
    for (let run = 0; run < (options.runs ?? 4); run++) {
      const bytes = Buffer.from(Array.from({ length: 8 }, () => Math.floor(random() * 256)));
      writeSync(fd, bytes, 0, Math.min(8, size), Math.floor(random() * Math.max(1, size - 8)));
    }
  } finally {
    closeSync(fd);
  }
  if (options.keepTime) utimesSync(path, atime, mtime);
}

/** The index's segment files with this extension (`idx`, `term`…), largest first. */
export function segmentFiles(indexDir: string, extension: string): string[] {
  return readdirSync(indexDir)
    .filter((name) => name.endsWith(`.${extension}`))
    .map((name) => join(indexDir, name))
    .sort((a, b) => statSync(b).size - statSync(a).size);
}

/** The ways a file is damaged: bytes overwritten in place, cut in half, emptied, deleted. */
export const DAMAGE_KINDS = ["garble", "halve", "empty", "delete"] as const;
export type DamageKind = (typeof DAMAGE_KINDS)[number];

/**
 * Damages `path` the way `kind` says (`garble` with `seed`, as damageFile). `keepTime`: the
 * file's times are set back afterwards (for all but `delete`).
 */
export function damage(
  path: string,
  kind: DamageKind,
  options: { seed?: number; keepTime?: boolean } = {},
): void {
  const { size, atime, mtime } = statSync(path);
  switch (kind) {
    case "garble":
      damageFile(path, options.seed ?? 1);
      break;
    case "halve":
      truncateSync(path, Math.floor(size / 2));
      break;
    case "empty":
      truncateSync(path, 0);
      break;
    case "delete":
      rmSync(path);
      return;
  }
  if (options.keepTime) utimesSync(path, atime, mtime);
}

/** A copy of an agent folder's cache, put back in place of the cache before each trial. */
export interface CleanCache {
  /** The cache folder (`<agentDir>/cache/recall`). */
  dir: string;
  /** Puts the copy back in place of the cache as it is now. */
  restore(): void;
}

/** Copies the cache of `agentDir` aside, as it is now, into `root`. */
export function keepCleanCache(agentDir: string, root: string): CleanCache {
  const dir = join(agentDir, "cache", "recall");
  const copy = join(root, "clean-cache");
  cpSync(dir, copy, { recursive: true });
  return {
    dir,
    restore: () => {
      rmSync(dir, { recursive: true, force: true });
      cpSync(copy, dir, { recursive: true });
    },
  };
}
