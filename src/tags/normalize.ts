/**
 * What a tag is: lowercase letters, digits, `_` and `-`, nothing else. Anything a user types is
 * folded into that shape, so `#Rust/Search!`, `rust search` and `RUST-search` are one tag,
 * `rust-search`. The leading `#` needs no rule of its own: like any other character outside
 * the set it turns into a `-`, which is then trimmed.
 */
import { RecallError } from "../errors.js";
import { quote } from "../quote.js";

/** Longer than any word a person tags with; stops a pasted paragraph from becoming a tag. */
export const MAX_TAG_CHARS = 64;

/** The tag `raw` stands for, or "" if it has no letter, digit or `_`. */
export function normalizeTag(raw: string): string {
  return (
    raw
      // One form for accented letters, so `é` typed two ways is one tag.
      .normalize("NFC")
      .toLowerCase()
      // `-` is in the class so that runs like ` - ` or `--` end up as a single `-`.
      .replace(/[^\p{L}\p{M}\p{N}_]+/gu, "-")
      .replace(/^-+|-+$/g, "")
  );
}

/**
 * The tags a user asked for, normalized and without repeats; a tag that normalizes to nothing is an
 * error.
 */
export function parseTags(raws: readonly string[]): string[] {
  const tags: string[] = [];
  for (const raw of raws) {
    const tag = normalizeTag(raw);
    if (!tag)
      throw new RecallError(
        "BAD_INPUT",
        `${quote(raw)} is not a tag: a tag needs at least one letter, digit or _`,
      );
    if ([...tag].length > MAX_TAG_CHARS)
      throw new RecallError(
        "BAD_INPUT",
        `${quote(raw)} is too long for a tag (at most ${MAX_TAG_CHARS} characters)`,
      );
    if (!tags.includes(tag)) tags.push(tag);
  }
  return tags;
}
