/**
 * What `recall stats` counts in one session file, summed so that a cache keeps it small and a
 * count over ten thousand files adds up a few numbers per file: per quarter hour (every time
 * zone's day starts on one, so any zone's days are made of them), the user and assistant messages
 * and the tokens Pi recorded on the replies; the same per model, of its replies; and per file the
 * calls touched, how many. Costs are kept per reply, in file order, with its quarter hour and
 * model: fractions added in another order may round to another last digit, and a count adds them
 * reply by reply as reading the files did. Model names and paths are numbers in a table of
 * strings the caller keeps (`Strings`), so the same path in a thousand sessions is written once.
 *
 * Every branch counts: work left on a branch was still done. A fork's copies of its parent's
 * messages (older than the fork) are the parent's, and counted there.
 */
import { closeSync, readSync } from "node:fs";
import { readEntries, type EntryReading, type SessionHeader } from "../sessions/entries.js";
import { openSessionFile } from "../sessions/lines.js";
import { callsIn } from "../sessions/other-text.js";
import { usageOf, type Usage } from "../sessions/session-document.js";
import { toMillis } from "../sessions/text.js";
import { FastHash } from "../hash.js";

export const QUARTER_HOUR_MS = 15 * 60_000;

/** A row of sums: its key (a quarter hour, or a model's string), then `SUMS` numbers. */
export const ROW = 6;
/** messages, input, output, cacheRead, cacheWrite */
export const SUMS = 5;
/** A reply's cost: its model's string, its quarter hour, the cost. */
export const COST = 3;

/** A column of numbers: as counted, or a view of the cache's numbers (stats-cache.ts). */
export type Column = readonly number[] | Float64Array;

export interface FileFacts {
  /** The first and the last counted message's time (ms), null when none was counted. */
  first: number | null;
  last: number | null;
  /**
   * Rows of `ROW` numbers: the quarter hour (ms ÷ QUARTER_HOUR_MS), then the sums of its messages;
   * oldest first.
   */
  quarters: Column;
  /** Rows of `ROW` numbers: the model's string, then the sums of its replies. */
  models: Column;
  /** Pairs: a touched file's string, the calls that touched it. */
  files: Column;
  /**
   * Rows of `COST` numbers, in file order: each reply with a cost, its model's string, its quarter
   * hour, its cost.
   */
  costs: Column;
}

/** Strings by number, each once. */
export class Strings {
  private readonly ids = new Map<string, number>();

  constructor(readonly list: string[] = []) {
    list.forEach((text, id) => this.ids.set(text, id));
  }

  id(text: string): number {
    let id = this.ids.get(text);
    if (id === undefined) this.ids.set(text, (id = this.list.push(text) - 1));
    return id;
  }
}

/**
 * Which session a file is and which of its messages count: its folder (calls' relative paths are
 * its), its fork time.
 */
export interface FileScope {
  cwd: string;
  /**
   * ms: messages older than this are a fork's copies of its parent's. Null for a session that is no
   * fork.
   */
  forked: number | null;
}

export interface TimeWindow {
  since?: number;
  until?: number;
}

class Sums {
  private readonly rows = new Map<number, number[]>();

  add(key: number, usage: Usage | undefined): void {
    const row = this.row(key);
    row[0]!++;
    if (usage) {
      row[1]! += usage.input;
      row[2]! += usage.output;
      row[3]! += usage.cacheRead;
      row[4]! += usage.cacheWrite;
    }
  }

  addRows(flat: Column): void {
    for (let i = 0; i < flat.length; i += ROW) {
      const row = this.row(flat[i]!);
      for (let k = 0; k < SUMS; k++) row[k]! += flat[i + 1 + k]!;
    }
  }

  flat(): number[] {
    return [...this.rows].sort(([a], [b]) => a - b).flatMap(([key, sums]) => [key, ...sums]);
  }

  private row(key: number): number[] {
    let row = this.rows.get(key);
    if (!row) this.rows.set(key, (row = new Array<number>(SUMS).fill(0)));
    return row;
  }
}

/** Sums facts message by message, on top of earlier facts of the same file (an append's). */
class FactsBuilder {
  private first: number | null;
  private last: number | null;
  private readonly quarters = new Sums();
  private readonly models = new Sums();
  private readonly files = new Map<number, number>();
  private readonly costs: number[];

  constructor(base?: FileFacts) {
    this.costs = base ? [...base.costs] : [];
    this.first = base?.first ?? null;
    this.last = base?.last ?? null;
    if (!base) return;
    this.quarters.addRows(base.quarters);
    this.models.addRows(base.models);
    for (let i = 0; i < base.files.length; i += 2)
      this.files.set(base.files[i]!, base.files[i + 1]!);
  }

  message(at: number, model: number | undefined, usage: Usage | undefined): void {
    if (this.first === null || at < this.first) this.first = at;
    if (this.last === null || at > this.last) this.last = at;
    const quarter = Math.floor(at / QUARTER_HOUR_MS);
    this.quarters.add(quarter, usage);
    if (model !== undefined) this.models.add(model, usage);
    if (model !== undefined && usage && usage.cost !== 0)
      this.costs.push(model, quarter, usage.cost);
  }

  file(path: number): void {
    this.files.set(path, (this.files.get(path) ?? 0) + 1);
  }

  facts(): FileFacts {
    return {
      first: this.first,
      last: this.last,
      quarters: this.quarters.flat(),
      models: this.models.flat(),
      files: [...this.files].flat(),
      costs: this.costs,
    };
  }
}

export interface FactsReading {
  facts: FileFacts;
  /**
   * Where reading on would start: just past the last complete line, with its line number and the
   * header found.
   */
  end: number;
  lineNo: number;
  header: SessionHeader;
}

/**
 * The facts of the session file at `path`, of the messages in `window` (all when none). With
 * `from` and `base`, the file is read from where an earlier reading ended and its facts added to
 * `base`, the facts of what it had read. Throws what reading the file throws.
 */
export function readFileFacts(
  path: string,
  scope: FileScope,
  strings: Strings,
  options: { window?: TimeWindow; from?: EntryReading["from"]; base?: FileFacts } = {},
): FactsReading {
  const { since, until } = options.window ?? {};
  const builder = new FactsBuilder(options.base);
  const read = readEntries(
    path,
    ({ value }) => {
      if (value.type !== "message") return;
      const message = value.message as Record<string, unknown> | undefined;
      if (!message || (message.role !== "user" && message.role !== "assistant")) return;
      const at = toMillis(message.timestamp) ?? toMillis(value.timestamp);
      if (at === undefined || (scope.forked !== null && at < scope.forked)) return;
      if ((since !== undefined && at < since) || (until !== undefined && at > until)) return;
      if (message.role === "user") return builder.message(at, undefined, undefined);
      const model =
        typeof message.model === "string" && message.model
          ? typeof message.provider === "string" && message.provider
            ? `${message.provider}/${message.model}`
            : message.model
          : "(unknown)";
      builder.message(at, strings.id(model), usageOf(message.usage));
      for (const call of callsIn(message.content, scope.cwd))
        for (const file of call.files) builder.file(strings.id(file));
    },
    { skip: (head) => NOT_COUNTED.test(head), from: options.from },
  );
  return { facts: builder.facts(), end: read.end, lineNo: read.nextLineNo, header: read.header };
}

/**
 * A line that says at its start it holds a message of a role never counted (tool output, mostly:
 * the bulk of a file), left unparsed.
 */
const NOT_COUNTED = /"message":\{"role":"(toolResult|bashExecution|custom|system)"/;

const EDGE_BYTES = 4096;

/**
 * A fingerprint of the file's first and last 4 KB before `end`: a file that only grew past `end`
 * keeps it; one rewritten (Pi migrates an old file by writing it anew, header first) does not,
 * unless only bytes between those two changed.
 * Undefined when the file cannot be read.
 */
export function edgesOf(path: string, end: number): string | undefined {
  let fd: number;
  try {
    fd = openSessionFile(path);
  } catch {
    return undefined;
  }
  try {
    const head = Buffer.alloc(Math.min(EDGE_BYTES, end));
    const tail = Buffer.alloc(Math.min(EDGE_BYTES, end));
    if (readSync(fd, head, 0, head.length, 0) !== head.length) return undefined;
    if (readSync(fd, tail, 0, tail.length, end - tail.length) !== tail.length) return undefined;
    return new FastHash().update(head.toString("latin1")).update(tail.toString("latin1")).digest();
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
