/**
 * Loads the compiled search core. Its surface is typed by addon.d.ts, generated from the Rust
 * source (scripts/native-typings.mjs). Only src/native/ modules use the module itself: the index
 * through IndexHandle, the tags through TagHandle, the analyzer through words.ts.
 *
 * Where it comes from, as napi-rs packages do it: a local build (native/recall.node, made by
 * scripts/build-native.mjs in a checkout or where no prebuilt package fits) first, else the
 * prebuilt package of this platform (platform.ts). The core must be of recall's own release.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { RecallError } from "../errors.js";
import { RECALL_VERSION } from "../version.js";
import type * as Addon from "./addon.js";
import { currentPlatform, platformPackage, PREBUILT_PLATFORMS } from "./platform.js";

export type NativeModule = typeof Addon;

/**
 * Where the loaded addon is kept: on the global object, because the CLI is two bundles, each with
 * a copy of this module (dist/bundle/early-look.cjs, then cli.cjs; see bin/recall.cjs). The second
 * finds the addon the first loaded, so a look the first started is an object its addon knows.
 */
const LOADED = Symbol.for("recall.nativeModule");

const REINSTALL =
  "reinstall recall (`npm install -g recall-pi`, or `pi install npm:recall-pi` for Pi); in a git checkout run `npm run build`";

/** The addon file to load: the local build if there is one, else this platform's package. */
function addonPath(): string {
  const local = fileURLToPath(new URL("../../native/recall.node", import.meta.url));
  if (existsSync(local)) return local;
  const platform = currentPlatform();
  const { name, file } = platformPackage(platform);
  try {
    return join(dirname(createRequire(import.meta.url).resolve(`${name}/package.json`)), file);
  } catch {
    const why = PREBUILT_PLATFORMS.includes(platform)
      ? `its package ${name} is not installed (were optional dependencies left out?)`
      : `there is no prebuilt core for ${platform}, and none was built from source`;
    throw new RecallError(
      "INTERNAL",
      `cannot find recall's native search core: ${why}; ${REINSTALL} (building from source needs Rust: https://rustup.rs)`,
    );
  }
}

export function nativeModule(): NativeModule {
  const global = globalThis as { [LOADED]?: NativeModule };
  const loaded = global[LOADED];
  if (loaded) return loaded;
  const path = addonPath();
  const addon = { exports: {} as NativeModule };
  try {
    // process.dlopen, not require: no module resolution (package.json lookups) on every start.
    process.dlopen(addon, path);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new RecallError(
      "INTERNAL",
      `cannot load the search core ${path} (${reason}); ${REINSTALL}`,
    );
  }
  const core =
    typeof addon.exports.coreVersion === "function"
      ? addon.exports.coreVersion()
      : "older than 0.1.0";
  if (core !== RECALL_VERSION) {
    throw new RecallError(
      "INCOMPATIBLE",
      `the search core ${path} is version ${core}, but recall is ${RECALL_VERSION}; ${REINSTALL}`,
    );
  }
  global[LOADED] = addon.exports;
  return addon.exports;
}
