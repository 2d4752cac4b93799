#!/usr/bin/env node
import { main } from "../dist/bundle/cli.js";

await main();
