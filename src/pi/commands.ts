/**
 * `/recall` and its subcommands, as words: parsing the argument text, and completing it. The
 * handlers that act on Pi live in extension.ts.
 *
 *   /recall [query]          picker            /recall tag #a #b    tag the current session
 *   /recall search <query>   picker            /recall untag #a     untag it
 *   /recall help | ? | manual | -h | --help    /recall tags         show its tags
 *   /recall autotag [--all-untagged [--yes]] tags from a model /recall model choose that model
 *
 * A query that starts with a command word needs `search`: `/recall search tag cloud`.
 */
import type { AutocompleteItem } from "@earendil-works/pi-tui";
import { HELP_WORDS } from "./help.js";

export type RecallCommand =
  | { type: "pick"; query: string }
  | { type: "help" }
  | { type: "tag"; tags: string[] }
  | { type: "untag"; tags: string[] }
  | { type: "tags" }
  | { type: "autotag"; all: boolean; yes: boolean }
  | { type: "model" }
  | { type: "usage"; message: string };

export const SUBCOMMANDS: { name: string; description: string }[] = [
  { name: "search", description: "search sessions (for a query that starts with a command word)" },
  { name: "tag", description: "tag the current session: tag #a #b" },
  { name: "untag", description: "remove tags from the current session" },
  { name: "tags", description: "show the current session's tags" },
  {
    name: "autotag",
    description: "tag the current session with a model (--all-untagged: every untagged session)",
  },
  { name: "model", description: "choose the model autotag and asking use" },
  { name: "help", description: "the recall manual" },
];

export function parseRecallArgs(args: string): RecallCommand {
  const text = args.trim();
  const word = /^\S+/.exec(text)?.[0] ?? "";
  const rest = text.slice(word.length).trim();
  if (!word) return { type: "pick", query: "" };
  if ((HELP_WORDS as readonly string[]).includes(word)) {
    return rest ? { type: "pick", query: text } : { type: "help" };
  }
  switch (word) {
    case "search":
      return { type: "pick", query: rest };
    case "tag":
    case "untag": {
      const tags = rest.split(/\s+/).filter(Boolean);
      if (tags.length === 0)
        return { type: "usage", message: `usage: /recall ${word} #name [#name …]` };
      return { type: word, tags };
    }
    case "tags":
      if (rest)
        return {
          type: "usage",
          message: `/recall tags takes no arguments; to search for "${text}", use /recall search ${text}`,
        };
      return { type: "tags" };
    case "autotag": {
      const flags = rest.split(/\s+/).filter(Boolean);
      const unknown = flags.find((f) => f !== "--all-untagged" && f !== "--yes");
      if (unknown)
        return {
          type: "usage",
          message: `usage: /recall autotag [--all-untagged [--yes]] (not ${unknown}); to search for "${text}", use /recall search ${text}`,
        };
      return {
        type: "autotag",
        all: flags.includes("--all-untagged"),
        yes: flags.includes("--yes"),
      };
    }
    case "model":
      if (rest)
        return {
          type: "usage",
          message: `/recall model takes no arguments; to search for "${text}", use /recall search ${text}`,
        };
      return { type: "model" };
    default:
      return { type: "pick", query: text };
  }
}

/**
 * Completions for the text after `/recall `. Pi replaces the whole argument text with an item's
 * value, so each value is the full argument with its last word completed.
 *
 * `knownTags` lists tags in use, most used first; `sessionTags` the current session's (for untag).
 */
export function completeRecallArgs(
  prefix: string,
  knownTags: () => string[],
  sessionTags: () => string[],
): AutocompleteItem[] | null {
  if (!/\s/.test(prefix)) {
    const items = SUBCOMMANDS.filter((c) => c.name.startsWith(prefix)).map((c) => ({
      value: `${c.name} `,
      label: c.name,
      description: c.description,
    }));
    if (prefix.startsWith("#")) return tagItems(prefix, "", knownTags());
    return items.length > 0 ? items : null;
  }
  const word = /^\S+/.exec(prefix)?.[0] ?? "";
  const lastStart = prefix.search(/\S*$/);
  const last = prefix.slice(lastStart);
  const head = prefix.slice(0, lastStart);
  if (word === "tag" || word === "untag") {
    const already = new Set(
      head
        .split(/\s+/)
        .slice(1)
        .map((t) => t.replace(/^#/, "").toLowerCase()),
    );
    const pool = (word === "untag" ? sessionTags() : knownTags()).filter((t) => !already.has(t));
    return tagItems(last, head, pool);
  }
  // Inside a query: complete a `#tag` (or `-#tag`) filter.
  if (last.startsWith("#") || last.startsWith("-#")) return tagItems(last, head, knownTags());
  return null;
}

function tagItems(last: string, head: string, pool: string[]): AutocompleteItem[] | null {
  const sign = last.startsWith("-#") ? "-" : "";
  const typed = last.replace(/^-?#?/, "").toLowerCase();
  const items = pool
    .filter((t) => t.startsWith(typed))
    .slice(0, 20)
    .map((t) => ({ value: `${head}${sign}#${t} `, label: `${sign}#${t}` }));
  return items.length > 0 ? items : null;
}
