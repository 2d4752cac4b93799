/**
 * The facade's sessions: finding them (search, list, resolve), reading them (read, context,
 * guarded for files named by a remote caller) and what a command needs of one (its summary, how
 * to resume it). Every index access goes through the lease, which keeps the index fresh.
 */
import { mayComeFromDamage } from "../../sync/repair.js";
import { countSessions, listSessions, type ListOptions } from "../list.js";
import type { ContextOptions, ContextResult } from "../context.js";
import type { ReadOptions, ReadResult } from "../read.js";
import {
  looksLikePath,
  resolveSession,
  sessionSummary,
  type SessionRef,
} from "../resolve-session.js";
import { relatedSessions, type RelatedOptions, type RelatedPage } from "../related.js";
import { resumePlan, type ResumePlan } from "../resume.js";
import { searchPage, type SearchOptions, type SearchPage } from "../search.js";
import type { Stats, StatsOptions } from "../stats.js";
import { checkSessionFile, guardedRead, type FileIdentity } from "../../sessions/file-guard.js";
import type { SessionSummary } from "../../answers/session-summary.js";
import type { Freshness, IndexLease } from "./lease.js";
import type { MeaningCatchUp } from "./meaning-catch-up.js";

/** A session as commands name it, resolved; or why it could not be. */
export type Resolved = { ref: string; session: SessionRef } | { ref: string; error: unknown };

export class Sessions {
  constructor(
    private readonly lease: IndexLease,
    private readonly catchUp: MeaningCatchUp,
  ) {}

  async search<T>(
    options: SearchOptions & Freshness,
    present?: (page: SearchPage) => T,
  ): Promise<T | SearchPage> {
    // The model loads while the index is brought up to date: asked for, or for the default
    // (`both` where the model is installed, search.ts), which never fails for it.
    const meaning =
      options.match === "words"
        ? undefined
        : options.match === undefined
          ? this.lease.meaningIfUsable()
          : this.lease.meaning();
    // Its failure (a damaged model file) is the search's, when the search awaits it.
    meaning?.catch(() => undefined);
    return this.lease.fresh(options, async (store) => {
      const loaded = (await meaning) ?? undefined;
      const page = await searchPage(store, options, loaded);
      if (loaded && page.coverage) this.catchUp.searched(store, loaded, page.coverage);
      return present ? present(page) : page;
    });
  }

  async list<T>(
    options: ListOptions & Freshness,
    present?: (sessions: SessionSummary[]) => T,
  ): Promise<T | SessionSummary[]> {
    return this.lease.fresh(options, async (store) => {
      const sessions = await listSessions(store, options);
      return present ? present(sessions) : sessions;
    });
  }

  /** An id is resolved after a sync (see resolveAll), which then stands for the query's own. */
  async related(options: RelatedOptions & Freshness): Promise<RelatedPage> {
    const ref = options.session;
    const synced = typeof ref === "string" && !looksLikePath(ref) && options.sync !== false;
    const session =
      typeof ref === "string" && options.sync === false
        ? await this.resolveAsIs(ref)
        : await this.session(ref);
    const meaning = (options.match ?? "both") === "words" ? null : await this.lease.meaningIndex();
    return this.lease.fresh(synced ? { ...options, sync: false } : options, (store) =>
      relatedSessions(store, session, options, meaning),
    );
  }

  async stats(options: StatsOptions & Freshness): Promise<Stats> {
    return this.lease.fresh(options, () => this.lease.stats(options));
  }

  async count(options: Pick<ListOptions, "cwd">): Promise<number> {
    return countSessions(await this.lease.store(), options);
  }

  checkFile(session: SessionRef): FileIdentity {
    return checkSessionFile(this.lease.locations.sessionsDir, session.path);
  }

  readGuarded(
    session: SessionRef,
    options: ReadOptions,
    expected?: FileIdentity,
  ): Promise<ReadResult> {
    return guardedRead(this.lease.locations.sessionsDir, session.path, expected, () =>
      this.read(session, options),
    );
  }

  contextGuarded(
    session: SessionRef,
    question: string,
    options: ContextOptions,
    expected?: FileIdentity,
  ): Promise<ContextResult> {
    return guardedRead(this.lease.locations.sessionsDir, session.path, expected, () =>
      this.context(session, question, options),
    );
  }

  async resolve(ref: string): Promise<SessionRef> {
    const [resolved] = await this.resolveAll([ref]);
    if ("error" in resolved!) throw resolved.error;
    return resolved!.session;
  }

  /** A session given as a reference or already resolved. */
  async session(ref: string | SessionRef): Promise<SessionRef> {
    return typeof ref === "string" ? this.resolve(ref) : ref;
  }

  async resolveAll(refs: readonly string[]): Promise<Resolved[]> {
    // Ids are looked up after a sync, so a session Pi has just started is found; paths need none.
    return this.lease.repairing(async () => {
      if (refs.some((ref) => !looksLikePath(ref)))
        await this.lease.freshen(await this.lease.store(), { trustWatcher: false });
      return this.resolveEach(refs);
    });
  }

  /** A session by reference, from the index as it is. */
  private async resolveAsIs(ref: string): Promise<SessionRef> {
    const [resolved] = await this.lease.repairing(() => this.resolveEach([ref]));
    if ("error" in resolved!) throw resolved.error;
    return resolved!.session;
  }

  private async resolveEach(refs: readonly string[]): Promise<Resolved[]> {
    const store = await this.lease.store();
    const resolved: Resolved[] = [];
    for (const ref of refs) {
      try {
        resolved.push({ ref, session: await resolveSession(store, ref, this.lease.overrides.cwd) });
      } catch (error) {
        // Damaged index files fail every ref alike: repaired (see repairing), not reported per ref.
        if (mayComeFromDamage(error)) throw error;
        resolved.push({ ref, error });
      }
    }
    return resolved;
  }

  /**
   * `sync: false`: an id is looked up in the index as it is (a caller that follows it, as `serve`).
   */
  async get(ref: string | SessionRef, options: Freshness = {}): Promise<SessionSummary> {
    const session =
      typeof ref === "string" && options.sync === false
        ? await this.resolveAsIs(ref)
        : await this.session(ref);
    return sessionSummary(await this.lease.store(), session);
  }

  async read(ref: string | SessionRef, options: ReadOptions): Promise<ReadResult> {
    return this.lease.read(await this.session(ref), options);
  }

  async context(
    ref: string | SessionRef,
    question: string,
    options: ContextOptions,
  ): Promise<ContextResult> {
    return this.lease.context(await this.session(ref), question, options);
  }

  async resumePlan(ref: string | SessionRef): Promise<ResumePlan> {
    return resumePlan(await this.session(ref));
  }
}
