/**
 * The meaning model as the library finds it: recall's own package, recall-pi-model-minilm,
 * installed beside recall at recall's version, loaded into the native core (MeaningHandle). It is
 * optional: without it there is no model, and recall is its word search. Nothing is downloaded.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { RecallError } from "../errors.js";
import { MeaningHandle } from "../native/meaning-handle.js";
import { RECALL_VERSION } from "../version.js";

export const MODEL_PACKAGE_NAME = "recall-pi-model-minilm";

/**
 * The folder of the model package as Node resolves it from `from` (a file; recall's own by
 * default), or null when it is not installed. A package of another release is MODEL_UNAVAILABLE:
 * its model may embed otherwise than the vectors recall has stored.
 */
export function modelPackageDir(from: string | URL = import.meta.url): string | null {
  let manifest: string;
  try {
    manifest = createRequire(from).resolve(`${MODEL_PACKAGE_NAME}/package.json`);
  } catch {
    return null;
  }
  const { version } = JSON.parse(readFileSync(manifest, "utf8")) as { version?: string };
  if (version !== RECALL_VERSION) {
    throw new RecallError(
      "MODEL_UNAVAILABLE",
      `the meaning model's package ${MODEL_PACKAGE_NAME} is at ${version ?? "no version"}, not at recall's ${RECALL_VERSION}`,
      {
        value: dirname(manifest),
        hint: `install ${MODEL_PACKAGE_NAME}@${RECALL_VERSION} beside recall`,
      },
    );
  }
  return dirname(manifest);
}

/**
 * The model of the package found from `from`, loaded on the thread pool; null when it is not
 * installed.
 */
export async function loadMeaningModel(from?: string | URL): Promise<MeaningHandle | null> {
  const dir = modelPackageDir(from);
  return dir === null ? null : MeaningHandle.load(dir);
}
