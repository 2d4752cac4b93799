/**
 * Another process building the index from scratch, slowly: it takes the writer lock on an empty
 * index, holds it for `holdMs` with nothing committed (the long first minutes of a large history),
 * then runs a real sync under that lock (one commit) and exits. `holdMs: Infinity` never syncs:
 * it holds the lock until `stop` (a builder stuck before its first commit).
 */
import { spawn, type ChildProcess } from "node:child_process";

const STORE = new URL("../../dist/store.js", import.meta.url).href;
const LOCATIONS = new URL("../../dist/locations.js", import.meta.url).href;
const SYNC = new URL("../../dist/sync/sync.js", import.meta.url).href;

export interface SlowBuilder {
  /** Resolves when it exits (after its sync, or `stop`). */
  done: Promise<number | null>;
  stop(): Promise<void>;
}

export async function startSlowFirstIndex(
  env: NodeJS.ProcessEnv,
  holdMs: number,
): Promise<SlowBuilder> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `import { openStore } from ${JSON.stringify(STORE)};
       import { resolveLocations } from ${JSON.stringify(LOCATIONS)};
       import { syncIndex } from ${JSON.stringify(SYNC)};
       const store = await openStore(resolveLocations({ env: process.env }));
       await store.native.lock(1000);
       process.stdout.write("locked\\n");
       const hold = ${Number.isFinite(holdMs) ? holdMs : -1};
       // The handler keeps the store (and so its lock) from being collected.
       if (hold < 0) { process.stdin.resume(); process.stdin.on("end", async () => { await store.native.unlock(); process.exit(0); }); }
       else { await new Promise((r) => setTimeout(r, hold)); await syncIndex(store); process.exit(0); }`,
    ],
    { env, stdio: ["pipe", "pipe", "inherit"] },
  );
  const done = new Promise<number | null>((resolve) => child.on("close", resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once("data", () => resolve());
    child.once("close", (code) =>
      reject(new Error(`the builder exited (${code}) before taking the lock`)),
    );
  });
  return {
    done,
    stop: async () => {
      child.stdin!.end();
      await done;
    },
  };
}
