/**
 * What `recall tag`, `untag` and `tags <session>` share: naming sessions (id, id prefix, path,
 * or `-` for those on stdin) and printing a session's tags.
 */
import { Option } from "clipanion";
import { resolveSession, type SessionRef } from "../api/resolve-session.js";
import type { SessionTags } from "../api/tags.js";
import { RecallError } from "../errors.js";
import type { IndexStore } from "../store.js";
import { formatTags } from "../tags/normalize.js";
import { damagedTagStore, takeTagNotices } from "../tags/open-tags.js";
import { BaseCommand } from "./base-command.js";
import { readSessionArgs, syncForIds } from "./session-args.js";

export abstract class SessionTagsCommand extends BaseCommand {
  json = Option.Boolean("--json", false, { description: "Print one JSON object per session (JSON Lines)" });

  /**
   * The sessions `args` name. One that cannot be resolved is reported and skipped when there are
   * several, so a list piped in is not stopped by one stale id; `failed` says it happened.
   */
  protected async resolveSessions(store: IndexStore, args: string[]): Promise<{ sessions: SessionRef[]; failed: boolean }> {
    // Tag commands need the tag database: a damaged one stops them before a sync says so too.
    const damaged = damagedTagStore(store);
    if (damaged) throw damaged;
    const refs = await readSessionArgs(args, this.context.stdin);
    for (const notice of await syncForIds(store, refs)) this.warn(notice);
    const sessions: SessionRef[] = [];
    let failed = false;
    for (const ref of refs) {
      try {
        sessions.push(await resolveSession(store, ref, this.context.cwd));
      } catch (error) {
        if (!(error instanceof RecallError) || refs.length === 1) throw error;
        this.warn(`${ref}: ${error.message}`);
        failed = true;
      }
    }
    return { sessions, failed };
  }

  /** Notices the tag store left for the user (a pi-recall import), if no sync printed them. */
  protected warnTagNotices(store: IndexStore): void {
    for (const notice of takeTagNotices(store)) this.warn(notice);
  }

  /** `<id>  #a #b`, then which of those are automatic and which tags are suppressed. */
  protected printSessionTags(tags: SessionTags): void {
    if (this.json) {
      this.out(JSON.stringify(tags));
      return;
    }
    const paint = this.paint;
    this.out(`${tags.id}  ${tags.tags.length > 0 ? paint.magenta(formatTags(tags.tags)) : paint.dim("(no tags)")}`);
    if (tags.auto.length > 0) this.out(`  ${paint.dim("automatic:")}  ${formatTags(tags.auto)}`);
    if (tags.suppressed.length > 0) this.out(`  ${paint.dim("suppressed:")} ${formatTags(tags.suppressed)}`);
  }
}
