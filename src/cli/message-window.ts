/**
 * `--since` and `--until` of the commands that keep the messages of a time window (`search`,
 * `related`): one wording for both. `list` and `push` keep sessions by their activity instead.
 */
import { Option } from "./options.js";

export const sinceOption = () =>
  Option.String("--since", {
    description: "Only messages from this time on: 7d, 24h, 2w, today, yesterday, 2026-11-01",
  });
export const untilOption = () =>
  Option.String("--until", {
    description: "Only messages up to this time (same forms as --since)",
  });
