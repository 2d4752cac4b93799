/**
 * The meaning model's package for the tests that run the model: scripts/model-package.sh assembles
 * recall-pi-model-minilm in .cache/model-minilm (RECALL_MODEL_PACKAGE_DIR moves it; CI assembles
 * it). Without it those tests are skipped, visibly — unless it must be there: where
 * RECALL_REQUIRE_MODEL=1 (.ci/run sets it after assembling the package) or CI is set, every test
 * file that imports this fails, as native/model/tests/reference.rs does.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const dir = process.env.RECALL_MODEL_PACKAGE_DIR ?? join(REPO, ".cache", "model-minilm");

/** The assembled package's folder, or undefined when it was not assembled. */
export const MODEL_PACKAGE = existsSync(join(dir, "model.onnx")) ? dir : undefined;
/**
 * What says the package must be there, if anything does: RECALL_REQUIRE_MODEL, or CI other than
 * empty, 0 or false.
 */
const required = ["RECALL_REQUIRE_MODEL", "CI"].find(
  (name) => !["", "0", "false"].includes((process.env[name] ?? "").trim()),
);
if (!MODEL_PACKAGE && required) {
  throw new Error(
    `the model package recall-pi-model-minilm is not at ${dir} (run scripts/model-package.sh), and ${required} says it must be`,
  );
}
/** Why model tests are skipped, for the test title. */
export const MODEL_SKIP_REASON = MODEL_PACKAGE
  ? ""
  : " (skipped: no model package recall-pi-model-minilm; run scripts/model-package.sh)";
