/**
 * The archive as the adapters see it: the remotes of recall's config file, checking one, and
 * pushing the session files to one. Nothing leaves the machine except through this folder, and
 * session text only after redaction (documents.ts), unless the remote says `redact: false`.
 */
import { loadConfig } from "../api/config.js";
import { resolveLocations, type LocationOverrides, type Locations } from "../locations.js";
import { push, type PushOptions, type PushReport } from "./push.js";
import { checkRemote, type RemoteCheck } from "./remote-check.js";
import { findRemote, loadRemotes, saveRemote, type Remote, type RemoteSettings } from "./remotes.js";

export class Archive {
  private constructor(
    private readonly locations: Locations,
    private readonly env: NodeJS.ProcessEnv,
    private readonly configFile: string,
  ) {}

  static open(options: LocationOverrides = {}): Archive {
    const env = options.env ?? process.env;
    const locations = resolveLocations(options);
    return new Archive(locations, env, loadConfig(locations, env, options.cwd).path);
  }

  remotes(): Remote[] {
    return loadRemotes(this.configFile);
  }

  addRemote(name: string, settings: RemoteSettings): Remote {
    return saveRemote(this.configFile, name, settings);
  }

  test(name: string): Promise<RemoteCheck[]> {
    return checkRemote(findRemote(this.configFile, name), this.env);
  }

  /** Pushes to the remote named `name` (the only one when none is named). */
  push(name: string | undefined, options: PushOptions = {}): Promise<PushReport> {
    return push(this.locations, findRemote(this.configFile, name), this.env, options);
  }
}
