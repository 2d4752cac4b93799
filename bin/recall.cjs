#!/usr/bin/env node
"use strict";
// CommonJS on purpose: a CommonJS entry never starts Node's ES module loader (see scripts/bundle-cli.mjs).
require("../dist/bundle/cli.cjs").main();
