/**
 * What `recall tag`, `untag` and `tags <session>` share: the --json option and printing a
 * session's tags.
 */
import { Option } from "./options.js";
import type { SessionRef, SessionTags } from "../index.js";
import { formatTags } from "../output/session-text.js";
import { BaseCommand } from "./base-command.js";
import { sessionTagsRecord, wireLine } from "./wire.js";

export abstract class SessionTagsCommand extends BaseCommand {
  json = Option.Boolean("--json", false, {
    description: "Print one JSON object per session (JSON Lines)",
  });

  /** Tag commands need the tag database: a damaged one stops them before a sync says so too. */
  override async resolveSessions(
    args: string[],
  ): Promise<{ sessions: SessionRef[]; failed: boolean }> {
    await this.recall().tags.check();
    return super.resolveSessions(args);
  }

  /** `<id>  #a #b`, then which of those are automatic and which tags are suppressed. */
  protected printSessionTags(tags: SessionTags): void {
    if (this.json) {
      this.out(wireLine(sessionTagsRecord(tags)));
      return;
    }
    const paint = this.paint;
    this.out(
      `${tags.id}  ${tags.tags.length > 0 ? paint.magenta(formatTags(tags.tags)) : paint.dim("(no tags)")}`,
    );
    if (tags.auto.length > 0) this.out(`  ${paint.dim("automatic:")}  ${formatTags(tags.auto)}`);
    if (tags.suppressed.length > 0)
      this.out(`  ${paint.dim("suppressed:")} ${formatTags(tags.suppressed)}`);
  }
}
