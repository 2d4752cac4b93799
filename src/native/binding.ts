/**
 * Loads the compiled search core (native/recall.node, built by scripts/build-native.mjs). Its
 * surface is typed by addon.d.ts, generated from the Rust source (scripts/native-typings.mjs).
 * Only src/native/ modules use the module itself: the index through IndexHandle, the analyzer
 * through words.ts.
 */
import { fileURLToPath } from "node:url";
import { RecallError } from "../errors.js";
import type * as Addon from "./addon.js";

export type NativeModule = typeof Addon;

/**
 * Where the loaded addon is kept: on the global object, because the CLI is two bundles, each with
 * a copy of this module (dist/bundle/early-look.cjs, then cli.cjs; see bin/recall.cjs). The second
 * finds the addon the first loaded, so a look the first started is an object its addon knows.
 */
const LOADED = Symbol.for("recall.nativeModule");

export function nativeModule(): NativeModule {
  const global = globalThis as { [LOADED]?: NativeModule };
  const loaded = global[LOADED];
  if (loaded) return loaded;
  const addonPath = fileURLToPath(new URL("../../native/recall.node", import.meta.url));
  try {
    // process.dlopen, not require: no module resolution (package.json lookups) on every start.
    const addon = { exports: {} as NativeModule };
    process.dlopen(addon, addonPath);
    global[LOADED] = addon.exports;
    return addon.exports;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new RecallError("INTERNAL", `cannot load the search core ${addonPath} (${reason}); run \`npm install\` in the recall package to build it`);
  }
}
