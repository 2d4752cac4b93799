#!/usr/bin/env node
"use strict";
// `recall-mcp …` is `recall mcp …`, so a client's configuration needs no subcommand.
process.argv.splice(2, 0, "mcp");
require("./recall.cjs");
