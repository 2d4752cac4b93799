import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/helpers/global-setup.ts"],
    setupFiles: ["test/helpers/clean-env.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Tests spawn the real CLI and share a 2-core machine with cargo: keep parallelism modest.
    maxWorkers: 2,
  },
});
