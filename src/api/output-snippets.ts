/**
 * Snippets of hits in tool output. The index keeps the words of tool output, not its text
 * (docs/search.md, "What is searched"): such a hit comes back without a snippet, with where its
 * entry's line starts, and the snippet is made from the session file by the native core, as for any
 * other text.
 */
import type { NativeHit } from "../native/addon.js";
import { outputAt } from "../sessions/entry-output.js";
import type { IndexStore } from "../store.js";
import type { TextKind } from "../sessions/content-scope.js";
import type { Typos } from "./search.js";

/**
 * Gives the hits in tool output their snippets, in place, as the search of `content` found them.
 */
export async function addOutputSnippets(
  store: IndexStore,
  hits: NativeHit[],
  query: string,
  prefix: boolean,
  typos: Typos,
  content: TextKind[],
): Promise<void> {
  const pending = hits.filter(
    (hit) => hit.message?.kind === "output" && hit.message.lineOffset != null,
  );
  if (pending.length === 0) return;
  const texts = pending.map((hit) =>
    outputAt(hit.session.path, hit.message!.lineOffset!, hit.message!.entryId),
  );
  const snippets = await store.native.snippets({
    query,
    prefix,
    typos,
    kind: "output",
    content,
    texts,
  });
  pending.forEach((hit, i) => {
    hit.snippet = snippets[i]!.snippet;
    hit.spans = snippets[i]!.spans;
  });
}
