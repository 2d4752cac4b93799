/**
 * How a session is named to people, the same in the CLI, the picker and the model's tool: its
 * title, its project folder and its tags. Session text is untrusted: titles come out on one line
 * with control characters removed (see plain-text.ts).
 */
import { basename } from "node:path";
import { oneLine } from "./plain-text.js";

/** What a session is called in a list: its name, else its first message, on one line. */
export function sessionTitle(session: { name: string | null; firstMessage: string }): string {
  return (
    oneLine(session.name ?? "").trim() || oneLine(session.firstMessage).trim() || "(no messages)"
  );
}

/** The project a session belongs to, as a list shows it: its folder's name. */
export function projectFolder(cwd: string): string {
  return (cwd && oneLine(basename(cwd) || cwd)) || "(unknown folder)";
}

/** `#a #b`, as tags are shown to people. */
export function formatTags(tags: readonly string[]): string {
  return tags.map((tag) => `#${tag}`).join(" ");
}
