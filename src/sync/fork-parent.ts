/**
 * The parent of a fork as a file a sync can read. A fork's header names its parent by path, which
 * stops resolving when sessions are copied to another machine, a home folder is renamed or the
 * parent's file is renamed. The parent is then looked for by what else identifies it: a file of
 * the same name in the sessions folder; a file whose name ends with the same session id (Pi names
 * files `<time>_<id>.jsonl`); a file whose header holds that session id, among those the index
 * knows, then among those the sync is reading (the parent may be new to it too). The folder is
 * listed, and headers are read, only when the path is gone.
 */
import { existsSync } from "node:fs";
import { basename } from "node:path";
import { discoverSessionFiles, type SessionFile } from "../sessions/discover.js";
import { idFromFileName, readHeader } from "../sessions/entries.js";
import type { Locations } from "../locations.js";
import type { ChangeSink } from "./changes.js";

/**
 * Finds the file of `parent` (a fork's header's path) for the fork at `fork`; undefined when there
 * is none.
 */
export type ParentFinder = (
  parent: string | undefined,
  fork: string,
) => Promise<string | undefined>;

/**
 * `reading`: the files the sync reads, whose headers are looked at last; `sink`: the consumer,
 * asked for the files it knows of a session.
 */
export function parentFinder(
  locations: Pick<Locations, "sessionsDir" | "layout">,
  sink: Pick<ChangeSink, "filesOfSession">,
  reading: readonly string[],
): ParentFinder {
  let listing: Promise<SessionFile[]> | undefined;
  let headerIds: Map<string, string[]> | undefined;
  return async (parent, fork) => {
    if (!parent) return undefined;
    if (existsSync(parent)) return parent;
    listing ??= discoverSessionFiles(locations).then((d) => d.files);
    const files = await listing;
    const name = basename(parent);
    const byName = files.find((f) => basename(f.path) === name);
    if (byName) return byName.path;
    const id = idFromFileName(parent);
    const byIdInName = files.find((f) => basename(f.path).endsWith(`_${id}.jsonl`));
    if (byIdInName) return byIdInName.path;
    const other = (path: string) => path !== fork && existsSync(path);
    for (const known of await sink.filesOfSession(id)) {
      if (known.state.header.id === id && other(known.path)) return known.path;
    }
    headerIds ??= idsOfHeaders(reading);
    return headerIds.get(id)?.find(other);
  };
}

/** The files of each session id, from the files' headers (a file that cannot be read has none). */
function idsOfHeaders(paths: readonly string[]): Map<string, string[]> {
  const byId = new Map<string, string[]>();
  for (const path of paths) {
    let header;
    try {
      header = readHeader(path);
    } catch {
      continue;
    }
    if (!header.hasHeader) continue;
    byId.set(header.id, [...(byId.get(header.id) ?? []), path]);
  }
  return byId;
}
