#!/usr/bin/env node
"use strict";
// CommonJS on purpose: a CommonJS entry never starts Node's ES module loader (see scripts/bundle-cli.mjs).
//
// Compiling the bundle is a good part of a cold start, so its compiled code is cached. Node ≥ 22.1
// does that itself (module.enableCompileCache). On older Node, the bundle is compiled here with a
// V8 code cache kept beside it, written after the first run: only where the bundle itself is
// writable, since whoever can write the cache can change what runs. The file name carries the
// bundle's size and mtime and the Node version, so a rebuilt bundle or another Node never meets a
// stale cache; a cache V8 rejects anyway is written again. Each command gets a cache of its own:
// a cache holds the functions its run compiled, and a `recall index` run compiles few of those a
// `recall search` needs.
const fs = require("node:fs");
const path = require("node:path");
const Module = require("node:module");

const bundle = path.join(__dirname, "..", "dist", "bundle", "cli.cjs");

// `recall search` and `recall list` start their freshness check before the CLI loads, from a
// bundle of a few KB (src/cli/early-look.ts): its stats then overlap the loading.
const earlyLook = require(path.join(path.dirname(bundle), "early-look.cjs")).lookAheadFor(process.argv.slice(2), { env: process.env, cwd: process.cwd() });

function loadWithCodeCache(vm) {
  const source = fs.readFileSync(bundle, "utf8");
  const stat = fs.statSync(bundle);
  const version = `${path.basename(bundle)}.${stat.size}-${Math.trunc(stat.mtimeMs)}-${process.version}-${process.arch}`;
  const command = /^[a-z]+$/.test(process.argv[2] ?? "") ? process.argv[2] : "other";
  const cacheFile = path.join(path.dirname(bundle), `${version}.${command}.v8cache`);
  let cachedData;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    // No cache yet.
  }
  // The bundle has no import() (scripts/bundle-cli.mjs turns them into require), which a script
  // compiled here could not run.
  const script = new vm.Script(Module.wrap(source), { filename: bundle, cachedData });
  const bundleModule = new Module(bundle, module);
  bundleModule.filename = bundle;
  bundleModule.paths = Module._nodeModulePaths(path.dirname(bundle));
  const localRequire = (id) => bundleModule.require(id);
  localRequire.resolve = (request) => Module._resolveFilename(request, bundleModule);
  script.runInThisContext().call(bundleModule.exports, bundleModule.exports, localRequire, bundleModule, bundle, path.dirname(bundle));
  const writeCache = () => {
    if (cachedData && !script.cachedDataRejected) return;
    try {
      fs.accessSync(path.dirname(bundle), fs.constants.W_OK);
      // Caches of an earlier bundle or another Node.
      for (const old of fs.readdirSync(path.dirname(bundle))) {
        if (old.endsWith(".v8cache") && !old.startsWith(`${version}.`)) fs.rmSync(path.join(path.dirname(bundle), old), { force: true });
      }
      const temporary = `${cacheFile}.${process.pid}.tmp`;
      fs.writeFileSync(temporary, script.createCachedData());
      fs.renameSync(temporary, cacheFile);
    } catch {
      // A read-only install runs without the cache.
    }
  };
  return { cli: bundleModule.exports, writeCache };
}

// A finished command whose output has all left the process ends it at once: Node's teardown of
// the environment costs a short command a few milliseconds.
if (typeof Module.enableCompileCache === "function") {
  Module.enableCompileCache();
  require(bundle)
    .main(earlyLook)
    .then((allWritten) => {
      // Node writes its compile cache in that teardown; before 22.10 it cannot be asked to earlier.
      if (!allWritten || typeof Module.flushCompileCache !== "function") return;
      Module.flushCompileCache();
      process.exit();
    });
} else {
  const { cli, writeCache } = loadWithCodeCache(require("node:vm"));
  // After the run, so that the cache holds the functions the run compiled too.
  cli.main(earlyLook).then(
    (allWritten) => {
      writeCache();
      if (allWritten) process.exit();
    },
    (error) => {
      writeCache();
      throw error;
    },
  );
}
