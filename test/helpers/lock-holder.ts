/** Another process that holds the index's writer lock until released: a concurrent writer. */
import { spawn } from "node:child_process";

const STORE = new URL("../../dist/store.js", import.meta.url).href;
const LOCATIONS = new URL("../../dist/locations.js", import.meta.url).href;

export async function holdWriterLock(agentDir: string): Promise<{ release(): Promise<void> }> {
  const holder = spawn(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `import { openStore } from ${JSON.stringify(STORE)};
       import { resolveLocations } from ${JSON.stringify(LOCATIONS)};
       const store = await openStore(resolveLocations({ env: { PI_CODING_AGENT_DIR: ${JSON.stringify(agentDir)} } }));
       await store.native.lock(1000); process.stdout.write("locked\\n");
       process.stdin.resume(); process.stdin.on("end", async () => { await store.native.unlock(); process.exit(0); });`,
    ],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  await new Promise<void>((resolve) => holder.stdout.once("data", () => resolve()));
  return {
    release: async () => {
      holder.stdin.end();
      await new Promise((resolve) => holder.on("close", resolve));
    },
  };
}
