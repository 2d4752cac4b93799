/**
 * The `recall` tool's `remote` argument: search and read a shared archive (a remote of recall's
 * config.json) through the facade's `recall.archive.search` and `read`. The answers
 * are framed as historical data like local ones, and say where each session lives (machine and
 * user); a remote that is down, slow or refuses the credentials is one line naming the remote,
 * never its URL or host (the facade's errors never hold them).
 */
import type { Recall } from "../index.js";
import { formatMessages, formatSessions } from "./format.js";
import type { RecallParams } from "./tool.js";
import {
  DEFAULT_READ_LIMIT,
  DEFAULT_SEARCH_LIMIT,
  failure,
  READ_MAX_CHARS,
  result,
  type ToolResult,
} from "./tool-result.js";

export async function searchRemote(
  recall: Recall,
  params: RecallParams,
  cwd: string,
  now: number,
): Promise<ToolResult> {
  const remote = params.remote!;
  const query = params.query?.trim() ?? "";
  if (!query)
    return failure(
      "search",
      `recall search needs a query: {"action": "search", "remote": ${JSON.stringify(remote)}, "query": "…"}`,
    );
  if (params.file)
    return failure("search", "file searches this machine's sessions: leave out remote to use it");
  const current = params.scope === "current";
  const { hits } = await recall.archive.search(remote, {
    query,
    limit: params.limit ?? DEFAULT_SEARCH_LIMIT,
    ...(params.content?.length ? { content: params.content } : {}),
    ...(current ? { repo: cwd } : {}),
  });
  const where = `sessions in remote ${remote}${current ? " of this folder's project" : ""}`;
  const lines = [
    hits.length === 0
      ? `No ${where} match ${JSON.stringify(query)}.${current ? ' Try scope "all".' : ""}`
      : `${hits.length} ${where} matching ${JSON.stringify(query)}, best first, each with the machine and user it lives on. Matched words are in [[ ]]. Read one with {"action": "read", "remote": ${JSON.stringify(remote)}, "session": "<id>"}.`,
    "",
    ...formatSessions(hits, now, { marks: ["[[", "]]"] }),
  ];
  return result("search", lines, hits.length, "Lower `limit` or use more specific words.");
}

export async function readRemote(recall: Recall, params: RecallParams): Promise<ToolResult> {
  const ref = params.session?.trim();
  if (!ref)
    return failure(
      "read",
      `recall read needs a session: {"action": "read", "remote": ${JSON.stringify(params.remote)}, "session": "<id or id prefix>"}`,
    );
  const read = await recall.archive.read(params.remote!, ref, {
    limit: params.limit ?? DEFAULT_READ_LIMIT,
    maxChars: READ_MAX_CHARS,
  });
  return result(
    "read",
    formatMessages(read.page, read.messages, read.origin),
    read.messages.length,
    "Ask for fewer messages with a lower `limit`.",
  );
}
