// The TypeScript lint gate (`npm run lint`, part of `npm test`): typescript-eslint with the type
// checker, for the mistakes the compiler lets through — above all a promise nobody awaits or
// catches, which Node turns into an unhandled rejection that ends the process. Lines are 100
// columns, as rustfmt's: Prettier lays out the code (`npm run format`), and this holds comments to
// it too (a string, a URL or a regular expression may run longer).
import stylistic from "@stylistic/eslint-plugin";
import tseslint from "typescript-eslint";

const WIDTH = [
  "error",
  {
    code: 100,
    ignoreStrings: true,
    ignoreTemplateLiterals: true,
    ignoreUrls: true,
    ignoreRegExpLiterals: true,
  },
];

export default tseslint.config(
  {
    ignores: ["dist/", "node_modules/", "native/", "npm/", ".cache/", "bench/results/"],
  },
  // Generated from native/src by napi-rs (scripts/native-typings.mjs): its comments are Rust's.
  {
    ignores: ["src/native/addon.d.ts"],
  },
  {
    files: ["**/*.ts", "**/*.tsx"],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { "@typescript-eslint": tseslint.plugin, "@stylistic": stylistic },
    rules: {
      "@stylistic/max-len": WIDTH,
      // `void promise` is no excuse: a rejection still ends the process. Catch it or await it.
      "@typescript-eslint/no-floating-promises": ["error", { ignoreVoid: false }],
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/require-await": "off",
      "@typescript-eslint/return-await": ["error", "in-try-catch"],
      "@typescript-eslint/switch-exhaustiveness-check": [
        "error",
        { considerDefaultExhaustiveForUnions: true },
      ],
      "no-constant-condition": ["error", { checkLoops: false }],
      "no-fallthrough": "error",
      eqeqeq: ["error", "smart"],
    },
  },
  // The scripts, benches and the CLI's entry: plain JavaScript, held to the width only.
  {
    files: ["**/*.mjs", "**/*.cjs", "**/*.js"],
    plugins: { "@stylistic": stylistic },
    rules: { "@stylistic/max-len": WIDTH },
  },
);
