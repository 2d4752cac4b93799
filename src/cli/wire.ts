/**
 * The JSON Lines the CLI prints with `--json`: the documented wire format (docs/search.md, "JSON
 * output", and each command's section in docs/), kept apart from the library's types. Each record
 * is built field by field from the library's objects, so a field added to a library type never
 * reaches the output by accident, and a field here is a promise: fields may be added, none removed
 * or changed in meaning.
 */
import type {
  AskResult,
  AutoTagResult,
  ContextMessage,
  ContextSummary,
  DoctorCheck,
  MalformedLine,
  MeaningCoverage,
  MeaningReport,
  ReadMessage,
  ReadPage,
  RelatedHit,
  ResumePlan,
  SearchHit,
  SessionSummary,
  SessionTags,
  SyncFailure,
  SyncReport,
  TagCount,
} from "../index.js";
import type {
  ArchiveHit,
  ArchiveReadResult,
  ForgetReport,
  IdentifiedDocument,
  KeptFile,
  Origin,
  PullResult,
  PushReport,
  Remote,
  RemoteCheck,
  SessionSecrets,
} from "../index.js";
import type { Activity, Stats } from "../index.js";
import { doctorFixWords } from "./error-words.js";

// Each record's type is written out here, field by field, with the wire's own types: none is
// derived from a library type, so a library field that changes type is a compile error in the
// function that copies it, never a silent change of the output.

/** A session, as `list` prints it (and the first fields of a search hit). */
export interface SessionRecord {
  id: string;
  path: string;
  cwd: string;
  project: string;
  name: string | null;
  created: string;
  modified: string;
  messageCount: number;
  firstMessage: string;
  parent: string | null;
  tags: string[];
}

/** A search hit: the session, then how it matched. */
export interface SearchHitRecord extends SessionRecord {
  score: number;
  message: {
    kind: string;
    tool?: string;
    role: string;
    index: number;
    entryId: string;
    timestamp: string;
  } | null;
  snippet: string;
  spans: [number, number][];
  calls?: { tool: string; path: string; entryId: string }[];
  /** With `--match meaning` or `both`: which ranking found the session. */
  matchedBy?: string;
  /**
   * With `--match meaning` or `both`, while the meaning index is incomplete: how much of the
   * searched messages it covers.
   */
  meaningCoverage?: { embedded: number; messages: number };
}

/** A message, as `read --json` prints it. */
export interface MessageRecord {
  type: "message";
  index: number;
  entryId: string;
  role: string;
  timestamp: string;
  text: string;
  branch?: "active" | "abandoned";
  toolName?: string;
  isError?: boolean;
  textOffset?: number;
  textLength?: number;
}

/** The line that ends a page of `read --json`. */
export interface PageRecord {
  type: "page";
  id: string;
  path: string;
  cwd: string;
  name: string | null;
  mode: string;
  allBranches: boolean;
  total: number;
  from: number | null;
  count: number;
  chars: number;
  nextCursor: string | null;
}

/** A message, as `context --json` prints it. */
export interface ContextMessageRecord extends MessageRecord {
  score: number;
  clipped: boolean;
}

/** The line that ends `context --json`. */
export interface ContextRecord {
  type: "context";
  id: string;
  path: string;
  question: string;
  terms: string[];
  matched: number;
  total: number;
  chars: number;
  maxChars: number;
}

/** `tag`, `untag` and `tags <session>` with `--json`. */
export interface SessionTagsRecord {
  id: string;
  path: string;
  tags: string[];
  manual: string[];
  auto: string[];
  suppressed: string[];
}

/** `tags --json` without sessions. */
export interface TagCountRecord {
  tag: string;
  sessions: number;
}

export function sessionRecord(s: SessionSummary): SessionRecord {
  return {
    id: s.id,
    path: s.path,
    cwd: s.cwd,
    project: s.project,
    name: s.name,
    created: s.created,
    modified: s.modified,
    messageCount: s.messageCount,
    firstMessage: s.firstMessage,
    parent: s.parent,
    tags: [...s.tags],
  };
}

export function searchHitRecord(hit: SearchHit, coverage?: MeaningCoverage): SearchHitRecord {
  const m = hit.message;
  return {
    ...sessionRecord(hit),
    score: hit.score,
    message: m
      ? {
          kind: m.kind,
          ...(m.tool === null ? {} : { tool: m.tool }),
          role: m.role,
          index: m.index,
          entryId: m.entryId,
          timestamp: m.timestamp,
        }
      : null,
    snippet: hit.snippet,
    spans: hit.spans.map(([start, end]): [number, number] => [start, end]),
    ...(hit.calls === undefined
      ? {}
      : { calls: hit.calls.map((c) => ({ tool: c.tool, path: c.path, entryId: c.entryId })) }),
    ...(hit.matchedBy === undefined ? {} : { matchedBy: hit.matchedBy }),
    ...(coverage === undefined || coverage.embedded >= coverage.messages
      ? {}
      : { meaningCoverage: { embedded: coverage.embedded, messages: coverage.messages } }),
  };
}

/**
 * `related --json`: a search hit, with the distinctive words it shares with the session asked
 * about.
 */
export interface RelatedHitRecord extends SearchHitRecord {
  shared: string[];
}

export function relatedHitRecord(hit: RelatedHit, coverage?: MeaningCoverage): RelatedHitRecord {
  return { ...searchHitRecord(hit, coverage), shared: [...hit.shared] };
}

export function messageRecord(m: ReadMessage | ContextMessage): MessageRecord {
  return {
    type: "message",
    index: m.index,
    entryId: m.entryId,
    role: m.role,
    timestamp: m.timestamp,
    text: m.text,
    ...(m.branch === undefined ? {} : { branch: m.branch }),
    ...("toolName" in m && m.toolName !== undefined ? { toolName: m.toolName } : {}),
    ...("isError" in m && m.isError !== undefined ? { isError: m.isError } : {}),
    ...("textOffset" in m && m.textOffset !== undefined ? { textOffset: m.textOffset } : {}),
    ...("textLength" in m && m.textLength !== undefined ? { textLength: m.textLength } : {}),
  };
}

export function pageRecord(p: ReadPage): PageRecord {
  return {
    type: "page",
    id: p.id,
    path: p.path,
    cwd: p.cwd,
    name: p.name,
    mode: p.mode,
    allBranches: p.allBranches,
    total: p.total,
    from: p.from,
    count: p.count,
    chars: p.chars,
    nextCursor: p.nextCursor,
  };
}

export function contextMessageRecord(m: ContextMessage): ContextMessageRecord {
  return { ...messageRecord(m), score: m.score, clipped: m.clipped };
}

export function contextRecord(c: ContextSummary): ContextRecord {
  return {
    type: "context",
    id: c.id,
    path: c.path,
    question: c.question,
    terms: [...c.terms],
    matched: c.matched,
    total: c.total,
    chars: c.chars,
    maxChars: c.maxChars,
  };
}

export function sessionTagsRecord(t: SessionTags): SessionTagsRecord {
  return {
    id: t.id,
    path: t.path,
    tags: [...t.tags],
    manual: [...t.manual],
    auto: [...t.auto],
    suppressed: [...t.suppressed],
  };
}

export function tagCountRecord(c: TagCount): TagCountRecord {
  return { tag: c.tag, sessions: c.sessions };
}

/** `recall autotag --json`: one per session. */
export type AutoTagRecord =
  | { type: "tagged"; id: string; path: string; tags: string[]; saved: boolean }
  | { type: "failed" | "skipped"; id: string; path: string; reason: string };

export function autoTagRecord(r: AutoTagResult): AutoTagRecord {
  return r.type === "tagged"
    ? { type: "tagged", id: r.id, path: r.path, tags: [...r.tags], saved: r.saved }
    : { type: r.type, id: r.id, path: r.path, reason: r.reason };
}

/** The line that ends `recall autotag --json`. */
export interface AutoTagSummaryRecord {
  type: "summary";
  tagged: number;
  failed: number;
  skipped: number;
  left: number;
  model: string | null;
  dryRun: boolean;
}

export function autoTagSummaryRecord(s: {
  tagged: number;
  failed: number;
  skipped: number;
  left: number;
  model: string | null;
  dryRun: boolean;
}): AutoTagSummaryRecord {
  return {
    type: "summary",
    tagged: s.tagged,
    failed: s.failed,
    skipped: s.skipped,
    left: s.left,
    model: s.model,
    dryRun: s.dryRun,
  };
}

/** `recall ask --json`. */
export interface AskRecord {
  answer: string;
  model: string | null;
  /** The messages the answer cites. */
  messages: { index: number; entryId: string; role: string; timestamp: string }[];
  /** How many messages were sent. */
  sent: number;
  /**
   * Whether the start and end of the session were sent, no message holding a word of the question.
   */
  sampled: boolean;
}

export function askRecord(r: AskResult): AskRecord {
  return {
    answer: r.answer,
    model: r.model,
    messages: r.messages.map((m) => ({
      index: m.index,
      entryId: m.entryId,
      role: m.role,
      timestamp: m.timestamp,
    })),
    sent: r.sent,
    sampled: r.sampled,
  };
}

/** `recall doctor --json`: one per check. */
export interface DoctorCheckRecord {
  type: "check";
  name: string;
  ok: boolean;
  message: string;
  fix: string | null;
}

export function doctorCheckRecord(c: DoctorCheck): DoctorCheckRecord {
  return {
    type: "check",
    name: c.name,
    ok: c.ok,
    message: c.message,
    fix: c.fix && doctorFixWords(c.fix),
  };
}

/** The line that ends `recall doctor --json`. */
export interface DoctorSummaryRecord {
  type: "summary";
  ok: boolean;
  checks: number;
  failed: number;
}

export function doctorSummaryRecord(checks: readonly DoctorCheck[]): DoctorSummaryRecord {
  const failed = checks.filter((c) => !c.ok).length;
  return { type: "summary", ok: failed === 0, checks: checks.length, failed };
}

/** `recall index --json`: a session file that could not be read. */
export interface IndexFailedRecord {
  type: "failed";
  path: string;
  reason: string;
}

export function indexFailedRecord(f: SyncFailure): IndexFailedRecord {
  return { type: "failed", path: f.path, reason: f.reason };
}

/** `recall index --json`: a line of a session file that was skipped. */
export interface IndexMalformedRecord {
  type: "malformed";
  path: string;
  line: number;
  reason: string;
}

export function indexMalformedRecord(path: string, l: MalformedLine): IndexMalformedRecord {
  return { type: "malformed", path, line: l.line, reason: l.reason };
}

/** The line that ends `recall index --json`. */
export interface IndexSummaryRecord {
  type: "summary";
  discovered: number;
  indexed: number;
  appended: number;
  removed: number;
  unchanged: number;
  failed: number;
  malformedLines: number;
  rebuilt: boolean;
  elapsedMs: number;
  sessionsDir: string;
  indexDir: string;
}

export function indexSummaryRecord(
  r: SyncReport,
  where: { elapsedMs: number; sessionsDir: string; indexDir: string },
): IndexSummaryRecord {
  return {
    type: "summary",
    discovered: r.discovered,
    indexed: r.indexed,
    appended: r.appended,
    removed: r.removed,
    unchanged: r.unchanged,
    failed: r.failed.length,
    malformedLines: r.malformedLines,
    rebuilt: r.rebuilt,
    elapsedMs: where.elapsedMs,
    sessionsDir: where.sessionsDir,
    indexDir: where.indexDir,
  };
}

/** `recall index --meaning --json`: the meaning index after the build, after the summary. */
export interface MeaningSummaryRecord {
  type: "meaning";
  /** Conversation messages with their vector, of all. */
  embedded: number;
  messages: number;
  added: number;
  dropped: number;
  stopped: boolean;
  elapsedMs: number;
}

export function meaningSummaryRecord(r: MeaningReport, elapsedMs: number): MeaningSummaryRecord {
  return {
    type: "meaning",
    embedded: r.embedded,
    messages: r.messages,
    added: r.added,
    dropped: r.dropped,
    stopped: r.stopped,
    elapsedMs,
  };
}

/** `recall watch --json`: one per sync that changed something. */
export interface WatchSyncRecord {
  type: "sync";
  at: string;
  discovered: number;
  indexed: number;
  appended: number;
  removed: number;
  unchanged: number;
  failed: number;
  rebuilt: boolean;
}

export function watchSyncRecord(r: SyncReport, at: string): WatchSyncRecord {
  return {
    type: "sync",
    at,
    discovered: r.discovered,
    indexed: r.indexed,
    appended: r.appended,
    removed: r.removed,
    unchanged: r.unchanged,
    failed: r.failed.length,
    rebuilt: r.rebuilt,
  };
}

/** `recall resume --json`: what would run, and where. */
export interface ResumeRecord {
  argv: string[];
  cwd: string;
}

export function resumeRecord(p: ResumePlan): ResumeRecord {
  return { argv: [...p.argv], cwd: p.cwd };
}

/**
 * `recall push --dry-run --json`: one per document that would leave the machine, as it would be
 * sent.
 */
export interface PushDocumentRecord {
  type: "document";
  id: string;
  session_id: string;
  entry_id: string;
  position: number;
  role: string;
  kind: string;
  tool?: string;
  text: string;
  session_name?: string;
  tags: string[];
  project: string;
  folder: string;
  machine: string;
  user: string;
  timestamp: number;
  session_created: number;
  redactions: number;
}

export function pushDocumentRecord({ id, document: d }: IdentifiedDocument): PushDocumentRecord {
  return {
    type: "document",
    id,
    session_id: d.session_id,
    entry_id: d.entry_id,
    position: d.position,
    role: d.role,
    kind: d.kind,
    ...(d.tool === undefined ? {} : { tool: d.tool }),
    text: d.text,
    ...(d.session_name === undefined ? {} : { session_name: d.session_name }),
    tags: [...d.tags],
    project: d.project,
    folder: d.folder,
    machine: d.machine,
    user: d.user,
    timestamp: d.timestamp,
    session_created: d.session_created,
    redactions: d.redactions,
  };
}

/**
 * `recall push --dry-run --json` to a remote with keepFiles: one per session file, or part of one,
 * that would be kept, as it would be sent.
 */
export interface PushFileRecord {
  type: "file";
  session_id: string;
  file_name: string;
  folder: string;
  project: string;
  machine: string;
  user: string;
  session_created: number;
  /** 0: the file from its start; n: the lines appended after part n - 1. */
  part: number;
  /** The bytes of the session file it holds, [from, end), before redaction. */
  from: number;
  end: number;
  bytes: number;
  redactions: number;
  content: string;
}

export function pushFileRecord(f: KeptFile): PushFileRecord {
  return {
    type: "file",
    session_id: f.session_id,
    file_name: f.file_name,
    folder: f.folder,
    project: f.project,
    machine: f.machine,
    user: f.user,
    session_created: f.session_created,
    part: f.part,
    from: f.from,
    end: f.end,
    bytes: f.bytes,
    redactions: f.redactions,
    content: f.content,
  };
}

/** The line that ends `recall push --json`. */
export interface PushSummaryRecord {
  type: "summary";
  dryRun: boolean;
  sessions: number;
  unchanged: number;
  messages: number;
  bytes: number;
  /** Session files kept in the archive (keepFiles), and their bytes. */
  files: number;
  fileBytes: number;
  deleted: number;
  removed: number;
  forgotten: number;
  /**
   * The archive's aliases whose index was deleted or replaced since this machine's last push:
   * everything was sent again.
   */
  replaced: string[];
  redactions: Record<string, number>;
  /** Secrets removed from the kept session files, by what they were. */
  fileRedactions: Record<string, number>;
  /**
   * All the secrets removed, by where they were (`message`, `thinking`, `tool-call`, `tool-output`,
   * `session-name`, `folder`, `project`, `tags`, `tool`, `kept-file`, …) and what they were.
   */
  redactedIn: Record<string, Record<string, number>>;
  failed: { path: string; reason: string }[];
}

export function pushSummaryRecord(report: PushReport): PushSummaryRecord {
  return {
    type: "summary",
    dryRun: report.dryRun,
    sessions: report.sessions,
    unchanged: report.unchanged,
    messages: report.documents,
    bytes: report.bytes,
    files: report.files,
    fileBytes: report.fileBytes,
    deleted: report.deleted,
    removed: report.removed,
    forgotten: report.forgotten,
    replaced: [...report.replaced],
    redactions: { ...report.redactions },
    fileRedactions: { ...report.fileRedactions },
    redactedIn: Object.fromEntries(
      Object.entries(report.redactedIn).map(([place, kinds]) => [place, { ...kinds }]),
    ),
    failed: report.failed.map((f) => ({ path: f.path, reason: f.reason })),
  };
}

/**
 * `recall push --check-secrets --json`: one per session a push would redact something in, before
 * the summary.
 */
export interface PushSecretsRecord {
  type: "secrets";
  session_id: string;
  /** The session's name as it would be sent (redacted), if it has one. */
  session_name?: string;
  /** What would be redacted, by kind and place, most first. */
  secrets: { kind: string; place: string; count: number }[];
}

export function pushSecretsRecord(s: SessionSecrets): PushSecretsRecord {
  return {
    type: "secrets",
    session_id: s.session_id,
    ...(s.name === undefined ? {} : { session_name: s.name }),
    secrets: s.secrets.map((f) => ({ kind: f.kind, place: f.place, count: f.count })),
  };
}

/** `recall push --forget --json`: what the remote was told to forget. */
export interface ForgetRecord {
  type: "forgotten";
  remote: string;
  sessions: string[];
  project: string | null;
  deleted: number;
}

export function forgetRecord(report: ForgetReport): ForgetRecord {
  return {
    type: "forgotten",
    remote: report.remote,
    sessions: [...report.sessions],
    project: report.project,
    deleted: report.deleted,
  };
}

/**
 * `recall pull --json`: the session file written (or found already here), as a path record with
 * where it came from.
 */
export interface PullRecord {
  id: string;
  path: string;
  cwd: string;
  movedFrom: string | null;
  alreadyHere: boolean;
  origin: OriginRecord;
}

export function pullRecord(r: PullResult): PullRecord {
  return {
    id: r.id,
    path: r.path,
    cwd: r.cwd,
    movedFrom: r.movedFrom,
    alreadyHere: r.alreadyHere,
    origin: { remote: r.remote, machine: r.machine, user: r.user },
  };
}

/** A remote as `--json` prints it (no credentials: only where they are read from). */
export interface RemoteRecord {
  name: string;
  url: string;
  index: string;
  machine: string;
  user: string;
  content: string[];
  redact: boolean;
  keepFiles: boolean;
  insecure: boolean;
  credentials: string | null;
}

export function remoteRecord(remote: Remote): RemoteRecord {
  return {
    name: remote.name,
    url: remote.url,
    index: remote.index,
    machine: remote.machine,
    user: remote.user,
    content: [...remote.content],
    redact: remote.redact,
    keepFiles: remote.keepFiles,
    insecure: remote.insecure,
    credentials: remote.credentials ?? null,
  };
}

/** `recall remote test NAME --json`: one per check. */
export interface RemoteCheckRecord {
  check: string;
  ok: boolean;
  message: string;
}

export function remoteCheckRecord(check: RemoteCheck): RemoteCheckRecord {
  return { check: check.name, ok: check.ok, message: check.message };
}

/** Where an archived session lives: the remote, and the machine and user that pushed it. */
export interface OriginRecord {
  remote: string;
  machine: string;
  user: string;
}

function originRecord(o: Origin): OriginRecord {
  return { remote: o.remote, machine: o.machine, user: o.user };
}

/** `search --remote --json`: a hit as local search prints it (`path` empty), with its origin. */
export interface ArchiveHitRecord extends SearchHitRecord {
  origin: OriginRecord;
}

export function archiveHitRecord(hit: ArchiveHit): ArchiveHitRecord {
  return { ...searchHitRecord(hit), origin: originRecord(hit.origin) };
}

/**
 * The line that ends a page of `read --remote --json`: the page as local read ends it, with its
 * origin.
 */
export interface ArchivePageRecord extends PageRecord {
  origin: OriginRecord;
}

export function archivePageRecord(r: ArchiveReadResult): ArchivePageRecord {
  return { ...pageRecord(r.page), origin: originRecord(r.origin) };
}

/** Every record `--json` prints: a line is made only of one of these. */
export type WireRecord =
  | SessionRecord
  | SearchHitRecord
  | RelatedHitRecord
  | ArchiveHitRecord
  | MessageRecord
  | PageRecord
  | ArchivePageRecord
  | ContextMessageRecord
  | ContextRecord
  | SessionTagsRecord
  | TagCountRecord
  | AutoTagRecord
  | AutoTagSummaryRecord
  | AskRecord
  | DoctorCheckRecord
  | DoctorSummaryRecord
  | IndexFailedRecord
  | IndexMalformedRecord
  | IndexSummaryRecord
  | MeaningSummaryRecord
  | WatchSyncRecord
  | ResumeRecord
  | PushDocumentRecord
  | PushSummaryRecord
  | PushSecretsRecord
  | PushFileRecord
  | PullRecord
  | ForgetRecord
  | RemoteRecord
  | RemoteCheckRecord
  | StatsRecord;

/** `recall stats --json`: the sums of a group (a day, project or model, or all of them). */
export interface ActivityFields {
  sessions: number;
  messages: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  tokens: number;
  cost: number;
}

/**
 * `recall stats --json`: the days (oldest first), projects, models, files (busiest first), then the
 * totals.
 */
export type StatsRecord =
  | ({ type: "day"; day: string } & ActivityFields)
  | ({ type: "project"; project: string } & ActivityFields)
  | ({ type: "model"; model: string } & ActivityFields)
  | { type: "file"; path: string; calls: number; sessions: number }
  | ({ type: "totals"; unreadable: number } & ActivityFields);

function activityFields(a: Activity): ActivityFields {
  return {
    sessions: a.sessions,
    messages: a.messages,
    input: a.input,
    output: a.output,
    cacheRead: a.cacheRead,
    cacheWrite: a.cacheWrite,
    tokens: a.tokens,
    cost: a.cost,
  };
}

export function statsRecords(s: Stats): StatsRecord[] {
  return [
    ...s.days.map((d): StatsRecord => ({ type: "day", day: d.day, ...activityFields(d) })),
    ...s.projects.map((p): StatsRecord => ({
      type: "project",
      project: p.project,
      ...activityFields(p),
    })),
    ...s.models.map((m): StatsRecord => ({ type: "model", model: m.model, ...activityFields(m) })),
    ...s.files.map((f): StatsRecord => ({
      type: "file",
      path: f.path,
      calls: f.calls,
      sessions: f.sessions,
    })),
    { type: "totals", unreadable: s.unreadable, ...activityFields(s.totals) },
  ];
}

/** One JSON Lines record. */
export function wireLine(record: WireRecord): string {
  return JSON.stringify(record);
}
