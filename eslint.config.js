// The TypeScript lint gate (`npm run lint`, part of `npm test`): typescript-eslint with the type
// checker, for the mistakes the compiler lets through — above all a promise nobody awaits or
// catches, which Node turns into an unhandled rejection that ends the process.
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "native/", "npm/", ".cache/", "bench/results/", "**/*.cjs", "**/*.mjs", "**/*.js"] },
  {
    files: ["**/*.ts", "**/*.tsx"],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { "@typescript-eslint": tseslint.plugin },
    rules: {
      // `void promise` is no excuse: a rejection still ends the process. Catch it or await it.
      "@typescript-eslint/no-floating-promises": ["error", { ignoreVoid: false }],
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/require-await": "off",
      "@typescript-eslint/return-await": ["error", "in-try-catch"],
      "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }],
      "no-constant-condition": ["error", { checkLoops: false }],
      "no-fallthrough": "error",
      eqeqeq: ["error", "smart"],
    },
  },
);
