/**
 * Baseline: Pi's own session list (`SessionManager.listAll()`, what `/resume` loads for all
 * projects), on the same corpus. Runs under Pi's Node 22 runtime (.cache/pi-runtime, installed by
 * scripts/pi-runtime.sh) with PI_CODING_AGENT_DIR pointing at the corpus:
 *
 *   PI_CODING_AGENT_DIR=<corpus>/agent <pi-node> bench/pi-list.mjs <path of
 *   pi-coding-agent/dist/index.js>
 *
 * Prints `{importMs, listMs, sessions}` on stdout.
 */
import { pathToFileURL } from "node:url";

const t0 = performance.now();
const { SessionManager } = await import(pathToFileURL(process.argv[2]).href);
const t1 = performance.now();
const sessions = await SessionManager.listAll();
const t2 = performance.now();
process.stdout.write(
  `${JSON.stringify({ importMs: t1 - t0, listMs: t2 - t1, sessions: sessions.length })}\n`,
);
