/**
 * Which machines hold each archived session: a small record per session and machine, in an index
 * of its own, `<index>-holders` (an alias in front of `<index>-holders-v1`). A push writes its
 * machine's record with the session's documents; when the session's file is gone from this
 * machine (or was rewritten), the push takes its own record out and removes the session's
 * documents (and kept files) only if no other machine's record is left. Two machines that hold
 * the same session (one pulled it from the other) keep it in the archive until both let it go.
 */
import type { Client } from "@opensearch-project/opensearch";
import { sendBulk, type Action } from "./bulk.js";
import type { Remote } from "./remotes.js";

export const HOLDERS_VERSION = 1;

/** One machine's hold on one session. */
export interface HolderRecord {
  session_id: string;
  machine: string;
  user: string;
}

/** The alias of the remote's holder records. */
export function holdersAlias(remote: Remote): string {
  return `${remote.index}-holders`;
}

/** The concrete index behind the alias. */
export function holdersIndex(remote: Remote): string {
  return `${holdersAlias(remote)}-v${HOLDERS_VERSION}`;
}

const keyword = { type: "keyword" } as const;
const MAPPINGS = {
  dynamic: "strict",
  properties: { session_id: keyword, machine: keyword, user: keyword },
} as const;

/** Creates the index of holder records behind its alias, unless it is there. */
export async function ensureHoldersIndex(client: Client, remote: Remote): Promise<void> {
  const alias = holdersAlias(remote);
  if ((await client.indices.existsAlias({ name: alias })).body) return;
  try {
    await client.indices.create({
      index: holdersIndex(remote),
      body: { aliases: { [alias]: {} }, mappings: MAPPINGS } as never,
    });
  } catch (error) {
    // Another machine created it meanwhile.
    if (
      (error as { body?: { error?: { type?: string } } }).body?.error?.type !==
      "resource_already_exists_exception"
    )
      throw error;
  }
}

const holderId = (sessionId: string, machine: string) => `${sessionId}:${machine}`;

/** The action that records this machine's hold on a session (sent with the session's documents). */
export function holdAction(remote: Remote, sessionId: string): Action {
  const record: HolderRecord = {
    session_id: sessionId,
    machine: remote.machine,
    user: remote.user,
  };
  return { id: holderId(sessionId, remote.machine), index: holdersAlias(remote), document: record };
}

/**
 * Of `sessionIds`, those another machine still holds (its record is there); this machine's own
 * records are not counted.
 */
export async function heldElsewhere(
  client: Client,
  remote: Remote,
  sessionIds: readonly string[],
): Promise<Set<string>> {
  const held = new Set<string>();
  const index = holdersAlias(remote);
  if (sessionIds.length === 0 || !(await client.indices.existsAlias({ name: index })).body)
    return held;
  await client.indices.refresh({ index });
  for (let at = 0; at < sessionIds.length; at += 1_000) {
    const ids = sessionIds.slice(at, at + 1_000);
    // A session has a record per machine that holds it: a few at most.
    const found = await client.search({
      index,
      body: {
        size: 10_000,
        _source: ["session_id"],
        query: {
          bool: {
            filter: [{ terms: { session_id: ids } }],
            must_not: [{ term: { machine: remote.machine } }],
          },
        },
      },
    });
    for (const hit of found.body.hits.hits)
      held.add((hit._source as { session_id: string }).session_id);
  }
  return held;
}

/** Takes this machine's records of `sessionIds` out (a record that is not there is no error). */
export async function release(
  client: Client,
  remote: Remote,
  sessionIds: readonly string[],
): Promise<void> {
  if (
    sessionIds.length === 0 ||
    !(await client.indices.existsAlias({ name: holdersAlias(remote) })).body
  )
    return;
  await sendBulk(
    client,
    remote,
    sessionIds.map((id): Action => ({
      id: holderId(id, remote.machine),
      index: holdersAlias(remote),
      delete: true,
    })),
  );
}
