/**
 * The meaning model's package for the tests that run the model: scripts/model-package.sh assembles
 * recall-pi-model-minilm in .cache/model-minilm (RECALL_MODEL_PACKAGE_DIR moves it; CI assembles
 * it). Without it those tests are skipped, visibly.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const dir = process.env.RECALL_MODEL_PACKAGE_DIR ?? join(REPO, ".cache", "model-minilm");

/** The assembled package's folder, or undefined when it was not assembled. */
export const MODEL_PACKAGE = existsSync(join(dir, "model.onnx")) ? dir : undefined;
/** Why model tests are skipped, for the test title. */
export const MODEL_SKIP_REASON = MODEL_PACKAGE ? "" : " (skipped: no model package recall-pi-model-minilm; run scripts/model-package.sh)";
