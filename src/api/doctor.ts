/**
 * `recall doctor`: checks of everything recall depends on, as data: the index (checksums, and
 * whether it holds every session file), the tag database, the extension's config file, the
 * watcher's lock, and Pi's sessions folder. Each check says what is wrong and the command that
 * fixes it. Nothing is changed, except that opening a damaged index rebuilds it empty (see
 * store.ts), which the index check then reports.
 */
import { accessSync, constants, existsSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Locations } from "../locations.js";
import { nativeModule } from "../native/binding.js";
import { TagHandle } from "../native/tag-handle.js";
import { loadConfig } from "./config.js";
import { scanSessionFiles } from "../sessions/discover.js";
import { openStore } from "../store.js";
import { watchLockPath } from "../sync/watch-lock.js";
import { TAGS_DB_FILE } from "../tags/tag-store.js";

export interface DoctorCheck {
  name: "sessions" | "index" | "tags" | "config" | "watcher";
  ok: boolean;
  message: string;
  /** The command that fixes what is wrong; null when nothing is. */
  fix: string | null;
}

const pass = (name: DoctorCheck["name"], message: string): DoctorCheck => ({ name, ok: true, message, fix: null });
const fail = (name: DoctorCheck["name"], message: string, fix: string): DoctorCheck => ({ name, ok: false, message, fix });

function reason(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  return typeof e?.code === "string" ? e.code : error instanceof Error ? error.message.split("\n")[0]! : String(error);
}

export async function runDoctor(locations: Locations, env: NodeJS.ProcessEnv, cwd: string): Promise<DoctorCheck[]> {
  const sessions = checkSessionsFolder(locations);
  return [sessions, await checkIndex(locations, sessions.ok), checkTags(locations), checkConfig(locations, env, cwd), checkWatcher(locations)];
}

function checkSessionsFolder({ sessionsDir }: Locations): DoctorCheck {
  try {
    if (!statSync(sessionsDir).isDirectory()) return fail("sessions", `${sessionsDir} is not a folder`, "recall index --sessions-dir <Pi's sessions folder>");
    accessSync(sessionsDir, constants.R_OK | constants.X_OK);
    return pass("sessions", `${sessionsDir} is readable`);
  } catch (error) {
    return fail("sessions", `${sessionsDir} cannot be read (${reason(error)})`, "recall index --sessions-dir <Pi's sessions folder>");
  }
}

async function checkIndex(locations: Locations, sessionsReadable: boolean): Promise<DoctorCheck> {
  const indexDir = join(locations.cacheDir, "index");
  try {
    const store = await openStore(locations);
    if (store.replaced) return fail("index", `${indexDir} could not be used and was replaced by an empty one (${store.native.replacedBecause()})`, "recall index");
    const damaged = await store.native.damagedFiles();
    if (damaged.length > 0) return fail("index", `${damaged.length} file(s) of ${indexDir} fail their checksum (${damaged.slice(0, 3).join(", ")})`, "recall index");
    const { sessions } = await store.native.stats();
    if (!sessionsReadable) return pass("index", `${indexDir}: checksums match; ${sessions} sessions`);
    const scan = await scanSessionFiles(store, true);
    const behind = scan.changed.length + scan.removed.length;
    if (behind > 0) {
      return fail("index", `${indexDir} is behind the session files: ${scan.changed.length} new or changed, ${scan.removed.length} removed`, "recall index");
    }
    return pass("index", `${indexDir}: checksums match; ${sessions} sessions, every one of the ${scan.filesTotal} session files indexed`);
  } catch (error) {
    return fail("index", `${indexDir} cannot be opened (${reason(error)})`, "recall index --rebuild");
  }
}

function checkTags({ dataDir }: Locations): DoctorCheck {
  const path = join(dataDir, TAGS_DB_FILE);
  if (!existsSync(path)) return pass("tags", `no tag database yet (${path}); \`recall tag\` makes one`);
  try {
    const problems = TagHandle.problems(path);
    if (problems.length > 0) return fail("tags", `${path} is damaged: ${problems[0]}`, `sqlite3 ${path} .recover | sqlite3 ${path}.recovered, then move it in place`);
    return pass("tags", `${path}: integrity check ok`);
  } catch (error) {
    return fail("tags", `${path} cannot be read as a tag database (${reason(error)})`, `mv ${path} ${path}.damaged (its tags are lost; the index keeps a copy)`);
  }
}

function checkConfig(locations: Locations, env: NodeJS.ProcessEnv, cwd: string): DoctorCheck {
  const { path, problems } = loadConfig(locations, env, cwd);
  if (problems.length > 0) return fail("config", problems[0]!, `$EDITOR ${path}`);
  return pass("config", existsSync(path) ? `${path} parses` : `no config file (${path}): the defaults apply`);
}

function checkWatcher(locations: Locations): DoctorCheck {
  const path = watchLockPath(locations);
  try {
    const text = nativeModule().textOfHeldLock(path);
    if (text === null) return pass("watcher", "no `recall watch` is running (searches check for changes themselves)");
    return pass("watcher", `\`recall watch\` is running${text === "ready" ? " and the index is up to date" : ", catching up"}`);
  } catch (error) {
    return fail("watcher", `${path} cannot be read (${reason(error)})`, `rm ${path}`);
  }
}
