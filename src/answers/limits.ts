/**
 * How much one answer holds: results per page of a search or listing, characters per page of a
 * read.
 */
import { RecallError } from "../errors.js";

export const DEFAULT_LIMIT = 20;
/** The most results a search or a listing returns at once (`limit`); pages go on past it. */
export const MAX_LIMIT = 10_000;

/** `limit`, checked: a whole number from 1 to `MAX_LIMIT`. */
export function checkedLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new RecallError(
      "BAD_INPUT",
      `limit must be a whole number from 1 to ${MAX_LIMIT}, not ${limit}`,
      { field: "limit" },
    );
  }
  return limit;
}

export const DEFAULT_PAGE_CHARS = 100_000;
export const MIN_PAGE_CHARS = 100;

/** `maxChars` of a read page, checked: a whole number of at least `MIN_PAGE_CHARS`. */
export function checkedPageChars(maxChars: number): number {
  if (!Number.isInteger(maxChars) || maxChars < MIN_PAGE_CHARS) {
    throw new RecallError(
      "BAD_INPUT",
      `maxChars must be a whole number of at least ${MIN_PAGE_CHARS}, not ${maxChars}`,
      { field: "maxChars" },
    );
  }
  return maxChars;
}
