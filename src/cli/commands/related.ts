import { Command } from "clipanion";
import { Option } from "../options.js";
import { isNumber } from "typanion";
import { DEFAULT_RELATED_LIMIT, type RelatedHit } from "../../index.js";
import { Exit, type ExitCode } from "../exit.js";
import { SessionsCommand } from "../sessions-command.js";
import { relatedHitRecord } from "../wire.js";
import { terminalText } from "../../output/terminal-text.js";

/** How many of the shared words a person sees beside a hit (`--json` has them all). */
const SHOWN_WORDS = 6;

/** Why a hit is related: the distinctive words it shares, the most distinctive first. */
function sharedWords(hit: RelatedHit): string[] {
  if (hit.shared.length === 0) return [];
  const more = hit.shared.length > SHOWN_WORDS ? ", …" : "";
  return [terminalText(`shares ${hit.shared.slice(0, SHOWN_WORDS).join(", ")}${more}`)];
}

export class RelatedCommand extends SessionsCommand {
  static paths = [["related"]];

  static usage = Command.Usage({
    description: "find the Pi sessions nearest one session",
    details: `
      Names a session by id, unique id prefix or file path, and prints the sessions nearest it, best first, one block each, as \`recall search\` does, each with the words it shares with it. No model is involved: the session's distinctive words (the words of its conversation that the fewest other messages hold, weighed by how often it says them) are searched for in every other session, and a session whose best message holds more of them, and rarer ones, ranks higher. The session itself, its copies, the session it was forked from and its forks are left out.

      A session whose words no other session holds (or holds only in common words) has nothing related: the exit status is then 1.

      \`--here\`/\`--cwd\` keep the sessions of one folder, and \`--since\`/\`--until\` the messages of a time window, as for \`recall search\`. The index is brought up to date first, unless \`--no-sync\` is given.

      Exit status: 0 if a session was found, 1 if none was, 2 on error (an unknown or ambiguous session among them).
    `,
    examples: [
      ["The sessions nearest one session", "$0 related 01a0f6b1"],
      ["Only those of the current folder, from the last month", "$0 related --here --since 30d 01a0f6b1"],
      ["The words each related session shares", "$0 related --json 01a0f6b1 | jq -c '[.name, .shared]'"],
    ],
  });

  session = Option.String({ name: "session" });
  limit = Option.String("-n,--limit", String(DEFAULT_RELATED_LIMIT), {
    description: `Show at most N sessions (default ${DEFAULT_RELATED_LIMIT})`,
    validator: isNumber(),
  });
  since = Option.String("--since", { description: "Only messages from this time on: 7d, 24h, 2w, today, yesterday, 2026-11-01" });
  until = Option.String("--until", { description: "Only messages up to this time (same forms as --since)" });

  async run(): Promise<ExitCode> {
    const format = this.pipelineFormat();
    const { limit, cwd, since, until, now } = this.scope();
    const missing = this.noSessionsFolder();
    if (missing !== undefined) return missing;
    const page = await this.recall().related({ session: this.session, limit, cwd, since, until, ...this.freshness() });
    this.warnNotices();
    if (page.hits.length === 0) {
      if (!format) this.warn(this.nothingRelated(page.words.length > 0, cwd, since !== undefined || until !== undefined));
      return Exit.NoMatch;
    }
    const print = (hit: RelatedHit) =>
      format ? this.record(hit, format, now, () => relatedHitRecord(hit)) : this.block(hit, now, { snippet: hit.snippet, spans: hit.spans, details: sharedWords(hit) });
    this.context.stdout.write(page.hits.map(print).join(""));
    return Exit.Ok;
  }

  /** Why nothing came back: no word of the session says what it is about, or no other session (in the scope asked) shares one. */
  private nothingRelated(hasWords: boolean, cwd: string | undefined, window: boolean): string {
    const session = terminalText(this.session);
    if (!hasWords) return `${session} has no distinctive words that another session holds: nothing is related to it`;
    const where = cwd ? ` in ${terminalText(cwd)}` : "";
    const drop = [cwd ? "--here/--cwd" : "", window ? "--since/--until" : ""].filter(Boolean).join(" and ");
    return `no session${where}${window ? " in that time" : ""} shares the distinctive words of ${session}${drop ? `; drop ${drop} to look further` : ""}`;
  }
}
