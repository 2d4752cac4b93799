/**
 * What `recall serve`'s HTTP API answers, as JSON: the one definition the server (src/serve) and
 * the browser's front end (web/) share. Session text is data here; the front end shows it as
 * text (snippets) or as the HTML the library rendered from it (a session's parts).
 */
import type { HeaderField, Match, TagCount, TextKind } from "../index.js";

/** A piece of a snippet, marked when the query's words matched it. */
export interface SnippetPiece {
  text: string;
  match: boolean;
}

export interface WebOrigin {
  remote: string;
  machine: string;
  user: string;
}

export interface WebHit {
  id: string;
  title: string;
  project: string;
  folder: string;
  /** ISO 8601 */
  modified: string;
  messages: number;
  tags: string[];
  snippet: SnippetPiece[];
  /** Which ranking found it (meaning or both searches). */
  matchedBy: Match | null;
  /** The entry that matched, to scroll to; null when only tags matched. */
  entryId: string | null;
  kind: TextKind | null;
  /** A session of the archive: where it lives. */
  origin: WebOrigin | null;
}

export interface SearchAnswer {
  hits: WebHit[];
  nextCursor: string | null;
  /** The query as searched, when a word was read as its nearest one. */
  readAs: string | null;
  /** A note to show above the hits (the meaning index incomplete). */
  note: string | null;
}

/** What the page needs to know once. */
export interface ServeInfo {
  version: string;
  /** The folder `serve` started in: the `folder` and `project` scopes. */
  folder: string;
  project: string;
  /** The match modes a search takes here (meaning ones only with the model). */
  matchModes: Match[];
  /** Remotes of the config: each an archive scope. */
  remotes: string[];
  /** The remote `--remote` chose: the archive scope to start in. */
  remote: string | null;
  /**
   * What is wrong with the sessions folder (none yet: Pi has not run), for a page with nothing to
   * show.
   */
  sessionsNote: string | null;
}

export interface SessionAnswer {
  id: string;
  title: string;
  fields: HeaderField[];
  resume: string;
  tags: string[];
  folder: string;
  project: string;
  /** Parts in the session. */
  total: number;
  /** The parts sent: `parts[0]` is part number `from`. */
  from: number;
  parts: PartAnswer[];
  /** The part holding the entry asked for, or -1. */
  marked: number;
  /** A session of the archive: where it lives (a read-only page of its messages). */
  origin: WebOrigin | null;
}

/** The parts of a session sent at once, as the reader scrolls: not the whole of a long session. */
export const PARTS_PER_PAGE = 50;

/**
 * The parts of a session page's first answer: a first screen, drawn before the rest is asked for.
 */
export const FIRST_SCREEN_PARTS = 8;

export interface PartAnswer {
  /** HTML the library rendered: session text escaped, Markdown without raw HTML. */
  html: string;
  entryIds: string[];
}

export interface PartsAnswer {
  from: number;
  parts: PartAnswer[];
}

/** A session pulled from the archive: the line that resumes it here. */
export interface PullAnswer {
  id: string;
  /** The same file was here already. */
  alreadyHere: boolean;
  resume: string;
}

export interface TagsAnswer {
  tags: string[];
  /** Every tag in the index and its sessions, for suggestions. */
  all: TagCount[];
}

export interface ChartAnswer {
  title: string;
  /**
   * An SVG drawing, its labels escaped (presentation attributes only: the page's policy allows no
   * style attribute).
   */
  svg: string;
}

export interface ActivityAnswer {
  totals: { sessions: number; messages: number; tokens: number; cost: number };
  charts: ChartAnswer[];
  files: Array<{ path: string; calls: number; sessions: number }>;
  unreadable: number;
}

/** What the live feed sends after each sync that changed the index. */
export interface LiveEvent {
  /** ms since epoch */
  at: number;
}

export interface ErrorAnswer {
  error: string;
  code: string;
}
