/**
 * The facade's archived sessions: searching and reading a remote of config.json (src/archive)
 * for adapters that name the remote, as `search({ remote })` and `read(id, { remote })`. They
 * never touch the local index, so a local query never waits for a remote, and a remote's errors
 * name it only, never its URL or host: these answers go to models and other programs.
 */
import type { Archive } from "../../archive/archive.js";
import type { PullResult } from "../../archive/pull.js";
import type { ArchiveReadOptions, ArchiveReadResult } from "../../archive/read.js";
import { loadRemotes } from "../../archive/remotes.js";
import type { ArchiveSearchOptions, ArchiveSearchPage } from "../../archive/search.js";
import { loadConfig } from "../../config.js";
import type { IndexLease } from "./lease.js";
import { archivedSessionView, type SessionView } from "../session-view.js";

/** A search of the remote named `remote` (its options as `recall search --remote` takes them). */
export interface RemoteSearchOptions extends ArchiveSearchOptions {
  remote: string;
}

/** A page of a session of the remote named `remote`, named by id or unique id prefix. */
export interface RemoteReadOptions extends ArchiveReadOptions {
  remote: string;
}

/** An archived session's page is read in pages this large, and at most this many. */
const MAX_VIEW_PAGE_CHARS = 200_000;
const MAX_VIEW_PAGES = 50;

export class ArchivedSessions {
  private opened: Promise<Archive> | undefined;

  constructor(private readonly lease: IndexLease) {}

  /** The names of the remotes config.json lists, in its order; reading the file loads no client. */
  names(): string[] {
    const { overrides, env } = this.lease;
    return loadRemotes(loadConfig(this.lease.locations, env, overrides.cwd).path).map((remote) => remote.name);
  }

  async search({ remote, ...options }: RemoteSearchOptions): Promise<ArchiveSearchPage> {
    return (await this.archive()).search(remote, options);
  }

  async read(session: string, { remote, ...options }: RemoteReadOptions): Promise<ArchiveReadResult> {
    return (await this.archive()).read(remote, session, options);
  }

  /** A whole archived session as a page shows it (`recall serve`): every page of it read, a message a part. */
  async view(session: string, remote: string): Promise<SessionView> {
    const archive = await this.archive();
    const pages = [await archive.read(remote, session, { maxChars: MAX_VIEW_PAGE_CHARS })];
    for (let cursor = pages[0]!.page.nextCursor; cursor !== null && pages.length < MAX_VIEW_PAGES; cursor = pages[pages.length - 1]!.page.nextCursor) {
      pages.push(await archive.read(remote, session, { cursor, maxChars: MAX_VIEW_PAGE_CHARS }));
    }
    return archivedSessionView(pages);
  }

  /** Writes the session file the remote keeps into this machine's sessions folder (src/archive/pull.ts). */
  async pull(session: string, remote: string): Promise<PullResult> {
    return (await this.archive()).pull(remote, session);
  }

  /** The archive, loaded on first use: nothing else pays for the OpenSearch client. */
  private archive(): Promise<Archive> {
    this.opened ??= import("../../archive/archive.js").then(({ Archive }) => Archive.open({ ...this.lease.overrides, hostHidden: true }));
    return this.opened;
  }
}
