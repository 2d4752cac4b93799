/**
 * recall's version: the package's (package.json; a test keeps them equal). The native core it
 * loads must be of the same release (native/Cargo.toml carries the same number; see
 * native/binding.ts), since the two sides of the N-API surface change together.
 */
export const RECALL_VERSION = "0.1.0";
