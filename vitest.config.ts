import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // clipanion's "module" build imports a folder, which strict ESM refuses: use its CommonJS
    // entry, as Node itself does.
    alias: { clipanion: require.resolve("clipanion") },
  },
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/helpers/global-setup.ts", "test/helpers/opensearch-run.ts"],
    setupFiles: ["test/helpers/clean-env.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Tests spawn the real CLI and share a 2-core machine with cargo: keep parallelism modest.
    maxWorkers: 2,
  },
});
