/**
 * Pictures of the work: sessions, messages, tokens and cost by day, by project (the `repo`
 * identity of a session's folder) and by model, and the files tool calls touched most. The
 * sessions come from the index (those active in the window, in the scope); what the index does
 * not keep (each message's time, each reply's model and usage as Pi recorded them, each call's
 * files) comes from their files, read once and kept summed in the cache (stats-cache.ts): a file
 * unchanged since is not read again, a file that grew is read from where it ended. A file that
 * cannot be read is counted in `unreadable` and left out.
 */
import { statSync, type Stats as FileStats } from "node:fs";
import type { IndexStore } from "../store.js";
import { listEverySession, type ListOptions } from "./list.js";
import type { SessionSummary } from "../answers/session-summary.js";
import { RecallError } from "../errors.js";
import { StatsCache, type CachedFile } from "./stats-cache.js";
import {
  COST,
  edgesOf,
  QUARTER_HOUR_MS,
  readFileFacts,
  ROW,
  SUMS,
  type Column,
  type FileFacts,
  type FileScope,
  type TimeWindow,
} from "./stats-facts.js";

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

/**
 * A group's sums, its cost (added reply by reply), and the last session counted in it (each session
 * once).
 */
interface Group {
  sessions: number;
  sums: number[];
  cost: number;
  lastSession: number;
}

/** Groups by key, summed from files' facts. */
class Tally<K> {
  private readonly groups = new Map<K, Group>();

  group(key: K): Group {
    let group = this.groups.get(key);
    if (!group)
      this.groups.set(
        key,
        (group = { sessions: 0, sums: new Array<number>(SUMS).fill(0), cost: 0, lastSession: -1 }),
      );
    return group;
  }

  /** The `SUMS` numbers of `flat` from `at` on, for session number `session`. */
  add(key: K, session: number, flat: Column, at: number): void {
    addTo(this.group(key), session, flat, at);
  }

  rows<T>(name: (key: K) => T): Array<[T, Activity]> {
    return [...this.groups].map(([key, { sessions, sums, cost }]) => {
      const [messages, input, output, cacheRead, cacheWrite] = sums as [
        number,
        number,
        number,
        number,
        number,
      ];
      return [
        name(key),
        {
          sessions,
          messages,
          input,
          output,
          cacheRead,
          cacheWrite,
          tokens: input + output + cacheRead + cacheWrite,
          cost: Math.round(cost * 1e6) / 1e6,
        },
      ];
    });
  }
}

function addTo(group: Group, session: number, flat: Column, at: number): void {
  if (group.lastSession !== session) {
    group.sessions++;
    group.lastSession = session;
  }
  for (let k = 0; k < SUMS; k++) group.sums[k]! += flat[at + k]!;
}

/**
 * The group of the local day a quarter hour starts in: a file's quarters come in order, mostly
 * of one day, so the day is worked out once for a run of them (from the day's local midnights).
 */
class DayGroups {
  private start = 0;
  private end = 0;
  private current: Group | undefined;

  constructor(private readonly days: Tally<string>) {}

  of(quarter: number): Group {
    const ms = quarter * QUARTER_HOUR_MS;
    if (this.current && ms >= this.start && ms < this.end) return this.current;
    const d = new Date(ms);
    const [year, month, date] = [d.getFullYear(), d.getMonth(), d.getDate()];
    this.start = new Date(year, month, date).getTime();
    this.end = new Date(year, month, date + 1).getTime();
    return (this.current = this.days.group(
      `${year}-${String(month + 1).padStart(2, "0")}-${String(date).padStart(2, "0")}`,
    ));
  }
}

/** Each touched file's calls and sessions, by its string's number. */
class FileTally {
  private readonly calls: Float64Array;
  private readonly sessions: Uint32Array;
  private readonly lastSession: Int32Array;

  constructor(strings: number) {
    this.calls = new Float64Array(strings);
    this.sessions = new Uint32Array(strings);
    this.lastSession = new Int32Array(strings).fill(-1);
  }

  add(file: number, session: number, calls: number): void {
    this.calls[file]! += calls;
    if (this.lastSession[file] === session) return;
    this.sessions[file]!++;
    this.lastSession[file] = session;
  }

  /**
   * The `top` busiest, most calls first, then most sessions, then by path; only ties at the edge
   * compared by path.
   */
  busiest(top: number, strings: readonly string[]): Stats["files"] {
    if (top === 0) return [];
    const { calls, sessions } = this;
    const ids: number[] = [];
    for (let id = 0; id < calls.length; id++) if (sessions[id]! > 0) ids.push(id);
    ids.sort((a, b) => calls[b]! - calls[a]! || sessions[b]! - sessions[a]!);
    let cut = ids.length;
    if (ids.length > top) {
      const edge = ids[top - 1]!;
      cut = top;
      while (
        cut < ids.length &&
        calls[ids[cut]!] === calls[edge] &&
        sessions[ids[cut]!] === sessions[edge]
      )
        cut++;
    }
    return ids
      .slice(0, cut)
      .map((id) => ({ path: strings[id]!, calls: calls[id]!, sessions: sessions[id]! }))
      .sort((a, b) => b.calls - a.calls || b.sessions - a.sessions || a.path.localeCompare(b.path))
      .slice(0, top);
  }
}

export async function workStats(store: IndexStore, options: StatsOptions = {}): Promise<Stats> {
  const top = options.files ?? DEFAULT_STATS_FILES;
  if (!Number.isInteger(top) || top < 0)
    throw new RecallError("BAD_INPUT", `files must be a whole number of at least 0, not ${top}`, {
      field: "files",
    });
  const listing = await listingOf(store, {
    cwd: options.cwd,
    repo: options.repo,
    since: options.since,
    until: options.until,
  });
  const window: TimeWindow = { since: options.since, until: options.until };
  const cache = StatsCache.open(store.locations.cacheDir);
  let unreadable = 0;
  const counted: number[] = [];
  const factsOf: FileFacts[] = [];
  listing.sessions.forEach((session, i) => {
    const facts = sessionFacts(cache, session, listing.scopes[i]!, window);
    if (facts === undefined) unreadable++;
    else if (facts.quarters.length > 0) {
      counted.push(i);
      factsOf.push(facts);
    }
  });
  const strings = cache.strings.list;
  const total = new Tally<string>();
  const days = new Tally<string>();
  const dayGroups = new DayGroups(days);
  const projects = new Tally<string>();
  const models = new Tally<number>();
  const files = new FileTally(strings.length);
  const sums = new Array<number>(SUMS);
  counted.forEach((place, c) => {
    const [session, facts, n] = [listing.sessions[place]!, factsOf[c]!, listing.numbers[place]!];
    sums.fill(0);
    for (let i = 0; i < facts.quarters.length; i += ROW) {
      addTo(dayGroups.of(facts.quarters[i]!), n, facts.quarters, i + 1);
      for (let k = 0; k < SUMS; k++) sums[k]! += facts.quarters[i + 1 + k]!;
    }
    const [all, project] = [total.group(""), projects.group(session.project)];
    addTo(all, n, sums, 0);
    addTo(project, n, sums, 0);
    for (let i = 0; i < facts.models.length; i += ROW)
      models.add(facts.models[i]!, n, facts.models, i + 1);
    let [modelId, model] = [-1, all];
    for (let i = 0; i < facts.costs.length; i += COST) {
      const cost = facts.costs[i + 2]!;
      all.cost += cost;
      project.cost += cost;
      if (facts.costs[i] !== modelId) model = models.group((modelId = facts.costs[i]!));
      model.cost += cost;
      dayGroups.of(facts.costs[i + 1]!).cost += cost;
    }
    for (let i = 0; i < facts.files.length; i += 2)
      files.add(facts.files[i]!, n, facts.files[i + 1]!);
  });
  const unfiltered =
    options.cwd === undefined &&
    options.repo === undefined &&
    options.since === undefined &&
    options.until === undefined;
  if (unfiltered) cache.keepOnly(listing.paths);
  cache.save();
  const byMessages = (a: [string, Activity], b: [string, Activity]) =>
    b[1].messages - a[1].messages || a[0].localeCompare(b[0]);
  const same = (key: string) => key;
  return {
    totals: total.rows(same)[0]?.[1] ?? {
      sessions: 0,
      messages: 0,
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      tokens: 0,
      cost: 0,
    },
    days: days
      .rows(same)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([day, activity]) => ({ day, ...activity })),
    projects: projects
      .rows(same)
      .sort(byMessages)
      .map(([project, activity]) => ({ project, ...activity })),
    models: models
      .rows((id) => strings[id]!)
      .sort(byMessages)
      .map(([model, activity]) => ({ model, ...activity })),
    files: files.busiest(top, strings),
    unreadable,
  };
}

type Scope = Pick<ListOptions, "cwd" | "repo" | "since" | "until">;

/**
 * The sessions of a scope as a count goes through them, with what it needs of each worked out once.
 */
interface Listing {
  /**
   * Files of one session id one after the other (a group counts a session once, by id, when its
   * files come together).
   */
  sessions: SessionSummary[];
  /** Each session's number: one per id. */
  numbers: number[];
  scopes: FileScope[];
  paths: ReadonlySet<string>;
}

/**
 * The listings of an index this process made, by scope, as of one commit (the only thing that
 * changes them).
 */
const listings = new WeakMap<
  IndexStore["native"],
  { stamp: string; byScope: Map<string, Listing> }
>();
const LISTINGS_KEPT = 8;

/**
 * The sessions of the scope, as the index lists them: listing ten thousand sessions costs more
 * than counting their cached facts, so a process lists a scope once per commit of the index.
 */
async function listingOf(store: IndexStore, scope: Scope): Promise<Listing> {
  const { stamp } = await store.native.stats();
  let kept = listings.get(store.native);
  if (!kept || kept.stamp !== stamp || stamp === "")
    listings.set(store.native, (kept = { stamp, byScope: new Map() }));
  const key = JSON.stringify([scope.cwd, scope.repo, scope.since, scope.until]);
  let listing = kept.byScope.get(key);
  if (!listing) {
    listing = listed(await listEverySession(store, scope));
    if (kept.byScope.size >= LISTINGS_KEPT) kept.byScope.clear();
    kept.byScope.set(key, listing);
  }
  return listing;
}

function listed(all: SessionSummary[]): Listing {
  const ids = new Map<string, number>();
  for (const session of all) if (!ids.has(session.id)) ids.set(session.id, ids.size);
  const sessions =
    ids.size === all.length ? all : [...all].sort((a, b) => ids.get(a.id)! - ids.get(b.id)!);
  return {
    sessions,
    numbers: sessions.map((s) => ids.get(s.id)!),
    scopes: sessions.map((s) => {
      const created = Date.parse(s.created);
      return {
        cwd: s.cwd,
        forked: s.parent === null || !Number.isFinite(created) ? null : created,
      };
    }),
    paths: new Set(sessions.map((s) => s.path)),
  };
}

const NO_FACTS: FileFacts = {
  first: null,
  last: null,
  quarters: [],
  models: [],
  files: [],
  costs: [],
};

/**
 * The facts of a session's file in the window: the cache's while the file is as it was when they
 * were read; else read (from where it ended, when it only grew) and kept. A file only partly in
 * the window is read again for the messages in it. Undefined when the file cannot be read.
 */
function sessionFacts(
  cache: StatsCache,
  session: SessionSummary,
  scope: FileScope,
  window: TimeWindow,
): FileFacts | undefined {
  let entry = cache.get(session.path);
  try {
    const stat = statSync(session.path);
    if (!stat.isFile()) return undefined;
    if (!entry || !isAsRead(entry, stat, scope)) {
      entry = readEntry(
        session.path,
        stat,
        scope,
        cache,
        entry && grownSince(entry, stat, scope) ? entry : undefined,
      );
      cache.put(entry);
    }
  } catch {
    return undefined;
  }
  const { first, last } = entry.facts;
  const { since, until } = window;
  if (first === null || last === null) return entry.facts;
  if ((since === undefined || first >= since) && (until === undefined || last <= until))
    return entry.facts;
  if ((since !== undefined && last < since) || (until !== undefined && first > until))
    return NO_FACTS;
  try {
    return readFileFacts(session.path, scope, cache.strings, { window }).facts;
  } catch {
    return undefined;
  }
}

function isAsRead(entry: CachedFile, stat: FileStats, scope: FileScope): boolean {
  return (
    entry.size === stat.size &&
    entry.mtime === stat.mtimeMs &&
    entry.ctime === stat.ctimeMs &&
    entry.ino === stat.ino &&
    entry.cwd === scope.cwd &&
    entry.forked === scope.forked
  );
}

/** True when the file is the one `entry` read, read to its end then, and has only grown since. */
function grownSince(entry: CachedFile, stat: FileStats, scope: FileScope): boolean {
  return (
    entry.ino === stat.ino &&
    entry.cwd === scope.cwd &&
    entry.forked === scope.forked &&
    entry.end === entry.size &&
    stat.size > entry.size &&
    entry.edges !== "" &&
    edgesOf(entry.path, entry.end) === entry.edges
  );
}

/**
 * The file's facts as a cache entry (`stat` taken before reading), read on from `previous` when
 * given.
 */
function readEntry(
  path: string,
  stat: FileStats,
  scope: FileScope,
  cache: StatsCache,
  previous?: CachedFile,
): CachedFile {
  const from = previous && {
    offset: previous.end,
    lineNo: previous.lineNo,
    header: previous.header,
  };
  const reading = readFileFacts(path, scope, cache.strings, { from, base: previous?.facts });
  return {
    path,
    size: stat.size,
    mtime: stat.mtimeMs,
    ctime: stat.ctimeMs,
    ino: stat.ino,
    cwd: scope.cwd,
    forked: scope.forked,
    end: reading.end,
    lineNo: reading.lineNo,
    header: reading.header,
    edges: edgesOf(path, reading.end) ?? "",
    facts: reading.facts,
  };
}
