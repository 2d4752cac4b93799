/**
 * The facade's exports (`recall.exports`): a session as a document to render, rendered as Markdown
 * or HTML (see export.ts), or as a page shows it (session-view.ts), a local session or an archived
 * one. A local session is held whole in memory: its file is checked first to be a regular file of
 * at most `MAX_SESSION_BYTES` (file-guard.ts), before anything of it is read.
 */
import type { Archive } from "../../archive/archive.js";
import {
  exportedSession,
  exportSession,
  type ExportedSession,
  type ExportOptions,
} from "../export.js";
import type { SessionRef } from "../resolve-session.js";
import {
  archivedSessionView,
  loadRenderers,
  sessionStylesheet,
  sessionView,
  type SessionView,
} from "../session-view.js";
import { checkWholeSessionFile, MAX_SESSION_BYTES } from "../../sessions/file-guard.js";
import type { SessionSummary } from "../../answers/session-summary.js";
import type { Sessions } from "./sessions.js";

/** An archived session's page is read in pages this large, and at most this many. */
const MAX_VIEW_PAGE_CHARS = 200_000;
const MAX_VIEW_PAGES = 50;

export class Exports {
  constructor(
    private readonly sessions: Sessions,
    private readonly archive: () => Archive,
  ) {}

  /**
   * A whole session as one text to read elsewhere: Markdown (`format: "md"`, the default) or one
   * self-contained HTML file (`"html"`: no script, nothing fetched, session text escaped). With
   * `redact`, secrets are replaced as a push to an archive replaces them. A session file that is
   * not a regular file (UNSAFE_FILE) or is over `MAX_SESSION_BYTES` (FILE_TOO_LARGE) is refused
   * before anything of it is read.
   */
  async render(ref: string | SessionRef, options: ExportOptions = {}): Promise<string> {
    return exportSession(await this.checked(ref), options);
  }

  /**
   * The session an export renders: every entry a reader sees, as blocks, with its project and tags.
   */
  async document(
    ref: string | SessionRef,
    options: Omit<ExportOptions, "format"> = {},
  ): Promise<ExportedSession> {
    return exportedSession(await this.checked(ref), options);
  }

  /**
   * A session as a page shows it: header fields and its conversation as HTML, a part per shown
   * entry (`recall serve`); its file checked as `render` checks it.
   */
  async view(
    ref: string | SessionRef,
    options: Pick<ExportOptions, "allBranches" | "redact"> = {},
  ): Promise<SessionView> {
    return sessionView(await this.checked(ref), options);
  }

  /**
   * A session of the remote named `remote` as a page shows it: every page of it read, a message a
   * part (its errors as `recall.archive.read`'s).
   */
  async archivedView(remote: string, session: string): Promise<SessionView> {
    const archive = this.archive();
    const pages = [await archive.read(remote, session, { maxChars: MAX_VIEW_PAGE_CHARS })];
    for (
      let cursor = pages[0]!.page.nextCursor;
      cursor !== null && pages.length < MAX_VIEW_PAGES;
      cursor = pages[pages.length - 1]!.page.nextCursor
    ) {
      pages.push(await archive.read(remote, session, { cursor, maxChars: MAX_VIEW_PAGE_CHARS }));
    }
    return archivedSessionView(pages);
  }

  /** The stylesheet of a session's parts (an HTML export's). */
  stylesheet(): Promise<string> {
    return sessionStylesheet();
  }

  /** Loads the renderers ahead of the first `view` or `render` (~100 ms, once per process). */
  loadRenderers(): Promise<void> {
    return loadRenderers();
  }

  private async checked(ref: string | SessionRef): Promise<SessionSummary> {
    const session = await this.sessions.session(ref);
    checkWholeSessionFile(
      session.path,
      MAX_SESSION_BYTES,
      "an export holds the whole session at once; read it in pages instead",
    );
    return this.sessions.get(session);
  }
}
