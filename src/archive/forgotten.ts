/**
 * What the user told a remote to forget (`recall push --forget`, `--forget-project`): sessions by
 * id and projects by identity, never pushed to it again. Kept beside the remote's watermarks in
 * `<cache>/archive/`, written whole and renamed; deleting it lets a push send them again.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export interface Forgotten {
  sessions: Set<string>;
  projects: Set<string>;
}

/** The file of a remote's forgotten sessions, beside its watermark file. */
export function forgottenFile(watermarkFile: string): string {
  return watermarkFile.replace(/\.json$/, ".forgotten.json");
}

export function loadForgotten(path: string): Forgotten {
  try {
    const saved = JSON.parse(readFileSync(path, "utf8")) as {
      sessions?: unknown;
      projects?: unknown;
    };
    const strings = (list: unknown) =>
      Array.isArray(list) ? list.filter((item): item is string => typeof item === "string") : [];
    return {
      sessions: new Set(strings(saved.sessions)),
      projects: new Set(strings(saved.projects)),
    };
  } catch {
    return { sessions: new Set(), projects: new Set() };
  }
}

export function saveForgotten(path: string, forgotten: Forgotten): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(
    temporary,
    JSON.stringify({
      sessions: [...forgotten.sessions].sort(),
      projects: [...forgotten.projects].sort(),
    }),
  );
  renameSync(temporary, path);
}
