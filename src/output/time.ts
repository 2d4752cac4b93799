/**
 * Time bounds as users write them: `7d`, `24h`, `2w`, `30m`, `today`, `yesterday`, or an ISO date
 * (`2026-11-01`, local time) or date-time. A day (a date, `today`, `yesterday`) starts a `--since`
 * window at its first moment and ends an `--until` window at its last, so `--since D --until D`
 * is the whole day D. A date that is not in the calendar (`2026-11-31`) is refused.
 */
import { RecallError } from "../errors.js";
import { quote } from "./quote.js";

const RELATIVE = /^(\d+)\s*(m|min|h|d|w|mo|y)$/i;
const UNIT_MS: Record<string, number> = {
  m: 60e3,
  min: 60e3,
  h: 3600e3,
  d: 24 * 3600e3,
  w: 7 * 24 * 3600e3,
  mo: 30 * 24 * 3600e3,
  y: 365 * 24 * 3600e3,
};
const DATE = /^(\d{4})-(\d{2})-(\d{2})/;

/**
 * Which end of a window a time bounds: a day is its first moment for `start`, its last for `end`.
 */
export type TimeBound = "start" | "end";

/**
 * The local day `days` after the one holding `ms` (0: that day), as its first moment or its last.
 */
function dayEdge(ms: number, days: number, bound: TimeBound): number {
  const day = new Date(ms);
  day.setHours(0, 0, 0, 0);
  day.setDate(day.getDate() + days + (bound === "end" ? 1 : 0));
  return day.getTime() - (bound === "end" ? 1 : 0);
}

/** The local midnight of a calendar date, or undefined for one that does not exist (Nov 31). */
function calendarDate(year: number, month: number, date: number): number | undefined {
  const day = new Date(year, month - 1, date);
  return day.getFullYear() === year && day.getMonth() === month - 1 && day.getDate() === date
    ? day.getTime()
    : undefined;
}

function noSuchDate(text: string, year: number, month: number): RecallError {
  if (month < 1 || month > 12)
    return new RecallError("BAD_INPUT", `there is no date ${text}: a month is 01 to 12`);
  const days = new Date(year, month, 0).getDate();
  return new RecallError("BAD_INPUT", `there is no date ${text}: that month has ${days} days`);
}

/** ms since epoch for a time bound; `now` makes relative bounds testable. */
export function parseTime(
  text: string,
  now: number = Date.now(),
  bound: TimeBound = "start",
): number {
  const value = text.trim();
  const relative = RELATIVE.exec(value);
  if (relative) return now - Number(relative[1]) * UNIT_MS[relative[2]!.toLowerCase()]!;
  if (value === "today") return dayEdge(now, 0, bound);
  if (value === "yesterday") return dayEdge(now, -1, bound);
  const date = DATE.exec(value);
  if (date && (value.length === 10 || value[10] === "T")) {
    const [, year, month, day] = date.map(Number) as [number, number, number, number];
    const midnight = calendarDate(year, month, day);
    if (midnight === undefined) throw noSuchDate(date[0], year, month);
    if (value.length === 10) return dayEdge(midnight, 0, bound);
    const ms = Date.parse(value);
    if (Number.isFinite(ms)) return ms;
  }
  throw new RecallError(
    "BAD_INPUT",
    `cannot read the time ${quote(text)}: use 7d, 24h, 2w, today, yesterday, or a date like 2026-11-01`,
  );
}
