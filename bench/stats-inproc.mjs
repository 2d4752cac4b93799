/**
 * One process of bench/stats.mjs: import the library (`--library`, default this checkout's
 * dist/), open the store, bring the index up to date (nothing changed), then time `Recall.stats`
 * calls one after the other as the activity page of `recall serve` makes them (each with the
 * freshness check), then `unsynced` more without it (`sync: false`, as `recall serve` asks while
 * it follows the index). With `cold`, the stats cache file is removed first.
 *
 *   node bench/stats-inproc.mjs '<json: {library?, cacheFile, cold, calls, unsynced?, since?,
 *   answers?}>'
 *
 * Prints `{syncMs, callsMs: [...], cpuMs: [...], unsyncedMs: [...], unsyncedCpuMs: [...],
 * windowMs?, sessions, messages, same, answer?}` on stdout: `cpuMs` is each call's processor time
 * (user and system, all threads), what its wall time would be on an idle machine give or take the
 * threads; `same` says every call gave the first call's answer; `answer` (with `answers`) is that
 * answer.
 */
import { isDeepStrictEqual } from "node:util";
import { rmSync } from "node:fs";
import { LIBRARY_URL, now } from "./lib.mjs";

const request = JSON.parse(process.argv[2]);
if (request.cold) rmSync(request.cacheFile, { force: true });
const { Recall } = await import(request.library ?? LIBRARY_URL);
const recall = Recall.open({ env: process.env });
const t0 = now();
const report = await recall.sync();
const syncMs = now() - t0;
if (report.indexed + report.appended + report.removed !== 0)
  throw new Error(`the index was not up to date: ${JSON.stringify(report)}`);
const callsMs = [];
const cpuMs = [];
let first;
let same = true;
for (let i = 0; i < request.calls; i++) {
  const t = now();
  const cpu = process.cpuUsage();
  const stats = await recall.stats();
  callsMs.push(now() - t);
  const used = process.cpuUsage(cpu);
  cpuMs.push((used.user + used.system) / 1000);
  if (i === 0) first = stats;
  else same &&= isDeepStrictEqual(stats, first);
}
const unsyncedMs = [];
const unsyncedCpuMs = [];
for (let i = 0; i < (request.unsynced ?? 0); i++) {
  const t = now();
  const cpu = process.cpuUsage();
  const stats = await recall.stats({ sync: false });
  unsyncedMs.push(now() - t);
  const used = process.cpuUsage(cpu);
  unsyncedCpuMs.push((used.user + used.system) / 1000);
  same &&= isDeepStrictEqual(stats, first);
}
let windowMs;
if (request.since !== undefined) {
  const t = now();
  await recall.stats({ since: request.since });
  windowMs = now() - t;
}
recall.close();
process.stdout.write(
  `${JSON.stringify({ syncMs, callsMs, cpuMs, unsyncedMs, unsyncedCpuMs, windowMs, sessions: first.totals.sessions, messages: first.totals.messages, same, ...(request.answers ? { answer: first } : {}) })}\n`,
);
