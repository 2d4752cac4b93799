/**
 * Writing to an archive: bulk requests whose items the archive refuses for a passing reason (429,
 * 5xx) are sent again with backoff, alone, and deletions of what a search finds.
 */
import type { Client, Types } from "@opensearch-project/opensearch";
import { RecallError } from "../errors.js";
import { PUSH_TIMEOUT_MS, remoteError, statusOf } from "./client.js";
import type { IdentifiedDocument } from "./documents.js";
import type { HolderRecord } from "./holders.js";
import type { KeptFile } from "./kept-files.js";
import type { Remote } from "./remotes.js";

/** Tries of an item the archive refused for a passing reason, with backoff from 250 ms to 8 s. */
const MAX_TRIES = 8;

/**
 * An action on the remote's index, or on `index` (its kept files, kept-files.ts; its holder
 * records, holders.ts).
 */
export type Action = (
  | { id: string; document: IdentifiedDocument["document"] | KeptFile | HolderRecord }
  | { id: string; delete: true }
) & { index?: string };

/** A push's requests may take the remote's timeout, and at least PUSH_TIMEOUT_MS. */
export const pushTimeout = (remote: Remote) => Math.max(remote.timeoutMs, PUSH_TIMEOUT_MS);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const backoff = (attempt: number) => Math.min(8_000, 250 * 2 ** attempt);
const passing = (status: number | undefined) =>
  status === undefined || status === 429 || status >= 500;

/** Sends `actions` in one bulk request, again for the items refused for a passing reason. */
export async function sendBulk(client: Client, remote: Remote, actions: Action[]): Promise<void> {
  let pending = actions;
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > 0) await sleep(backoff(attempt - 1));
    const body = pending.flatMap((a): Record<string, unknown>[] =>
      "delete" in a
        ? [{ delete: { _index: a.index ?? remote.index, _id: a.id } }]
        : [{ index: { _index: a.index ?? remote.index, _id: a.id } }, { ...a.document }],
    );
    let items: Types.Core_Bulk.Item[];
    try {
      items = (await client.bulk({ body })).body.items;
    } catch (error) {
      if (passing(statusOf(error)) && attempt + 1 < MAX_TRIES) continue;
      throw remoteError(remote, error, "pushing", pushTimeout(remote));
    }
    const again: Action[] = [];
    let refusal = "";
    items.forEach((item, i) => {
      // An item holds one result, under the name of its action (`index`, `delete`).
      const result = (item.index ?? item.delete ?? item.create ?? item.update)!;
      const action = pending[i]!;
      // Deleting what is not there leaves the archive as wanted.
      if (!result.error && (result.status < 300 || ("delete" in action && result.status === 404)))
        return;
      const reason = result.error?.reason ?? result.error?.type ?? "no reason given";
      if (!passing(result.status))
        throw new RecallError(
          "IO",
          `remote ${remote.name} refused document ${action.id} (HTTP ${result.status}): ${reason}`,
        );
      again.push(action);
      refusal = `HTTP ${result.status}: ${reason}`;
    });
    if (again.length > 0 && attempt + 1 >= MAX_TRIES)
      throw new RecallError(
        "IO",
        `remote ${remote.name} kept refusing ${again.length} documents after ${MAX_TRIES} tries (${refusal})`,
      );
    pending = again;
  }
}

/**
 * Deletes every document `query` matches in `index` (the remote's, by default), found by a search
 * and deleted in bulk (`_delete_by_query` is a module that a bare engine lacks); again after a
 * refresh until none is found.
 */
export async function deleteMatching(
  client: Client,
  remote: Remote,
  query: Record<string, unknown>,
  index = remote.index,
): Promise<number> {
  let deleted = 0;
  for (;;) {
    await client.indices.refresh({ index });
    const found = await client.search({ index, body: { size: 10_000, _source: false, query } });
    const ids = found.body.hits.hits.map((hit) => hit._id!);
    if (ids.length === 0) return deleted;
    await sendBulk(
      client,
      remote,
      ids.map((id): Action => ({ id, index, delete: true })),
    );
    deleted += ids.length;
  }
}

/** Deletes every document of a session. */
export function deleteSession(client: Client, remote: Remote, sessionId: string): Promise<number> {
  return deleteMatching(client, remote, { term: { session_id: sessionId } });
}
