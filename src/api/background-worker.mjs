/**
 * The facade's background thread (see background-jobs.ts): brings the index up to date and reads
 * session files, so that parsing JSONL never runs on the host's main thread (Pi's UI). Plain
 * JavaScript because Node starts it directly. It loads background-library the way the host loaded
 * recall: the TypeScript sources through jiti (the loader Pi uses for extensions) when jiti can be
 * found, or else the compiled library in dist/. If neither loads, every job fails with `fatal`,
 * and the facade runs jobs on its own thread instead.
 *
 * Protocol: the parent posts `{id, job}`; the worker answers `{id, ok: true, result}`,
 * `{id, ok: false, error: {code, message, fatal}}`, and may post `{id, progress}` before that.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { parentPort, workerData } from "node:worker_threads";

const { jitiPath, libraryTs, libraryJs } = workerData;

async function loadLibrary() {
  const reasons = [];
  if (jitiPath && libraryTs) {
    try {
      const { createJiti } = createRequire(import.meta.url)(jitiPath);
      const jiti = createJiti(import.meta.url, { moduleCache: true });
      return await jiti.import(libraryTs);
    } catch (error) {
      reasons.push(`jiti: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  try {
    return await import(pathToFileURL(libraryJs).href);
  } catch (error) {
    reasons.push(`dist: ${error instanceof Error ? error.message : String(error)}`);
  }
  throw Object.assign(
    new Error(`cannot load the recall library in the background thread (${reasons.join("; ")})`),
    { fatal: true },
  );
}

const library = loadLibrary();
// Prevent an unhandled rejection before the first job asks for the library.
library.catch(() => {});

/**
 * One open store per set of location overrides, kept for the life of the thread (opened again if
 * its folder was deleted).
 */
const stores = new Map();

async function storeFor(lib, overrides) {
  const key = JSON.stringify(overrides);
  const known = stores.get(key);
  const store = await (known
    ? lib.storeInPlace(known)
    : lib.openStore(lib.resolveLocations(overrides)));
  stores.set(key, store);
  return store;
}

async function run(id, job) {
  const lib = await library;
  switch (job.type) {
    case "sync": {
      const store = await storeFor(lib, job.overrides);
      const notices = store.notices.splice(0);
      let last = 0;
      const report = await lib.syncIndex(store, {
        ...job.options,
        onProgress: (progress) => {
          // A message per file would flood the parent on a first index: at most ten a second.
          const now = Date.now();
          if (now - last < 100 && progress.filesDone < progress.filesTotal) return;
          last = now;
          parentPort.postMessage({ id, progress: { ...progress } });
        },
      });
      report.notices.unshift(...notices);
      return report;
    }
    case "read":
      return lib.readSession(job.ref, job.options);
    case "context":
      return lib.sessionContext(job.ref, job.question, job.options);
    case "stats":
      return lib.workStats(await storeFor(lib, job.overrides), job.options);
    default:
      throw new Error(`Assertion failed: unknown job type ${job.type}`);
  }
}

/**
 * An error as the parent gets it: a RecallError's fields (a file error made one, as on the parent's
 * thread).
 */
async function wireError(thrown) {
  if (thrown?.fatal === true) return { message: thrown.message, fatal: true };
  const error = (await library).asRecallError(thrown);
  return {
    code: error.code,
    field: error.field,
    value: error.value,
    hint: error.hint,
    message: error.message,
    fatal: false,
  };
}

parentPort.on("message", ({ id, job }) => {
  run(id, job).then(
    (result) => parentPort.postMessage({ id, ok: true, result }),
    async (error) => parentPort.postMessage({ id, ok: false, error: await wireError(error) }),
  );
});
