import { Command } from "clipanion";
import { sinceOption, untilOption } from "../message-window.js";
import { Option } from "../options.js";
import { isEnum, isNumber } from "typanion";
import {
  DEFAULT_RELATED_LIMIT,
  MATCH_MODES,
  meaningIncomplete,
  type RelatedHit,
  type RelatedPage,
} from "../../index.js";
import { Exit, type ExitCode } from "../exit.js";
import { SessionsCommand } from "../sessions-command.js";
import { relatedHitRecord } from "../wire.js";
import { terminalText } from "../../output/terminal-text.js";

/** How many of the shared words a person sees beside a hit (`--json` has them all). */
const SHOWN_WORDS = 6;

/**
 * Why a hit is related: the distinctive words it shares, the most distinctive first, and what found
 * it.
 */
function whyRelated(hit: RelatedHit): string[] {
  const details: string[] = [];
  const more = hit.shared.length > SHOWN_WORDS ? ", …" : "";
  if (hit.shared.length > 0)
    details.push(terminalText(`shares ${hit.shared.slice(0, SHOWN_WORDS).join(", ")}${more}`));
  if (hit.matchedBy)
    details.push(`related by ${hit.matchedBy === "both" ? "words and meaning" : hit.matchedBy}`);
  return details;
}

export class RelatedCommand extends SessionsCommand {
  static paths = [["related"]];

  static usage = Command.Usage({
    description: "find the Pi sessions nearest one session",
    details: `
      Names a session by id, unique id prefix or file path, and prints the sessions nearest it, best first, one block each, as \`recall search\` does, each with the words it shares with it. By words: the session's distinctive words (the words of its conversation that the fewest other messages hold, weighed by how often it says them) are searched for in every other session, and a session whose best message holds more of them, and rarer ones, ranks higher. By meaning (with the model package recall-pi-model-minilm and \`recall index --meaning\`): the sessions whose conversation, taken as a whole, lies nearest it in meaning, whatever their words. The default is both, the two rankings fused, when the model package is installed, and words otherwise; \`--match\` chooses. The session itself, its copies, the session it was forked from and its forks are left out.

      A session whose words no other session holds (or holds only in common words) has nothing related by words: the exit status is then 1. By meaning, nothing is related while the meaning index holds none of the session's messages (\`recall index --meaning\` embeds them).

      \`--here\`/\`--cwd\` keep the sessions of one folder, and \`--since\`/\`--until\` the messages of a time window, as for \`recall search\`. The index is brought up to date first, unless \`--no-sync\` is given.

      Exit status: 0 if a session was found, 1 if none was, 2 on error (an unknown or ambiguous session among them).
    `,
    examples: [
      ["The sessions nearest one session", "$0 related 01a0f6b1"],
      [
        "Only those of the current folder, from the last month",
        "$0 related --here --since 30d 01a0f6b1",
      ],
      [
        "The words each related session shares",
        "$0 related --json 01a0f6b1 | jq -c '[.name, .shared]'",
      ],
    ],
  });

  session = Option.String({ name: "session" });
  limit = Option.String("-n,--limit", String(DEFAULT_RELATED_LIMIT), {
    description: `Show at most N sessions (default ${DEFAULT_RELATED_LIMIT})`,
    validator: isNumber(),
  });
  since = sinceOption();
  until = untilOption();
  match = Option.String("--match", {
    description:
      "What relates a session: words (its distinctive words), meaning (its conversation's meaning, whatever the words) or both (the default with the model package recall-pi-model-minilm; words without it)",
    validator: isEnum(MATCH_MODES),
  });

  async run(): Promise<ExitCode> {
    const format = this.pipelineFormat();
    const { limit, cwd, since, until, now } = this.scope();
    const missing = this.noSessionsFolder();
    if (missing !== undefined) return missing;
    const page = await this.recall().related({
      session: this.session,
      limit,
      cwd,
      since,
      until,
      match: this.match,
      ...this.freshness(),
    });
    this.warnNotices();
    if (page.coverage && meaningIncomplete(page.coverage)) {
      this.warn(
        `the meaning index covers ${page.coverage.embedded} of ${page.coverage.messages} messages searched; \`recall index --meaning\` embeds the rest`,
      );
    }
    if (page.hits.length === 0) {
      if (!format)
        this.warn(this.nothingRelated(page, cwd, since !== undefined || until !== undefined));
      return Exit.NoMatch;
    }
    const print = (hit: RelatedHit) =>
      format
        ? this.record(hit, format, now, () => relatedHitRecord(hit, page.coverage))
        : this.block(hit, now, {
            snippet: hit.snippet,
            spans: hit.spans,
            details: whyRelated(hit),
          });
    this.context.stdout.write(page.hits.map(print).join(""));
    return Exit.Ok;
  }

  /**
   * Why nothing came back: no word of the session says what it is about (and, by meaning, the
   * meaning index holds none of its messages), or no other session in the scope asked is related.
   */
  private nothingRelated(page: RelatedPage, cwd: string | undefined, window: boolean): string {
    const session = terminalText(this.session);
    const byMeaning = page.coverage !== undefined;
    if (page.words.length === 0 && !byMeaning)
      return `${session} has no distinctive words that another session holds: nothing is related to it`;
    const where = cwd ? ` in ${terminalText(cwd)}` : "";
    const drop = [cwd ? "--here/--cwd" : "", window ? "--since/--until" : ""]
      .filter(Boolean)
      .join(" and ");
    const what = byMeaning
      ? `is related to ${session} (the meaning index holds none of its messages until \`recall index --meaning\` embeds them)`
      : `shares the distinctive words of ${session}`;
    return `no session${where}${window ? " in that time" : ""} ${what}${drop ? `; drop ${drop} to look further` : ""}`;
  }
}
