/**
 * `recall doctor`: checks of everything recall depends on, as data: Pi's sessions folder and its
 * files, the index (checksums, and whether it holds every session file), the tag database, the
 * extension's config file and the watcher's lock. Each check says what it found and, when that
 * is wrong, a fix as data (what to do, to which paths) that each adapter words for its users.
 * Nothing is changed, except that opening a damaged index rebuilds it empty (see store.ts), which
 * the index check then reports; an index that does not exist yet is not made.
 *
 * One check is one entry of CHECKS; what several checks need (the session files) is found once,
 * by the DoctorContext they share.
 */
import { accessSync, closeSync, constants, existsSync, lstatSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { sessionsFolderProblem, type Locations, type SessionsSource } from "../locations.js";
import { nativeModule } from "../native/binding.js";
import { TagHandle } from "../native/tag-handle.js";
import { loadConfig } from "../config.js";
import { discoverSessionFiles, scanSessionFiles } from "../sessions/discover.js";
import { openSessionFile } from "../sessions/lines.js";
import { openStore } from "../store.js";
import { watchLockPath } from "../sync/watch-lock.js";
import { TAGS_DB_FILE } from "../tags/tag-store.js";
import { meaningIncomplete, modelDir } from "./meaning.js";
import { MODEL_PACKAGE_NAME } from "./meaning-model.js";

export type DoctorCheckName = "sessions" | "index" | "meaning" | "tags" | "config" | "watcher";

/** What fixes a failed check, for an adapter to word (the CLI as commands to run). */
export type DoctorFix =
  /** Bring the index up to date with the session files. */
  | { kind: "sync" }
  /** Build the index anew from the session files (tags are kept): what a damaged index needs. */
  | { kind: "rebuild" }
  /** The setting that chose the sessions folder names one that is not there: point it at Pi's. */
  | { kind: "sessions-setting"; from: SessionsSource }
  /**
   * Session files (or folders) recall may not read: read permission fixes them (given by their
   * owner, when `othersOwn`).
   */
  | { kind: "allow-read"; paths: string[]; othersOwn: boolean }
  /**
   * Session files recall cannot read for another reason (a broken link, a failing disk): move them
   * out of `folder`.
   */
  | { kind: "move-out"; paths: string[]; folder: string }
  /** The cache folder cannot be written to: make it writable, or choose another cache folder. */
  | { kind: "cache-unwritable"; path: string }
  /** A damaged SQLite database: recover what it holds into a new file and put that in its place. */
  | { kind: "recover-tags"; path: string }
  /**
   * A tag database that cannot be used: move it aside (to `aside`) and leave an empty file in its
   * place, which the next sync fills with the tags the index holds (see restore-tags.ts).
   */
  | { kind: "restore-tags"; path: string; aside: string }
  /** A file to correct by hand. */
  | { kind: "edit"; path: string }
  /** A file nothing needs: delete it. */
  | { kind: "remove"; path: string }
  /**
   * The meaning model cannot be used: install its package again (or, `fromEnv`, point
   * RECALL_MODEL_DIR at one that works).
   */
  | { kind: "reinstall-model"; fromEnv: boolean }
  /**
   * The meaning index lacks messages or cannot be read: embed them (`recall index --meaning`
   * repairs and resumes it).
   */
  | { kind: "embed" };

export interface DoctorCheck {
  name: DoctorCheckName;
  ok: boolean;
  /** What the check found, in one line. */
  message: string;
  /** What fixes it; null when nothing is wrong. */
  fix: DoctorFix | null;
}

const pass = (name: DoctorCheckName, message: string): DoctorCheck => ({
  name,
  ok: true,
  message,
  fix: null,
});
const fail = (name: DoctorCheckName, message: string, fix: DoctorFix): DoctorCheck => ({
  name,
  ok: false,
  message,
  fix,
});

function reason(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  return typeof e?.code === "string"
    ? e.code
    : error instanceof Error
      ? error.message.split("\n")[0]!
      : String(error);
}

/** How many of `items` a message names; the fix names them all. */
const NAMED = 3;

function named(items: string[]): string {
  return items.length > NAMED
    ? `${items.slice(0, NAMED).join(", ")} and ${items.length - NAMED} more`
    : items.join(", ");
}

/** A session file (or a folder of them) recall cannot read, and why. */
interface Unreadable {
  path: string;
  reason: string;
  /**
   * Refused by permissions (so read permission fixes it), rather than a broken link or a failing
   * disk.
   */
  denied: boolean;
  /** Owned by another user (whose permission only they, or root, can change). */
  othersOwn: boolean;
}

interface SessionFiles {
  /** Every session file found (the readable and the unreadable). */
  total: number;
  unreadable: Unreadable[];
}

/** What the checks share: where things are, and the session files, looked at once. */
class DoctorContext {
  private files: Promise<SessionFiles> | undefined;

  constructor(
    readonly locations: Locations,
    readonly env: NodeJS.ProcessEnv,
    readonly cwd: string,
  ) {}

  /** Whether the sessions folder is there to look in. */
  sessionsFolderUsable(): boolean {
    try {
      accessSync(this.locations.sessionsDir, constants.R_OK | constants.X_OK);
      return statSync(this.locations.sessionsDir).isDirectory();
    } catch {
      return false;
    }
  }

  /**
   * The session files, each opened as a sync would open it (none when the folder is not usable).
   */
  sessionFiles(): Promise<SessionFiles> {
    this.files ??= this.sessionsFolderUsable()
      ? lookAtSessionFiles(this.locations)
      : Promise.resolve({ total: 0, unreadable: [] });
    return this.files;
  }
}

async function lookAtSessionFiles(locations: Locations): Promise<SessionFiles> {
  const { files, failures } = await discoverSessionFiles(locations);
  const unreadable = failures.map(({ path, reason }) =>
    unreadableFile(path, reason, /^E(ACCES|PERM)\b/.test(reason)),
  );
  for (const file of files) {
    try {
      closeSync(openSessionFile(file.path));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") continue; // Deleted since it was listed: nothing to read, nothing wrong.
      unreadable.push(
        unreadableFile(file.path, reason(error), code === "EACCES" || code === "EPERM"),
      );
    }
  }
  return { total: files.length + failures.length, unreadable };
}

function unreadableFile(path: string, why: string, denied: boolean): Unreadable {
  let othersOwn = false;
  try {
    othersOwn = process.getuid !== undefined && lstatSync(path).uid !== process.getuid();
  } catch {
    // Gone, or not even to be looked at: nothing more to say.
  }
  return { path, reason: why, denied, othersOwn };
}

type Check = (context: DoctorContext) => DoctorCheck | Promise<DoctorCheck>;

/** The checks, in the order they are reported. */
const CHECKS: Check[] = [
  checkSessions,
  checkIndex,
  checkMeaning,
  checkTags,
  checkConfig,
  checkWatcher,
];

export async function runDoctor(
  locations: Locations,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<DoctorCheck[]> {
  const context = new DoctorContext(locations, env, cwd);
  const checks: DoctorCheck[] = [];
  for (const check of CHECKS) checks.push(await check(context));
  return checks;
}

async function checkSessions(context: DoctorContext): Promise<DoctorCheck> {
  const { sessionsDir, sessionsFrom } = context.locations;
  const problem = sessionsFolderProblem(context.locations);
  // Pi has not run yet: there is nothing to find, and nothing to fix.
  if (problem && !problem.fatal) return pass("sessions", problem.message);
  if (problem) {
    const found =
      problem.kind === "missing"
        ? `there is no sessions folder at ${sessionsDir}`
        : `${sessionsDir} is a file, not a folder`;
    return fail("sessions", found, { kind: "sessions-setting", from: sessionsFrom });
  }
  if (!context.sessionsFolderUsable()) {
    let why = "no permission";
    try {
      accessSync(sessionsDir, constants.R_OK | constants.X_OK);
    } catch (error) {
      why = reason(error);
    }
    return fail("sessions", `${sessionsDir} cannot be read (${why})`, {
      kind: "allow-read",
      paths: [sessionsDir],
      othersOwn: unreadableFile(sessionsDir, why, true).othersOwn,
    });
  }
  const { total, unreadable } = await context.sessionFiles();
  if (unreadable.length > 0) {
    const message = `${unreadable.length} of the ${total} session files cannot be read, and are skipped: ${named(unreadable.map((u) => `${u.path} (${u.reason})`))}`;
    const denied = unreadable.filter((u) => u.denied);
    if (denied.length > 0)
      return fail("sessions", message, {
        kind: "allow-read",
        paths: denied.map((u) => u.path),
        othersOwn: denied.some((u) => u.othersOwn),
      });
    return fail("sessions", message, {
      kind: "move-out",
      paths: unreadable.map((u) => u.path),
      folder: sessionsDir,
    });
  }
  return pass("sessions", `${sessionsDir}: ${total} session files, all readable`);
}

/** The fix for an index that needs writing: a sync, unless the cache cannot be written to. */
function writeFix(locations: Locations, fix: DoctorFix = { kind: "sync" }): DoctorFix {
  // The nearest folder that exists: the cache folder itself may not be made yet.
  let folder = locations.cacheDir;
  while (!existsSync(folder) && dirname(folder) !== folder) folder = dirname(folder);
  try {
    accessSync(folder, constants.W_OK);
    return fix;
  } catch {
    return { kind: "cache-unwritable", path: folder };
  }
}

async function checkIndex(context: DoctorContext): Promise<DoctorCheck> {
  const { locations } = context;
  const indexDir = join(locations.cacheDir, "index");
  // Before opening: opening replaces an index it finds damaged, and the damage would go unnamed.
  const damagedFiles = await checkIndexFiles(locations, indexDir);
  if (damagedFiles) return damagedFiles;
  const { total, unreadable } = await context.sessionFiles();
  const readable = total - unreadable.length;
  // Opening would make one: say what is there instead.
  if (!existsSync(join(indexDir, "meta.json"))) {
    if (readable === 0)
      return pass("index", `no index yet at ${indexDir}, and no session files to index`);
    // Not a failure: the first search builds it.
    return pass(
      "index",
      `no index yet at ${indexDir}: the first search builds it from the ${readable} session ${readable === 1 ? "file" : "files"}`,
    );
  }
  try {
    const store = await openStore(locations);
    if (store.replaced)
      return fail(
        "index",
        `${indexDir} could not be used and was replaced by an empty one (${store.native.replacedBecause()})`,
        writeFix(locations),
      );
    const { sessions } = await store.native.stats();
    if (!context.sessionsFolderUsable())
      return pass("index", `${indexDir}: checksums match; it holds ${sessions} sessions`);
    const scan = await scanSessionFiles(store, true);
    const skipped = new Set(unreadable.map((u) => u.path));
    const changed = scan.changed.filter((f) => !skipped.has(f.path)).length;
    if (changed + scan.removed.length > 0) {
      return fail(
        "index",
        `${indexDir} is behind the session files: ${changed} new or changed, ${scan.removed.length} removed`,
        writeFix(locations),
      );
    }
    const empty = readable - sessions;
    return pass(
      "index",
      `${indexDir}: checksums match; all ${readable} readable session files indexed: ${sessions} sessions${empty > 0 ? `, ${empty} ${empty === 1 ? "file" : "files"} without messages` : ""}`,
    );
  } catch (error) {
    return fail("index", `${indexDir} cannot be opened (${reason(error)})`, writeFix(locations));
  }
}

/**
 * The files each index's last commit names (the main index and `depth/`), read without opening
 * the index: there, not empty, matching their checksum. A failing check; undefined when all is
 * well.
 */
async function checkIndexFiles(
  locations: Locations,
  indexDir: string,
): Promise<DoctorCheck | undefined> {
  const damaged = await nativeModule().indexFileProblems(indexDir);
  if (damaged.length === 0) return undefined;
  const named =
    damaged.slice(0, 3).join(", ") + (damaged.length > 3 ? ` and ${damaged.length - 3} more` : "");
  // `recall index` finds only damage a write made since its last check; a rebuild mends any.
  const files = damaged.length === 1 ? "1 file of" : `${damaged.length} files of`;
  const are =
    damaged.length === 1
      ? "is missing, empty or fails its checksum"
      : "are missing, empty or fail their checksum";
  return fail(
    "index",
    `${files} ${indexDir} ${are} (${named})`,
    writeFix(locations, { kind: "rebuild" }),
  );
}

/**
 * The meaning model (optional: without its package the check passes, saying searches are by
 * words) loads and fits; the meaning index can be read and holds all but 1 in 100 messages.
 */
async function checkMeaning({ locations, env }: DoctorContext): Promise<DoctorCheck> {
  const fromEnv = env.RECALL_MEANING !== "off" && Boolean(env.RECALL_MODEL_DIR);
  let dir: string | null;
  try {
    dir = modelDir(env);
  } catch (error) {
    return fail("meaning", message(error), { kind: "reinstall-model", fromEnv });
  }
  if (dir === null) {
    const off =
      env.RECALL_MEANING === "off"
        ? "meaning search is turned off (RECALL_MEANING=off)"
        : `no meaning model (${MODEL_PACKAGE_NAME} is not installed)`;
    return pass("meaning", `${off}: searches are by words`);
  }
  const { MeaningHandle } = await import("../native/meaning-handle.js");
  const { MeaningIndexHandle } = await import("../native/meaning-index-handle.js");
  const { modelIdentity } = await import("./meaning.js");
  let arithmetic: string;
  try {
    const { checkModelFiles } = await import("./model-files.js");
    await checkModelFiles(dir);
    arithmetic = (await MeaningHandle.load(dir)).arithmetic;
  } catch (error) {
    return fail("meaning", message(error), { kind: "reinstall-model", fromEnv });
  }
  const model = `the model in ${dir} loads (${arithmetic})`;
  const folder = join(locations.cacheDir, "meaning");
  if (!existsSync(join(locations.cacheDir, "index", "meta.json")))
    return pass("meaning", `${model}; no index to embed yet`);
  try {
    if (existsSync(folder) && !statSync(folder).isDirectory())
      return fail(
        "meaning",
        `${model}; ${folder} is not a folder, so the meaning index cannot be kept`,
        { kind: "embed" },
      );
    const index = await MeaningIndexHandle.open(folder, modelIdentity(dir));
    const coverage = await index.coverage((await openStore(locations)).native);
    const holds = `the meaning index holds ${coverage.embedded} of ${coverage.messages} messages`;
    if (!meaningIncomplete(coverage)) return pass("meaning", `${model}; ${holds}`);
    const builder = nativeModule().textOfHeldLock(join(folder, "writer.lock"));
    return fail(
      "meaning",
      `${model}; ${holds}${builder === null ? "" : ` (${builderWords(builder)} is embedding the rest)`}`,
      { kind: "embed" },
    );
  } catch (error) {
    return fail("meaning", `${model}; ${folder} cannot be read (${reason(error)})`, {
      kind: "embed",
    });
  }
}

/** A library error's own words (its first line); reason() gives a code where there is one. */
function message(error: unknown): string {
  return error instanceof Error ? error.message.split("\n")[0]! : String(error);
}

/** Who the text of the meaning index's writer lock says is building it. */
function builderWords(text: string): string {
  const pid = /^pid (\d+)/.exec(text.trim());
  return pid ? `process ${pid[1]}` : "another process";
}

function checkTags({ locations }: DoctorContext): DoctorCheck {
  const path = join(locations.dataDir, TAGS_DB_FILE);
  if (!existsSync(path))
    return pass(
      "tags",
      `no tag database yet (${path}): one is made when a session is first tagged`,
    );
  const restore = { kind: "restore-tags", path, aside: `${path}.damaged` } as const;
  try {
    if (!statSync(path).isFile())
      return fail("tags", `${path} is not a file, so it cannot be the tag database`, restore);
    const problems = TagHandle.problems(path);
    if (problems.length > 0)
      return fail("tags", `${path} is damaged: ${problems[0]}`, { kind: "recover-tags", path });
    return pass("tags", `${path}: integrity check ok`);
  } catch (error) {
    return fail("tags", `${path} cannot be read as a tag database (${reason(error)})`, restore);
  }
}

function checkConfig({ locations, env, cwd }: DoctorContext): DoctorCheck {
  const { path, problems } = loadConfig(locations, env, cwd);
  if (problems.length > 0) return fail("config", problems[0]!, { kind: "edit", path });
  return pass(
    "config",
    existsSync(path) ? `${path} parses` : `no config file (${path}): the defaults apply`,
  );
}

function checkWatcher({ locations }: DoctorContext): DoctorCheck {
  const path = watchLockPath(locations);
  try {
    const text = nativeModule().textOfHeldLock(path);
    if (text === null)
      return pass("watcher", "no watcher is running (searches check for changes themselves)");
    return pass(
      "watcher",
      `a watcher is running${text === "ready" ? " and the index is up to date" : ", catching up"}`,
    );
  } catch (error) {
    return fail("watcher", `${path} cannot be read (${reason(error)})`, { kind: "remove", path });
  }
}
