/**
 * The archive as the adapters see it: the remotes of recall's config file, checking one,
 * pushing the session files to one, searching and reading what was pushed, and pulling a kept session file. Nothing leaves the machine except through this folder, and
 * session text only after redaction (documents.ts), unless the remote says `redact: false`.
 */
import { loadConfig } from "../config.js";
import { resolveLocations, type LocationOverrides, type Locations } from "../locations.js";
import { forget, type ForgetOptions, type ForgetReport } from "./forget.js";
import { push, type PushOptions, type PushReport } from "./push.js";
import { pull, type PullResult } from "./pull.js";
import { PushOnChange } from "./push-on-change.js";
import { readArchived, type ArchiveReadOptions, type ArchiveReadResult } from "./read.js";
import { checkRemote, type RemoteCheck } from "./remote-check.js";
import { checkSecrets, type SecretCheckReport } from "./secret-check.js";
import { searchArchive, type ArchiveSearchOptions, type ArchiveSearchPage } from "./search.js";
import { findRemote, loadRemotes, saveRemote, type Remote, type RemoteSettings } from "./remotes.js";

export class Archive {
  private constructor(
    private readonly locations: Locations,
    private readonly env: NodeJS.ProcessEnv,
    private readonly configFile: string,
    private readonly hostHidden: boolean,
  ) {}

  /** With `hostHidden`, errors name a remote only, never its URL or host (see Remote.hostHidden). */
  static open(options: LocationOverrides & { hostHidden?: boolean } = {}): Archive {
    const env = options.env ?? process.env;
    const locations = resolveLocations(options);
    return new Archive(locations, env, loadConfig(locations, env, options.cwd).path, options.hostHidden ?? false);
  }

  private remote(name: string | undefined): Remote {
    const remote = findRemote(this.configFile, name);
    return this.hostHidden ? { ...remote, hostHidden: true } : remote;
  }

  remotes(): Remote[] {
    return loadRemotes(this.configFile);
  }

  addRemote(name: string, settings: RemoteSettings): Remote {
    return saveRemote(this.configFile, name, settings);
  }

  /** Checks the remote named `name` (the only one when none is named). */
  test(name: string | undefined): Promise<RemoteCheck[]> {
    return checkRemote(this.locations, this.remote(name), this.env);
  }

  /** Pushes to the remote named `name` (the only one when none is named). */
  push(name: string | undefined, options: PushOptions = {}): Promise<PushReport> {
    return push(this.locations, this.remote(name), this.env, options);
  }

  /** What a push to the remote named `name` would redact, by kind, place and session; nothing is sent. */
  checkSecrets(name: string | undefined, options: Pick<PushOptions, "cwd" | "repo" | "since"> = {}): Promise<SecretCheckReport> {
    return checkSecrets(this.locations, this.remote(name), this.env, options);
  }

  /** A pusher to the remote named `name` for each change of the sessions (`recall watch --push`). */
  pushOnChange(name: string, onPush: (report: PushReport) => void, onError: (error: unknown) => void): PushOnChange {
    this.remote(name);
    return new PushOnChange(this, name, onPush, onError);
  }

  /** Takes sessions, or a project's, out of the remote named `name`, never to be pushed to it again. */
  forget(name: string | undefined, options: ForgetOptions): Promise<ForgetReport> {
    return forget(this.locations, this.remote(name), this.env, options);
  }

  /** Writes a session file the remote named `name` keeps into this machine's Pi sessions folder, never over another file. */
  pull(name: string | undefined, session: string): Promise<PullResult> {
    return pull(this.locations, this.remote(name), this.env, session);
  }

  /** Sessions of the remote named `name` ranked for a query, as a local search ranks them, each with where it lives. */
  search(name: string | undefined, options: ArchiveSearchOptions): Promise<ArchiveSearchPage> {
    return searchArchive(this.remote(name), this.env, options);
  }

  /** A page of an archived session's messages, named by id or unique id prefix. */
  read(name: string | undefined, session: string, options: ArchiveReadOptions = {}): Promise<ArchiveReadResult> {
    return readArchived(this.remote(name), this.env, session, options);
  }
}
