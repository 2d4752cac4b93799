/**
 * Which kinds of session text a search reads: the conversation (the default), or also the
 * assistant's thinking, its tool calls and their output (see docs/search.md, "What is searched").
 */
import { RecallError } from "../errors.js";

/** What a caller names: a kind of text, or `all` of them. */
export const CONTENT_SCOPES = ["conversation", "all", "calls", "outputs", "thinking"] as const;
export type ContentScope = (typeof CONTENT_SCOPES)[number];

/** The kind of text a hit matched in, as `message.kind` says. */
export type TextKind = "conversation" | "thinking" | "call" | "output";

const KINDS: Record<ContentScope, TextKind[]> = {
  conversation: ["conversation"],
  all: ["conversation", "thinking", "call", "output"],
  calls: ["call"],
  outputs: ["output"],
  thinking: ["thinking"],
};

/** The kinds of text the scopes name, in a fixed order; undefined (the conversation) for none. */
export function textKinds(scopes: readonly string[] | undefined): TextKind[] | undefined {
  if (scopes === undefined || scopes.length === 0) return undefined;
  const kinds = new Set<TextKind>();
  for (const scope of scopes) {
    if (!(CONTENT_SCOPES as readonly string[]).includes(scope)) {
      throw new RecallError(
        "BAD_INPUT",
        `unknown content "${scope}": use ${CONTENT_SCOPES.join(", ")}`,
        { field: "content", value: scope },
      );
    }
    for (const kind of KINDS[scope as ContentScope]) kinds.add(kind);
  }
  const ordered = KINDS.all.filter((kind) => kinds.has(kind));
  return ordered.length === 1 && ordered[0] === "conversation" ? undefined : ordered;
}
