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
    // A test file spends most of its time waiting on what it spawns (the CLI, Pi, OpenSearch,
    // Chromium): three files at a time keep a 2-core machine busy without crowding it.
    maxWorkers: 3,
  },
});
