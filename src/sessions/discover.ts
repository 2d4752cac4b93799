/**
 * Finds session files the way Pi does: in the default layout, `*.jsonl` files one folder below
 * the sessions directory (symlinked folders included); in a custom directory, `*.jsonl` files
 * directly inside it. Nothing deeper: subagent artifacts nested further down are not sessions.
 */
import { readdirSync, statSync, type Dirent } from "node:fs";
import { join } from "node:path";
import type { Locations } from "../locations.js";

export interface SessionFile {
  path: string;
  size: number;
  mtimeMs: number;
  /** Inode (or file id): a replaced file gets a new one. */
  ino: number;
}

export interface Discovery {
  files: SessionFile[];
  /** Folders or files that could not be read, with the reason. */
  failures: { path: string; reason: string }[];
}

function reason(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  return e.code ? `${e.code}${e.syscall ? ` (${e.syscall})` : ""}` : String(error);
}

function isDirectory(dir: string, entry: Dirent): boolean {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return statSync(join(dir, entry.name)).isDirectory();
  } catch {
    return false;
  }
}

export function discoverSessionFiles(locations: Pick<Locations, "sessionsDir" | "layout">): Discovery {
  const discovery: Discovery = { files: [], failures: [] };
  const readDir = (dir: string): Dirent[] => {
    try {
      return readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      // A missing sessions directory just means Pi has not written a session yet.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || dir !== locations.sessionsDir) {
        discovery.failures.push({ path: dir, reason: reason(error) });
      }
      return [];
    }
  };
  const addFiles = (dir: string, entries: Dirent[]) => {
    for (const entry of entries) {
      if (!entry.name.endsWith(".jsonl") || isDirectory(dir, entry)) continue;
      const path = join(dir, entry.name);
      try {
        const stat = statSync(path);
        if (stat.isFile()) discovery.files.push({ path, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino });
      } catch (error) {
        discovery.failures.push({ path, reason: reason(error) });
      }
    }
  };
  const top = readDir(locations.sessionsDir);
  if (locations.layout === "flat") {
    addFiles(locations.sessionsDir, top);
  } else {
    for (const entry of top) {
      if (!isDirectory(locations.sessionsDir, entry)) continue;
      const dir = join(locations.sessionsDir, entry.name);
      addFiles(dir, readDir(dir));
    }
  }
  discovery.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return discovery;
}
