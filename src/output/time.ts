/**
 * Time bounds as users write them: `7d`, `24h`, `2w`, `30m`, `today`, `yesterday`, or an ISO date
 * (`2026-11-01`, local midnight) or date-time.
 */
import { RecallError } from "../errors.js";

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

function startOfDay(ms: number): number {
  const day = new Date(ms);
  day.setHours(0, 0, 0, 0);
  return day.getTime();
}

/** ms since epoch for a time bound; `now` makes relative bounds testable. */
export function parseTime(text: string, now: number = Date.now()): number {
  const value = text.trim();
  const relative = RELATIVE.exec(value);
  if (relative) return now - Number(relative[1]) * UNIT_MS[relative[2]!.toLowerCase()]!;
  if (value === "today") return startOfDay(now);
  if (value === "yesterday") return startOfDay(startOfDay(now) - 1);
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const [y, m, d] = value.split("-").map(Number);
    const local = new Date(y!, m! - 1, d!).getTime();
    if (Number.isFinite(local)) return local;
  }
  if (/^\d{4}-\d{2}-\d{2}T/.test(value)) {
    const ms = Date.parse(value);
    if (Number.isFinite(ms)) return ms;
  }
  throw new RecallError("BAD_INPUT", `cannot read the time "${text}": use 7d, 24h, 2w, today, yesterday, or a date like 2026-11-01`);
}
