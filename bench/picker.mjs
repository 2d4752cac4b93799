/**
 * Opening the in-Pi picker with results, in a fresh Node process: import the library, open the
 * store, bring the index up to date (nothing changed), and run the first search-as-you-type query.
 * The Pi extension is not built yet; this is the library work it will do when the picker opens.
 *
 *   node bench/picker.mjs '<json: {query, prefix, limit}>'
 *
 * Prints `{importMs, openMs, syncMs, searchMs, fromOpenMs, fromImportMs, hits}` on stdout.
 * `fromOpenMs` (Recall.open → results) is what the picker pays inside a running Pi, where the
 * library is already imported; `fromImportMs` adds the import.
 */
import { LIBRARY_URL, now } from "./lib.mjs";

const request = JSON.parse(process.argv[2]);
const t0 = now();
const { Recall } = await import(LIBRARY_URL);
const t1 = now();
const recall = await Recall.open({ env: process.env }).open();
const t2 = now();
const report = await recall.sync();
const t3 = now();
const { hits } = await recall.search({ ...request, sync: false });
const t4 = now();
if (report.indexed + report.appended + report.removed !== 0)
  throw new Error(`the picker's sync found changes: ${JSON.stringify(report)}`);
process.stdout.write(
  `${JSON.stringify({ importMs: t1 - t0, openMs: t2 - t1, syncMs: t3 - t2, searchMs: t4 - t3, fromOpenMs: t4 - t1, fromImportMs: t4 - t0, hits: hits.length })}\n`,
);
