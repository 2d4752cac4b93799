/**
 * Session arguments as commands take them: ids, id prefixes or paths, where `-` stands for
 * those read from stdin, one per line, so `recall search x --json | jq -r .id | recall read -`
 * works. Shared by every command that takes sessions.
 */
import { RecallError } from "../index.js";

/** `args` with `-` replaced by the non-empty lines of stdin. */
export async function readSessionArgs(
  args: string[],
  stdin: AsyncIterable<Buffer | string>,
): Promise<string[]> {
  const dashes = args.filter((a) => a === "-").length;
  if (dashes === 0) return args;
  if (dashes > 1)
    throw new RecallError("BAD_INPUT", "`-` (read sessions from stdin) can be given only once");
  const chunks: Buffer[] = [];
  for await (const chunk of stdin)
    chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  const lines = Buffer.concat(chunks)
    .toString("utf8")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  if (lines.length === 0)
    throw new RecallError(
      "BAD_INPUT",
      "`-` was given but stdin held no session ids or paths (one per line)",
    );
  return args.flatMap((a) => (a === "-" ? lines : [a]));
}
