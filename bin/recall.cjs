#!/usr/bin/env node
"use strict";
// CommonJS on purpose: a CommonJS entry never starts Node's ES module loader (see
// scripts/bundle-cli.mjs).
//
// `recall search` and `recall list` are tried first with the quick bundle (src/cli/quick.ts): the
// two commands with a parser of recall's own and without clipanion's Cli; a command line it
// declines, and every other command, runs in the whole CLI's bundle.
//
// Compiling a bundle is a good part of a cold start, so its compiled code is cached. Node ≥ 22.1
// does that itself (module.enableCompileCache). On older Node, a bundle is compiled here with a
// V8 code cache kept beside it, written after the first run: only where the bundle itself is
// writable, since whoever can write the cache can change what runs. The file name carries the
// bundle's name, size and mtime and the Node version, so a rebuilt bundle or another Node never
// meets a stale cache; a cache V8 rejects anyway is written again. Each command gets a cache of
// its own: a cache holds the functions its run compiled, and a `recall index` run compiles few of
// those a `recall search` needs.
const fs = require("node:fs");
const path = require("node:path");
const Module = require("node:module");

const bundles = path.join(__dirname, "..", "dist", "bundle");
const QUICK_COMMANDS = new Set(["search", "list"]);

// `recall search` and `recall list` start their freshness check before the CLI loads, from a
// bundle of a few KB (src/cli/early-look.ts): its stats then overlap the loading.
const earlyLook = require(path.join(bundles, "early-look.cjs")).lookAheadFor(
  process.argv.slice(2),
  { env: process.env, cwd: process.cwd() },
);

function loadWithCodeCache(vm, name) {
  const bundle = path.join(bundles, name);
  const source = fs.readFileSync(bundle, "utf8");
  const stat = fs.statSync(bundle);
  const version = `${name}.${stat.size}-${Math.trunc(stat.mtimeMs)}-${process.version}-${process.arch}`;
  const command = /^[a-z]+$/.test(process.argv[2] ?? "") ? process.argv[2] : "other";
  const cacheFile = path.join(path.dirname(bundle), `${version}.${command}.v8cache`);
  let cachedData;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    // No cache yet.
  }
  // The bundle has no import() (scripts/bundle-cli.mjs turns them into require), which a script
  // compiled here could not run. It runs as Node runs a CommonJS file, in a function given its
  // exports, a require that resolves from the bundle's own folder, and its module.
  const script = new vm.Script(
    `(function (exports, require, module, __filename, __dirname) {${source}\n})`,
    { filename: bundle, cachedData },
  );
  const bundleModule = { exports: {}, filename: bundle, id: bundle };
  script
    .runInThisContext()
    .call(
      bundleModule.exports,
      bundleModule.exports,
      Module.createRequire(bundle),
      bundleModule,
      bundle,
      path.dirname(bundle),
    );
  const writeCache = () => {
    if (cachedData && !script.cachedDataRejected) return;
    try {
      fs.accessSync(path.dirname(bundle), fs.constants.W_OK);
      // Caches of an earlier build of this bundle or another Node.
      for (const old of fs.readdirSync(path.dirname(bundle))) {
        if (
          old.startsWith(`${name}.`) &&
          old.endsWith(".v8cache") &&
          !old.startsWith(`${version}.`)
        )
          fs.rmSync(path.join(path.dirname(bundle), old), { force: true });
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

/**
 * Runs the command line with the bundles `load` gives: the quick one first where it may take it.
 * Resolves with whether all output has left the process (see src/cli/main.ts).
 */
async function run(load) {
  if (QUICK_COMMANDS.has(process.argv[2])) {
    const allWritten = await load("quick.cjs").main(earlyLook);
    if (allWritten !== undefined) return allWritten;
  }
  return load("cli.cjs").main(earlyLook);
}

// A finished command whose output has all left the process ends it at once: Node's teardown of
// the environment costs a short command a few milliseconds.
if (typeof Module.enableCompileCache === "function") {
  Module.enableCompileCache();
  run((name) => require(path.join(bundles, name))).then((allWritten) => {
    // Node writes its compile cache in that teardown; before 22.10 it cannot be asked to earlier.
    if (!allWritten || typeof Module.flushCompileCache !== "function") return;
    Module.flushCompileCache();
    process.exit();
  });
} else {
  const vm = require("node:vm");
  const loaded = [];
  const load = (name) => {
    const bundle = loadWithCodeCache(vm, name);
    loaded.push(bundle);
    return bundle.cli;
  };
  // After the run, so that a cache holds the functions the run compiled too; not for the quick
  // bundle when it declined the command line, since then it compiled little.
  const writeCaches = () => {
    for (const bundle of loaded.length > 1 ? loaded.slice(1) : loaded) bundle.writeCache();
  };
  run(load).then(
    (allWritten) => {
      writeCaches();
      if (allWritten) process.exit();
    },
    (error) => {
      writeCaches();
      throw error;
    },
  );
}
