/**
 * Pictures of the work: sessions, messages, tokens and cost by day, by project (the `repo`
 * identity of a session's folder) and by model, and the files tool calls touched most. The
 * sessions come from the index (those active in the window, in the scope); their files are then
 * read once each, a line at a time, for what the index does not keep: each message's time, each
 * reply's model and usage (as Pi recorded it), each call's files. A file that cannot be read is
 * counted in `unreadable` and left out.
 */
import { readEntries } from "../sessions/entries.js";
import { callsIn } from "../sessions/other-text.js";
import { usageOf } from "../sessions/session-document.js";
import { toMillis } from "../sessions/text.js";
import type { IndexStore } from "../store.js";
import { listEverySession, type ListOptions } from "./list.js";
import type { SessionSummary } from "../answers/session-summary.js";
import { RecallError } from "../errors.js";

export interface StatsOptions extends Pick<ListOptions, "cwd" | "repo" | "since" | "until"> {
  /** Busiest files to give (default 10). */
  files?: number;
}

export interface Activity {
  /** Sessions with a message in the group. */
  sessions: number;
  /** User and assistant messages (a model's: its replies). */
  messages: number;
  /** Tokens Pi recorded on replies, by kind, and their sum. */
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  tokens: number;
  /** Cost as Pi priced the replies (0 where it knew no price). */
  cost: number;
}

export interface Stats {
  totals: Activity;
  /** By local calendar day (`2026-10-01`), oldest first. */
  days: Array<Activity & { day: string }>;
  /** Most messages first. */
  projects: Array<Activity & { project: string }>;
  /** `provider/model`, most replies first. */
  models: Array<Activity & { model: string }>;
  /** Files tool calls read, edited, wrote or named, most calls first. */
  files: Array<{ path: string; calls: number; sessions: number }>;
  /** Session files that could not be read. */
  unreadable: number;
}

export const DEFAULT_STATS_FILES = 10;

class Tally {
  private readonly groups = new Map<string, Activity & { ids: Set<string> }>();

  add(key: string, session: string, message: { tokens?: ReturnType<typeof usageOf> }): void {
    let group = this.groups.get(key);
    if (!group) this.groups.set(key, (group = { sessions: 0, messages: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, tokens: 0, cost: 0, ids: new Set() }));
    group.ids.add(session);
    group.messages++;
    const usage = message.tokens;
    if (usage) {
      group.input += usage.input;
      group.output += usage.output;
      group.cacheRead += usage.cacheRead;
      group.cacheWrite += usage.cacheWrite;
      group.tokens += usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
      group.cost += usage.cost;
    }
  }

  rows(): Array<[string, Activity]> {
    return [...this.groups].map(([key, { ids, ...activity }]) => [key, { ...activity, sessions: ids.size, cost: Math.round(activity.cost * 1e6) / 1e6 }]);
  }
}

/** `2026-10-01`: the local calendar day of `ms`. */
function localDay(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

export async function workStats(store: IndexStore, options: StatsOptions = {}): Promise<Stats> {
  const top = options.files ?? DEFAULT_STATS_FILES;
  if (!Number.isInteger(top) || top < 0) throw new RecallError("BAD_INPUT", `files must be a whole number of at least 0, not ${top}`, { field: "files" });
  const sessions = await listEverySession(store, { cwd: options.cwd, repo: options.repo, since: options.since, until: options.until });
  const total = new Tally();
  const days = new Tally();
  const projects = new Tally();
  const models = new Tally();
  const files = new Map<string, { calls: number; ids: Set<string> }>();
  let unreadable = 0;
  for (const session of sessions) {
    try {
      readSessionStats(session, options, (at, model, tokens) => {
        const message = { tokens };
        total.add("", session.id, message);
        days.add(localDay(at), session.id, message);
        projects.add(session.project, session.id, message);
        if (model) models.add(model, session.id, message);
      }, (path) => {
        const file = files.get(path) ?? { calls: 0, ids: new Set<string>() };
        file.calls++;
        file.ids.add(session.id);
        files.set(path, file);
      });
    } catch {
      unreadable++;
    }
  }
  const byMessages = (a: [string, Activity], b: [string, Activity]) => b[1].messages - a[1].messages || a[0].localeCompare(b[0]);
  return {
    totals: total.rows()[0]?.[1] ?? { sessions: 0, messages: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, tokens: 0, cost: 0 },
    days: days.rows().sort(([a], [b]) => a.localeCompare(b)).map(([day, activity]) => ({ day, ...activity })),
    projects: projects.rows().sort(byMessages).map(([project, activity]) => ({ project, ...activity })),
    models: models.rows().sort(byMessages).map(([model, activity]) => ({ model, ...activity })),
    files: [...files]
      .map(([path, { calls, ids }]) => ({ path, calls, sessions: ids.size }))
      .sort((a, b) => b.calls - a.calls || b.sessions - a.sessions || a.path.localeCompare(b.path))
      .slice(0, top),
    unreadable,
  };
}

/**
 * Each user or assistant message of a session file in the window (`onMessage` with its time, a
 * reply's model and usage), and each file its calls touched there (`onFile`). Every branch
 * counts: work left on a branch was still done. A fork's copies of its parent's messages (older
 * than the fork) are the parent's, and counted there.
 */
function readSessionStats(
  session: SessionSummary,
  window: Pick<StatsOptions, "since" | "until">,
  onMessage: (at: number, model: string | undefined, usage: ReturnType<typeof usageOf>) => void,
  onFile: (path: string) => void,
): void {
  const forked = session.parent === null ? undefined : Date.parse(session.created);
  readEntries(
    session.path,
    ({ value }) => {
    if (value.type !== "message") return;
    const message = value.message as Record<string, unknown> | undefined;
    if (!message || (message.role !== "user" && message.role !== "assistant")) return;
    const at = toMillis(message.timestamp) ?? toMillis(value.timestamp);
    if (at === undefined || (forked !== undefined && at < forked)) return;
    if ((window.since !== undefined && at < window.since) || (window.until !== undefined && at > window.until)) return;
    if (message.role === "user") return onMessage(at, undefined, undefined);
    const model = typeof message.model === "string" && message.model ? (typeof message.provider === "string" && message.provider ? `${message.provider}/${message.model}` : message.model) : "(unknown)";
    onMessage(at, model, usageOf(message.usage));
    for (const call of callsIn(message.content, session.cwd)) for (const file of call.files) onFile(file);
    },
    { skip: (head) => NOT_COUNTED.test(head) },
  );
}

/** A line that says at its start it holds a message of a role never counted (tool output, mostly: the bulk of a file), left unparsed. */
const NOT_COUNTED = /"message":\{"role":"(toolResult|bashExecution|custom|system)"/;
