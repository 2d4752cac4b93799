/**
 * Which indexes a push filled: the uuid and creation date of the index behind each alias it
 * writes to (messages, holder records, kept files), kept with the watermarks. An index deleted or
 * replaced by someone else since (dropped and made again, restored from elsewhere) has another
 * uuid or none: what the watermarks say was acknowledged is then no longer there, so the push
 * sends everything again. Asked for in one small request per push, without the client's package.
 */
import type { RemoteConnection } from "./client.js";
import { filesAlias } from "./kept-files.js";
import { holdersAlias } from "./holders.js";
import type { Remote } from "./remotes.js";

/** By alias: the uuid of the index behind it and when that index was made (ms since epoch). */
export type IndexIdentity = Record<string, { uuid: string; created: number }>;

/** The aliases a push to `remote` writes to. */
export function pushedAliases(remote: Remote): string[] {
  return [remote.index, holdersAlias(remote), ...(remote.keepFiles ? [filesAlias(remote)] : [])];
}

/**
 * The identity of the indexes behind `remote`'s aliases, as they are now (an alias without one is
 * left out), in one GET made without the client (`RemoteConnection.getJson`).
 */
export async function indexIdentity(
  connection: RemoteConnection,
  remote: Remote,
  doing = "looking at the index",
): Promise<IndexIdentity> {
  const aliases = pushedAliases(remote);
  const filter = ["*.aliases", "*.settings.index.uuid", "*.settings.index.creation_date"].join(",");
  const found = await connection.getJson(
    `${aliases.map(encodeURIComponent).join(",")}?ignore_unavailable=true&allow_no_indices=true&filter_path=${filter}`,
    doing,
  );
  const identity: IndexIdentity = {};
  const indexes = (found ?? {}) as Record<
    string,
    {
      aliases?: Record<string, unknown>;
      settings?: { index?: { uuid?: string; creation_date?: string } };
    }
  >;
  for (const [name, index] of Object.entries(indexes)) {
    const uuid = index?.settings?.index?.uuid;
    if (typeof uuid !== "string") continue;
    for (const alias of [name, ...Object.keys(index.aliases ?? {})]) {
      if (aliases.includes(alias))
        identity[alias] = { uuid, created: Number(index.settings?.index?.creation_date ?? 0) };
    }
  }
  return identity;
}

/**
 * The aliases of `remote` whose index is not the one `saved` names (deleted, or another one made
 * since); none when nothing was saved of them.
 */
export function replacedSince(
  remote: Remote,
  saved: IndexIdentity | undefined,
  now: IndexIdentity,
): string[] {
  if (!saved) return [];
  return pushedAliases(remote).filter(
    (alias) => saved[alias] !== undefined && now[alias]?.uuid !== saved[alias].uuid,
  );
}
