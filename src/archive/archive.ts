/**
 * The archive's one entry point (`recall.archive`): the remotes of recall's config file, checking
 * one, pushing the session files to one, searching and reading what was pushed, and pulling a kept
 * session file. Nothing leaves the machine except through this folder, and session text only after
 * redaction (documents.ts), unless the remote says `redact: false`.
 *
 * Loading this module loads no OpenSearch client: each operation imports its module when first
 * called, so listing the remotes, and every local command, never pays for it.
 */
import { loadConfig } from "../config.js";
import { resolveLocations, type LocationOverrides, type Locations } from "../locations.js";
import type { ForgetOptions, ForgetReport } from "./forget.js";
import type { PushOptions, PushReport } from "./push.js";
import type { PullResult } from "./pull.js";
import { PushOnChange } from "./push-on-change.js";
import type { ArchiveReadOptions, ArchiveReadResult } from "./read.js";
import type { RemoteCheck } from "./remote-check.js";
import type { SecretCheckReport } from "./secret-check.js";
import type { ArchiveSearchOptions, ArchiveSearchPage } from "./search.js";
import {
  findRemote,
  loadRemotes,
  saveRemote,
  type Remote,
  type RemoteSettings,
} from "./remotes.js";

export class Archive {
  private constructor(
    private readonly locations: Locations,
    private readonly env: NodeJS.ProcessEnv,
    private readonly configFile: string,
    private readonly hostHidden: boolean,
  ) {}

  /**
   * With `hostHidden`, errors name a remote only, never its URL or host (see Remote.hostHidden).
   */
  static open(options: LocationOverrides & { hostHidden?: boolean } = {}): Archive {
    const env = options.env ?? process.env;
    const locations = resolveLocations(options);
    return new Archive(
      locations,
      env,
      loadConfig(locations, env, options.cwd).path,
      options.hostHidden ?? false,
    );
  }

  private remote(name: string | undefined): Remote {
    const remote = findRemote(this.configFile, name);
    return this.hostHidden ? { ...remote, hostHidden: true } : remote;
  }

  /** The remotes config.json lists (`remotes`), in its order, read now; none configured: empty. */
  remotes(): Remote[] {
    return loadRemotes(this.configFile);
  }

  addRemote(name: string, settings: RemoteSettings): Remote {
    return saveRemote(this.configFile, name, settings);
  }

  /** Checks the remote named `name` (the only one when none is named). */
  async test(name: string | undefined): Promise<RemoteCheck[]> {
    const { checkRemote } = await import("./remote-check.js");
    return checkRemote(this.locations, this.remote(name), this.env);
  }

  /** Pushes to the remote named `name` (the only one when none is named). */
  async push(name: string | undefined, options: PushOptions = {}): Promise<PushReport> {
    const { push } = await import("./push.js");
    return push(this.locations, this.remote(name), this.env, options);
  }

  /**
   * What a push to the remote named `name` would redact, by kind, place and session; nothing is
   * sent.
   */
  async checkSecrets(
    name: string | undefined,
    options: Pick<PushOptions, "cwd" | "repo" | "since"> = {},
  ): Promise<SecretCheckReport> {
    const { checkSecrets } = await import("./secret-check.js");
    return checkSecrets(this.locations, this.remote(name), this.env, options);
  }

  /**
   * A pusher to the remote named `name` for each change of the sessions (`recall watch --push`).
   */
  pushOnChange(
    name: string,
    onPush: (report: PushReport) => void,
    onError: (error: unknown) => void,
  ): PushOnChange {
    this.remote(name);
    return new PushOnChange(this, name, onPush, onError);
  }

  /**
   * Takes sessions, or a project's, out of the remote named `name`, never to be pushed to it again.
   */
  async forget(name: string | undefined, options: ForgetOptions): Promise<ForgetReport> {
    const { forget } = await import("./forget.js");
    return forget(this.locations, this.remote(name), this.env, options);
  }

  /**
   * Writes a session file the remote named `name` keeps (`keepFiles`) into this machine's Pi
   * sessions folder, never over another file, so that Pi can resume it here.
   */
  async pull(name: string | undefined, session: string): Promise<PullResult> {
    const { pull } = await import("./pull.js");
    return pull(this.locations, this.remote(name), this.env, session);
  }

  /**
   * Sessions of the remote named `name` ranked for a query, as a local search ranks them (the same
   * query language), each hit with its `origin`; never the local index.
   */
  async search(
    name: string | undefined,
    options: ArchiveSearchOptions,
  ): Promise<ArchiveSearchPage> {
    const { searchArchive } = await import("./search.js");
    return searchArchive(this.remote(name), this.env, options);
  }

  /**
   * A page of an archived session's messages, named by id or unique id prefix, as it was pushed.
   */
  async read(
    name: string | undefined,
    session: string,
    options: ArchiveReadOptions = {},
  ): Promise<ArchiveReadResult> {
    const { readArchived } = await import("./read.js");
    return readArchived(this.remote(name), this.env, session, options);
  }
}
